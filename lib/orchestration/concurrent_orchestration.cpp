#include <forma/orchestration/concurrent_orchestration.hpp>

#include <algorithm>
#include <span>
#include <unordered_set>

namespace forma {

namespace {

// The ids of the calls and approval requests in `author`'s messages.
struct owned_ids {
    std::unordered_set<std::string> calls;
    std::unordered_set<std::string> requests;
};

owned_ids ids_of(std::string_view author, std::span<const chat_message> messages) {
    owned_ids out;
    for (const chat_message& m : messages) {
        if (m.author_name != author) continue;
        for (const content& c : m.contents) {
            if (const auto* call = std::get_if<function_call_content>(&c)) out.calls.insert(call->call_id);
            if (const auto* request = std::get_if<function_approval_request_content>(&c)) {
                out.requests.insert(request->id);
                out.calls.insert(request->call.call_id);
            }
        }
    }
    return out;
}

// Whether a tool message answers one of the calls.
bool answers_calls(const chat_message& m, const owned_ids& ids) {
    if (m.role != chat_role::tool()) return false;
    for (const content& c : m.contents)
        if (const auto* result = std::get_if<function_result_content>(&c); result && ids.calls.count(result->call_id))
            return true;
    return false;
}

} // namespace

concurrent_orchestration::concurrent_orchestration(std::vector<std::shared_ptr<agent>> participants,
                                                   concurrent_options options)
    : orchestration("concurrent", std::move(participants), std::move(options.orchestration)),
      aggregator_(std::move(options.aggregator)) {}

std::vector<agent_response<>> concurrent_orchestration::answers_of(const std::vector<chat_message>& messages) const {
    std::vector<agent_response<>> out;
    for (const auto& p : participants()) {
        const owned_ids ids = ids_of(p->name(), messages);
        agent_response<> answer;
        for (const chat_message& m : messages)
            if (m.author_name == p->name() || answers_calls(m, ids)) answer.messages.push_back(m);
        out.push_back(std::move(answer));
    }
    return out;
}

void concurrent_orchestration::begin(orchestration_state&) const {}

boost::asio::awaitable<std::vector<std::size_t>> concurrent_orchestration::next_speakers(turn t) {
    std::vector<std::size_t> everyone;
    if (t.state.step == 0)
        for (std::size_t i = 0; i < participants().size(); ++i) everyone.push_back(i);
    co_return everyone;
}

std::vector<chat_message> concurrent_orchestration::view(std::size_t speaker, const turn& t) const {
    const std::size_t start = std::min(t.state.fan_out_start, t.conversation.size());
    std::vector<chat_message> out(t.conversation.begin(), t.conversation.begin() + static_cast<std::ptrdiff_t>(start));
    const std::span<const chat_message> answers(t.conversation.data() + start, t.conversation.size() - start);
    const std::string_view name = participants()[speaker]->name();
    const owned_ids ids = ids_of(name, answers);
    for (const chat_message& m : answers) {
        if (m.author_name == name || answers_calls(m, ids)) {
            out.push_back(m);
        } else if (m.role == chat_role::user()) {
            // The caller's words after the fan-out, with only the approval answers meant for this one.
            chat_message kept = m;
            std::erase_if(kept.contents, [&](const content& c) {
                const auto* answer = std::get_if<function_approval_response_content>(&c);
                return answer && !ids.requests.count(answer->id);
            });
            if (!kept.contents.empty()) out.push_back(std::move(kept));
        }
    }
    return out;
}

bool concurrent_orchestration::may_answer_last(std::size_t, const turn&) const {
    return !aggregator_.combine; // with an aggregator, its message is the answer
}

void concurrent_orchestration::prepare(std::size_t, agent_run_options& options, const turn&) const {
    if (!aggregator_.participant_format) return;
    options.response_format = aggregator_.participant_format;
    options.output_validator = aggregator_.participant_validator;
}

std::vector<chat_message> concurrent_orchestration::after(std::size_t, const agent_response<>&, turn&) { return {}; }

std::optional<chat_message> concurrent_orchestration::conclude(turn& t) {
    if (!aggregator_.combine) return std::nullopt;
    const std::size_t start = std::min(t.state.fan_out_start, t.conversation.size());
    const std::vector<chat_message> answers(t.conversation.begin() + static_cast<std::ptrdiff_t>(start),
                                            t.conversation.end());
    chat_message combined = aggregator_.combine(answers_of(answers));
    combined.role = chat_role::assistant();
    if (combined.author_name.empty()) combined.author_name = std::string(name());
    return combined;
}

} // namespace forma
