#include "ag_ui_input.hpp"

#include "../json/json_members.hpp"

#include <forma/error.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace forma::serving::detail {

namespace {

namespace json = boost::json;

std::string required_string(const json::object& o, std::string_view key, const std::string& field) {
    const json::value* v = o.if_contains(key);
    if (!v || !v->is_string() || v->get_string().empty()) refuse(field, field + " must be a non-empty string");
    return std::string(v->get_string());
}

// An image, audio, video or document part's source: inline data or a URL.
content media_of(const json::object& part, const std::string& field) {
    const json::value* s = part.if_contains("source");
    const json::object* source = s ? s->if_object() : nullptr;
    if (!source) refuse(field + ".source", "a media part needs a source object");
    const std::string kind = json_detail::string_member(*source, "type");
    const std::string value = json_detail::string_member(*source, "value");
    std::string media_type = json_detail::string_member(*source, "mimeType");
    if (kind == "data") {
        try {
            return data_content::from_base64(value, std::move(media_type));
        } catch (const forma::error&) {
            refuse(field + ".source.value", "a data source's value must be base64");
        }
    }
    if (kind == "url") return uri_content(value, media_type.empty() ? "application/octet-stream" : std::move(media_type));
    refuse(field + ".source.type", "sources of type \"" + kind + "\" are not taken (data or url)");
}

// A message's content: a string, or text and media parts.
std::vector<content> contents_of(const json::value* value, const std::string& field) {
    std::vector<content> out;
    if (!value || value->is_null()) return out;
    if (value->is_string()) {
        if (!value->get_string().empty()) out.emplace_back(text_content(std::string(value->get_string())));
        return out;
    }
    if (!value->is_array()) refuse(field, "content must be a string or an array of parts");
    std::size_t i = 0;
    for (const json::value& p : value->get_array()) {
        const std::string at = field + "[" + std::to_string(i++) + "]";
        const json::object* part = p.if_object();
        if (!part) refuse(at, "a content part must be an object");
        const std::string type = json_detail::string_member(*part, "type");
        if (type == "text") out.emplace_back(text_content(json_detail::string_member(*part, "text")));
        else if (type == "image" || type == "audio" || type == "video" || type == "document") out.push_back(media_of(*part, at));
        else refuse(at + ".type", "content parts of type \"" + type + "\" are not taken");
    }
    return out;
}

std::vector<content> tool_calls_of(const json::value* value, const std::string& field) {
    std::vector<content> out;
    if (!value || value->is_null()) return out;
    if (!value->is_array()) refuse(field, "toolCalls must be an array");
    std::size_t i = 0;
    for (const json::value& c : value->get_array()) {
        const std::string at = field + "[" + std::to_string(i++) + "]";
        const json::object* call = c.if_object();
        const json::value* f = call ? call->if_contains("function") : nullptr;
        const json::object* function = f ? f->if_object() : nullptr;
        if (!function) refuse(at, "a tool call needs an id and a function {name, arguments}");
        boost::system::error_code ec;
        json::value arguments = json::parse(json_detail::string_member(*function, "arguments"), ec);
        if (ec || !arguments.is_object()) refuse(at + ".function.arguments", "a tool call's arguments must be a JSON object in a string");
        out.emplace_back(function_call_content(required_string(*call, "id", at + ".id"), required_string(*function, "name", at + ".function.name"),
                                               std::move(arguments.get_object())));
    }
    return out;
}

std::optional<chat_message> message_of(const json::object& m, const std::string& field) {
    const std::string role = json_detail::string_member(m, "role");
    std::optional<chat_message> out;
    if (role == "user" || role == "system" || role == "developer") {
        out.emplace(role == "user" ? chat_role::user() : chat_role::system(), contents_of(m.if_contains("content"), field + ".content"));
    } else if (role == "assistant") {
        std::vector<content> contents = contents_of(m.if_contains("content"), field + ".content");
        for (content& c : tool_calls_of(m.if_contains("toolCalls"), field + ".toolCalls")) contents.push_back(std::move(c));
        out.emplace(chat_role::assistant(), std::move(contents));
    } else if (role == "tool") {
        const std::string call_id = required_string(m, "toolCallId", field + ".toolCallId");
        const json::value* content_value = m.if_contains("content");
        std::string text;
        if (content_value && content_value->is_string()) text = content_value->get_string();
        else for (const content& c : contents_of(content_value, field + ".content"))
            if (const auto* t = std::get_if<text_content>(&c)) text += t->text;
        std::optional<std::string> error;
        if (const json::value* e = m.if_contains("error"); e && e->is_string()) error = std::string(e->get_string());
        out.emplace(chat_role::tool(), std::vector<content>{function_result_content(call_id, json::value(text), std::move(error))});
    } else if (role == "activity" || role == "reasoning") {
        return std::nullopt; // what the front end showed, not what was said
    } else {
        refuse(field + ".role", "unknown role \"" + role + "\" (user, assistant, system, developer, tool, activity or reasoning)");
    }
    out->message_id = json_detail::string_member(m, "id");
    return out;
}

// The state and the context entries, for the agent to read before the conversation.
std::optional<chat_message> ambient_of(const json::object& body) {
    std::string text;
    if (const json::value* state = body.if_contains("state");
        state && !state->is_null() && !(state->is_object() && state->get_object().empty()))
        text += "The application's current state (JSON): " + json::serialize(*state) + "\n";
    if (const json::value* context = body.if_contains("context"); context && !context->is_null()) {
        if (!context->is_array()) refuse("context", "context must be an array of {description, value}");
        std::size_t i = 0;
        for (const json::value& c : context->get_array()) {
            const json::object* entry = c.if_object();
            if (!entry) refuse("context[" + std::to_string(i) + "]", "a context entry must be an object {description, value}");
            ++i;
            text += json_detail::string_member(*entry, "description") + ": " + json_detail::string_member(*entry, "value") + "\n";
        }
    }
    if (text.empty()) return std::nullopt;
    text.pop_back();
    return chat_message(chat_role::system(), std::move(text));
}

} // namespace

