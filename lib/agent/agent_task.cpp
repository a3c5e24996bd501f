// forma::task_state names, and the task_store base.
#include <forma/agent/agent_task.hpp>
#include <forma/agent/task_store.hpp>
#include <forma/error.hpp>
#include <forma/model/agent_response_builder.hpp>

#include <array>
#include <utility>

namespace forma {

namespace {

constexpr std::array<std::pair<task_state, std::string_view>, 6> names{{
    {task_state::submitted, "submitted"},
    {task_state::working, "working"},
    {task_state::input_required, "input-required"},
    {task_state::completed, "completed"},
    {task_state::failed, "failed"},
    {task_state::canceled, "canceled"},
}};

} // namespace

std::string_view to_string(task_state state) noexcept {
    for (const auto& [s, name] : names)
        if (s == state) return name;
    return "unknown";
}

std::optional<task_state> task_state_from_string(std::string_view name) noexcept {
    for (const auto& [s, n] : names)
        if (n == name) return s;
    return std::nullopt;
}

bool is_final(task_state state) noexcept {
    return state == task_state::completed || state == task_state::failed || state == task_state::canceled;
}

bool has_stopped(task_state state) noexcept { return is_final(state) || state == task_state::input_required; }

agent_response<> last_answer(const agent_task& task) {
    agent_response<> merged = to_agent_response(task.updates);
    std::size_t from = 0;
    for (std::size_t i = 0; i < merged.messages.size(); ++i)
        if (merged.messages[i].role == chat_role::user() || merged.messages[i].role == chat_role::system()) from = i + 1;
    merged.messages.erase(merged.messages.begin(), merged.messages.begin() + static_cast<std::ptrdiff_t>(from));
    return merged;
}

task_store::~task_store() = default;

boost::asio::awaitable<task_page> task_store::list(task_query) {
    throw error("this task store does not list tasks: it implements no task_store::list");
    co_return task_page{};
}

} // namespace forma
