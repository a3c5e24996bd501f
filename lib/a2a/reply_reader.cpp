#include "reply_reader.hpp"

#include <forma/model/awaits_input.hpp>

#include "a2a_parts.hpp"

#include "../json/json_members.hpp"

#include <array>
#include <algorithm>

namespace forma::a2a::detail {

namespace {

namespace json = boost::json;

} // namespace

bool is_terminal_state(std::string_view state) noexcept {
    constexpr std::array terminal{"completed", "canceled", "failed", "rejected"};
    return std::find(terminal.begin(), terminal.end(), state) != terminal.end();
}

bool is_interrupted_state(std::string_view state) noexcept { return state == "input-required" || state == "auth-required"; }

continuation_token task_token(const std::string& task_id, const std::string& context_id) {
    return continuation_token(json::value{{"kind", "a2a.task"}, {"task_id", task_id}, {"context_id", context_id}});
}

std::string task_of(const continuation_token& token) {
    const json::object* o = token.value().if_object();
    if (!o || json_detail::string_member(*o, "kind") != "a2a.task") return {};
    return json_detail::string_member(*o, "task_id");
}

reply_reader::reply_reader(std::string author, std::string agent_id, bool with_tokens)
    : author_(std::move(author)), agent_id_(std::move(agent_id)), with_tokens_(with_tokens) {}

agent_response_update reply_reader::header(const json::value& raw) const {
    agent_response_update u;
    u.agent_id = agent_id_;
    u.raw_representation = raw;
    if (!task_id_.empty()) {
        u.response_id = task_id_;
        u.additional_properties["a2a.task_id"] = task_id_;
        u.additional_properties["a2a.task_state"] = state_;
        if (is_interrupted_state(state_)) u.additional_properties[awaits_input_property] = true;
        if (with_tokens_ && !finished()) u.continuation_token = task_token(task_id_, context_id_);
    }
    if (!context_id_.empty()) u.additional_properties["a2a.context_id"] = context_id_;
    return u;
}

agent_response_update reply_reader::contents_update(std::vector<content> contents, const json::value& raw) const {
    agent_response_update u = header(raw);
    u.role = chat_role::assistant();
    u.author_name = author_;
    u.contents = std::move(contents);
    return u;
}

// The status message is the answer when there is no artifact, and the question when the
// task waits for the caller; it is read once the task has stopped.
void reply_reader::read_status(const json::object& status, const json::value& raw, std::vector<agent_response_update>& out) {
    state_ = json_detail::string_member(status, "state");
    const json::value* message = status.if_contains("message");
    status_text_.clear();
    std::vector<content> said;
    if (message && message->is_object()) {
        said = from_parts(message->get_object().if_contains("parts"));
        for (const content& c : said) {
            if (const auto* text = std::get_if<text_content>(&c)) status_text_ += text->text;
        }
    }
    if (finished() && !said.empty() && (!artifacts_seen_ || is_interrupted_state(state_))) {
        out.push_back(contents_update(std::move(said), raw));
    } else {
        out.push_back(header(raw));
    }
}

std::vector<agent_response_update> reply_reader::read(const json::value& result) {
    std::vector<agent_response_update> out;
    const json::object* o = result.if_object();
    const std::string kind = o ? json_detail::string_member(*o, "kind") : std::string();
    if (kind == "message") {
        answered_by_message_ = true;
        context_id_ = json_detail::string_member(*o, "contextId");
        agent_response_update u = contents_update(from_parts(o->if_contains("parts")), result);
        u.message_id = json_detail::string_member(*o, "messageId");
        u.response_id = u.message_id;
        out.push_back(std::move(u));
    } else if (kind == "task") {
        task_id_ = json_detail::string_member(*o, "id");
        context_id_ = json_detail::string_member(*o, "contextId");
        const json::value* status = o->if_contains("status");
        state_ = status && status->is_object() ? json_detail::string_member(status->get_object(), "state") : std::string();
        if (const json::value* artifacts = o->if_contains("artifacts"); artifacts && artifacts->is_array()) {
            for (const json::value& artifact : artifacts->get_array()) {
                if (!artifact.is_object()) continue;
                artifacts_seen_ = true;
                out.push_back(contents_update(from_parts(artifact.get_object().if_contains("parts")), result));
            }
        }
        if (status && status->is_object()) {
            read_status(status->get_object(), result, out);
        } else {
            out.push_back(header(result));
        }
    } else if (kind == "status-update") {
        if (task_id_.empty()) task_id_ = json_detail::string_member(*o, "taskId");
        if (context_id_.empty()) context_id_ = json_detail::string_member(*o, "contextId");
        const json::value* status = o->if_contains("status");
        if (status && status->is_object()) read_status(status->get_object(), result, out);
    } else if (kind == "artifact-update") {
        if (task_id_.empty()) task_id_ = json_detail::string_member(*o, "taskId");
        if (context_id_.empty()) context_id_ = json_detail::string_member(*o, "contextId");
        const json::value* artifact = o->if_contains("artifact");
        if (artifact && artifact->is_object()) {
            artifacts_seen_ = true;
            out.push_back(contents_update(from_parts(artifact->get_object().if_contains("parts")), result));
        }
    } else {
        out.push_back(header(result));
    }
    return out;
}

} // namespace forma::a2a::detail
