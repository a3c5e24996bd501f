#include "task_wire.hpp"

#include "../json/json_members.hpp"
#include "../json/json_text.hpp"
#include "../model/json_support.hpp"
#include "../text/ascii.hpp"
#include "a2a_parts.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <iterator>
#include <type_traits>
#include <stdexcept>

namespace forma::a2a::detail {

namespace json = boost::json;

namespace {

json::object agent_message(const agent_task& task, json::array parts) {
    return {{"kind", "message"},     {"messageId", task.id + "-" + std::to_string(task.version)},
            {"role", "agent"},       {"parts", std::move(parts)},
            {"contextId", task.context_id}, {"taskId", task.id}};
}

json::array text_parts(std::string_view text) {
    json::array parts;
    if (!text.empty()) parts.push_back({{"kind", "text"}, {"text", json_detail::valid_utf8(text)}});
    return parts;
}

} // namespace

task_view::task_view(const agent_task& t) : task(t), answer(last_answer(t)) {}

std::string task_view::answer_text() const {
    std::string text;
    for (const chat_message& m : answer.messages) {
        const std::string t = m.text();
        if (t.empty()) continue;
        if (!text.empty()) text += '\n';
        text += t;
    }
    return text;
}

json::array task_view::answer_parts(bool as_data) const {
    const std::string text = answer_text();
    if (as_data && !text.empty()) {
        boost::system::error_code ec;
        json::value data = json::parse(text, ec);
        if (!ec) return json::array{json::object{{"kind", "data"}, {"data", std::move(data)}}};
    }
    json::array parts = text_parts(text);
    std::vector<chat_message> files;
    for (const chat_message& m : answer.messages) {
        chat_message only_files(m.role, std::vector<content>{});
        for (const content& c : m.contents)
            if (std::holds_alternative<data_content>(c) || std::holds_alternative<uri_content>(c)) only_files.contents.push_back(c);
        if (!only_files.contents.empty()) files.push_back(std::move(only_files));
    }
    for (auto& p : to_parts(files)) parts.push_back(std::move(p));
    return parts;
}

std::vector<function_approval_request_content> task_view::approval_requests() const {
    return answer.approval_requests();
}

json::array task_view::approval_parts() const {
    json::array parts;
    for (const auto& r : approval_requests()) {
        parts.push_back({{"kind", "data"},
                         {"data", {{"type", "function_approval_request"}, {"id", r.id}, {"name", r.call.name}, {"arguments", r.call.arguments}}}});
    }
    return parts;
}

json::object task_status(const agent_task& task, bool as_data) {
    json::object status{{"state", to_string(task.state)}, {"timestamp", model_detail::format_time(task.updated)}};
    if (task.state == task_state::failed) {
        status["message"] = agent_message(task, text_parts(task.error.empty() ? "the run failed" : task.error));
    } else if (task.state == task_state::input_required) {
        const task_view view(task);
        json::array parts = view.approval_requests().empty() ? view.answer_parts(as_data) : text_parts(view.answer_text());
        for (auto& p : view.approval_parts()) parts.push_back(std::move(p));
        status["message"] = agent_message(task, std::move(parts));
    }
    return status;
}

json::object task_object(const agent_task& task, bool as_data) {
    json::object out{{"kind", "task"}, {"id", task.id}, {"contextId", task.context_id}, {"status", task_status(task, as_data)}};
    json::array artifacts;
    if (task.state != task_state::input_required) {
        const task_view view(task);
        if (json::array parts = view.answer_parts(as_data); !parts.empty())
            artifacts.push_back({{"artifactId", task.id + "-answer"}, {"name", "answer"}, {"parts", std::move(parts)}});
    }
    out["artifacts"] = std::move(artifacts);
    json::array history;
    for (const chat_message& m : task.input)
        history.push_back({{"kind", "message"}, {"messageId", task.id + "-input"}, {"role", "user"},
                           {"parts", to_parts({m})}, {"contextId", task.context_id}, {"taskId", task.id}});
    out["history"] = std::move(history);
    return out;
}

json::object answer_message(const agent_task& task, bool as_data) {
    json::object message = agent_message(task, task_view(task).answer_parts(as_data));
    message.erase("taskId"); // answered at once: no task for the caller to follow
    return message;
}

json::object status_update(const agent_task& task, bool as_data) {
    const bool final = has_stopped(task.state);
    return {{"kind", "status-update"}, {"taskId", task.id}, {"contextId", task.context_id},
            {"status", task_status(task, as_data)}, {"final", final}};
}

json::object artifact_update(const agent_task& task, json::array parts, bool append, bool last_chunk) {
    return {{"kind", "artifact-update"}, {"taskId", task.id}, {"contextId", task.context_id},
            {"artifact", {{"artifactId", task.id + "-answer"}, {"name", "answer"}, {"parts", std::move(parts)}}},
            {"append", append}, {"lastChunk", last_chunk}};
}

namespace {

// The words that approve; anything else rejects, with the words as the reason.
bool approves(std::string_view words) {
    const std::string word = text_detail::to_lower(std::string(words));
    return word.starts_with("approve") || word.starts_with("yes");
}

std::string waited_ids(const std::vector<function_approval_request_content>& waiting) {
    std::string ids;
    for (const auto& request : waiting) ids += (ids.empty() ? "" : ", ") + request.id;
    return ids;
}

// A data part {"type": "function_approval_response", "id", "approved", "reason"?} answering one
// of `waiting`, as its response. @throws std::invalid_argument for an id not waited for, or an
// `approved` that is not a boolean.
function_approval_response_content approval_response(const json::object& answer,
                                                     const std::vector<function_approval_request_content>& waiting) {
    const std::string id = json_detail::string_member(answer, "id");
    const auto request = std::find_if(waiting.begin(), waiting.end(), [&](const auto& r) { return r.id == id; });
    if (request == waiting.end())
        throw std::invalid_argument("the approval response's id \"" + json_detail::valid_utf8(id) +
                                    "\" is not an approval request this task waits for (" + waited_ids(waiting) + ")");
    const json::value* approved = answer.if_contains("approved");
    if (!approved || !approved->is_bool())
        throw std::invalid_argument("the approval response to " + request->id + " needs \"approved\": true or false");
    return approved->get_bool() ? request->approve() : request->reject(json_detail::string_member(answer, "reason"));
}

} // namespace

std::vector<chat_message> read_user_message(const json::object& message,
                                            const std::vector<function_approval_request_content>& waiting) {
    const json::value* parts = message.if_contains("parts");
    if (!parts || !parts->is_array() || parts->get_array().empty())
        throw std::invalid_argument("params.message.parts must be a non-empty array of parts");
    std::vector<content> said;        // what goes to the agent besides the approval responses
    std::vector<content> responses;   // in the order the parts gave them
    std::string words;                // the text parts' words, which decide what no data part decides
    for (const json::value& part : parts->get_array()) {
        const json::object* o = part.if_object();
        const json::value* data = o ? o->if_contains("data") : nullptr;
        const json::object* answer = data ? data->if_object() : nullptr;
        if (!waiting.empty() && answer && json_detail::string_member(*answer, "type") == "function_approval_response") {
            function_approval_response_content response = approval_response(*answer, waiting);
            for (const content& c : responses)
                if (std::get<function_approval_response_content>(c).id == response.id)
                    throw std::invalid_argument("the approval request " + response.id + " is answered twice in one message");
            responses.emplace_back(std::move(response));
            continue;
        }
        content c = from_part(part);
        // A server keeps what a part says, not the part again: a request's bytes are stored once.
        std::visit([](auto& kept) {
            if constexpr (!std::is_same_v<std::decay_t<decltype(kept)>, unknown_content>) kept.raw_representation = nullptr;
        }, c);
        const bool words_part = o && json_detail::string_member(*o, "kind") == "text"; // (a data part reads as text too)
        if (const auto* text = std::get_if<text_content>(&c); text && words_part && !waiting.empty()) {
            words += words.empty() ? "" : "\n";
            words += text->text;
            continue;
        }
        said.push_back(std::move(c));
    }
    if (!waiting.empty()) {
        // Requests that no data part answers are decided by the words; with none, they stay unanswered.
        bool words_decided = false;
        for (const auto& request : waiting) {
            const bool answered = std::any_of(responses.begin(), responses.end(), [&](const content& c) {
                return std::get<function_approval_response_content>(c).id == request.id;
            });
            if (answered) continue;
            if (words.empty())
                throw std::invalid_argument("the task waits for an answer to the approval request " + request.id + " (" +
                                            json_detail::valid_utf8(request.call.name) +
                                            "): send a data part {\"type\": \"function_approval_response\", \"id\", \"approved\"}, or the words approve or reject");
            responses.emplace_back(approves(words) ? request.approve() : request.reject(words));
            words_decided = true;
        }
        // Words that decided nothing (a data part answered every request) go to the agent as the caller's.
        if (!words.empty() && !words_decided) said.insert(said.begin(), text_content(std::move(words)));
        said.insert(said.begin(), std::make_move_iterator(responses.begin()), std::make_move_iterator(responses.end()));
    }
    return {chat_message(chat_role::user(), std::move(said))};
}

} // namespace forma::a2a::detail
