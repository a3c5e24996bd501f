// forma::task_state names, and the task_store base.
#include <forma/agent/agent_task.hpp>
#include <forma/agent/task_store.hpp>

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

task_store::~task_store() = default;

} // namespace forma