ag_ui_run_input read_run_input(const json::object& body) {
    ag_ui_run_input out;
    out.thread_id = required_string(body, "threadId", "threadId");
    out.run_id = required_string(body, "runId", "runId");
    out.parent_run_id = json_detail::string_member(body, "parentRunId");
    if (const json::value* tools = body.if_contains("tools"); tools && tools->is_array() && !tools->get_array().empty())
        refuse("tools", "front-end tools are not taken: the agent's own tools run on the server");
    const json::value* messages = body.if_contains("messages");
    if (!messages || !messages->is_array()) refuse("messages", "messages must be an array of messages");
    if (std::optional<chat_message> ambient = ambient_of(body)) out.messages.push_back(std::move(*ambient));
    std::size_t i = 0;
    for (const json::value& m : messages->get_array()) {
        const std::string field = "messages[" + std::to_string(i++) + "]";
        if (!m.is_object()) refuse(field, "a message must be an object");
        if (std::optional<chat_message> message = message_of(m.get_object(), field)) out.messages.push_back(std::move(*message));
    }
    if (const json::value* resume = body.if_contains("resume"); resume && !resume->is_null()) {
        if (!resume->is_array()) refuse("resume", "resume must be an array of {interruptId, status, payload}");
        i = 0;
        for (const json::value& r : resume->get_array()) {
            const std::string field = "resume[" + std::to_string(i++) + "]";
            const json::object* entry = r.if_object();
            if (!entry) refuse(field, "a resume entry must be an object");
            const std::string status = json_detail::string_member(*entry, "status");
            if (status != "resolved" && status != "cancelled") refuse(field + ".status", "status must be \"resolved\" or \"cancelled\"");
            const json::value* payload = entry->if_contains("payload");
            out.resume.push_back({required_string(*entry, "interruptId", field + ".interruptId"), status == "resolved",
                                  payload ? *payload : json::value()});
        }
    } else if (messages->get_array().empty()) {
        refuse("messages", "a run needs messages, or resume entries answering a paused run");
    }
    if (const json::value* props = body.if_contains("forwardedProps"); props && props->is_object()) out.forwarded_props = props->get_object();
    return out;
}

} // namespace forma::serving::detail
