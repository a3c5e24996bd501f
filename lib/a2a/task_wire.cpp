#include "task_wire.hpp"

#include "../json/json_members.hpp"
#include "../json/json_text.hpp"
#include "../text/ascii.hpp"
#include "a2a_parts.hpp"


#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <ctime>
#include <stdexcept>

namespace forma::a2a::detail {

namespace json = boost::json;

namespace {

std::string iso_time(std::chrono::system_clock::time_point t) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

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
    json::object status{{"state", to_string(task.state)}, {"timestamp", iso_time(task.updated)}};
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

std::vector<chat_message> read_user_message(const json::object& message,
                                            const std::vector<function_approval_request_content>& waiting) {
    const json::value* parts = message.if_contains("parts");
    if (!parts || !parts->is_array() || parts->get_array().empty())
        throw std::invalid_argument("params.message.parts must be a non-empty array of parts");
    std::vector<content> contents;
    for (const json::value& part : parts->get_array()) {
        const json::object* o = part.if_object();
        const json::value* data = o ? o->if_contains("data") : nullptr;
        const json::object* answer = data ? data->if_object() : nullptr;
        if (!waiting.empty() && answer && json_detail::string_member(*answer, "type") == "function_approval_response") {
            const std::string id = json_detail::string_member(*answer, "id");
            const json::value* approved = answer->if_contains("approved");
            for (const auto& request : waiting)
                if (request.id == id) {
                    const bool yes = approved && approved->is_bool() && approved->get_bool();
                    contents.push_back(yes ? content(request.approve()) : content(request.reject(json_detail::string_member(*answer, "reason"))));
                }
            continue;
        }
        contents.push_back(from_part(part));
    }
    // A plain-text answer to approval requests decides them all.
    if (!waiting.empty() && contents.size() == 1) {
        if (const auto* text = std::get_if<text_content>(&contents.front())) {
            const std::string word = text_detail::to_lower(text->text);
            const bool yes = word.starts_with("approve") || word.starts_with("yes");
            contents.clear();
            for (const auto& request : waiting) contents.push_back(yes ? content(request.approve()) : content(request.reject(text->text)));
        }
    }
    return {chat_message(chat_role::user(), std::move(contents))};
}

} // namespace forma::a2a::detail
