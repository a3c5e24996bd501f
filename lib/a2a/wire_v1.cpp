#include "wire_v1.hpp"

#include "../json/json_members.hpp"
#include "../json/json_rpc.hpp"
#include "reply_reader.hpp"

#include <array>
#include <utility>

namespace forma::a2a::detail::v1 {

namespace {

namespace json = boost::json;

// 0.3 has no task listing: "tasks/list" is the name forma serves ListTasks by in 0.3 shapes.
constexpr std::array<std::pair<std::string_view, std::string_view>, 11> methods{{
    {"message/send", "SendMessage"},
    {"message/stream", "SendStreamingMessage"},
    {"tasks/get", "GetTask"},
    {"tasks/cancel", "CancelTask"},
    {"tasks/resubscribe", "SubscribeToTask"},
    {"tasks/list", "ListTasks"},
    {"tasks/pushNotificationConfig/set", "CreateTaskPushNotificationConfig"},
    {"tasks/pushNotificationConfig/get", "GetTaskPushNotificationConfig"},
    {"tasks/pushNotificationConfig/list", "ListTaskPushNotificationConfigs"},
    {"tasks/pushNotificationConfig/delete", "DeleteTaskPushNotificationConfig"},
    {"agent/getAuthenticatedExtendedCard", "GetExtendedAgentCard"},
}};

// 0.3 names and 1.0 names, in the 1.0 enum's number order.
constexpr std::array<std::pair<std::string_view, std::string_view>, 9> states{{
    {"unknown", "TASK_STATE_UNSPECIFIED"},
    {"submitted", "TASK_STATE_SUBMITTED"},
    {"working", "TASK_STATE_WORKING"},
    {"completed", "TASK_STATE_COMPLETED"},
    {"failed", "TASK_STATE_FAILED"},
    {"canceled", "TASK_STATE_CANCELED"},
    {"input-required", "TASK_STATE_INPUT_REQUIRED"},
    {"rejected", "TASK_STATE_REJECTED"},
    {"auth-required", "TASK_STATE_AUTH_REQUIRED"},
}};
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> roles{{
    {"", "ROLE_UNSPECIFIED"},
    {"user", "ROLE_USER"},
    {"agent", "ROLE_AGENT"},
}};

// An enum member in 0.3 (`legacy`) or 1.0 naming. A 1.0 enum may come as its number; a name no
// table holds is kept, so that the reader can say what came.
template <std::size_t N>
json::value renamed(const json::value* v, const std::array<std::pair<std::string_view, std::string_view>, N>& table, bool legacy) {
    if (!v) return nullptr;
    if (legacy && v->is_int64()) {
        const std::int64_t n = v->get_int64();
        return n >= 0 && static_cast<std::size_t>(n) < N ? json::value(table[static_cast<std::size_t>(n)].first) : *v;
    }
    if (!v->is_string()) return *v;
    const std::string_view name = v->get_string();
    for (const auto& [old_name, new_name] : table) {
        if (legacy && name == new_name) return json::value(old_name);
        if (!legacy && name == old_name) return json::value(new_name);
    }
    return *v;
}

// Proto-JSON readers take snake_case keys too ("context_id"); 0.3 shapes are camelCase.
json::object camel_keys(const json::object& o) {
    json::object out;
    for (const auto& [key, value] : o) {
        std::string name;
        bool upper = false;
        for (const char c : std::string_view(key)) {
            if (c == '_' && !name.empty()) {
                upper = true;
                continue;
            }
            name += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
            upper = false;
        }
        out[name] = value;
    }
    return out;
}

const json::object* object_member(const json::object& o, std::string_view key) {
    const json::value* v = o.if_contains(key);
    return v ? v->if_object() : nullptr;
}

// ---- 0.3 -> 1.0 ---------------------------------------------------------------------------

json::value part(const json::value& p) {
    const json::object* o = p.if_object();
    if (!o) return p;
    json::object out;
    const std::string kind = json_detail::string_member(*o, "kind");
    if (kind == "text") {
        out["text"] = o->contains("text") ? o->at("text") : json::value("");
    } else if (kind == "data") {
        out["data"] = o->contains("data") ? o->at("data") : json::value(nullptr);
    } else if (const json::object* file = object_member(*o, "file"); kind == "file" && file) {
        if (const json::value* bytes = file->if_contains("bytes")) out["raw"] = *bytes;
        if (const json::value* uri = file->if_contains("uri")) out["url"] = *uri;
        if (const json::value* type = file->if_contains("mimeType")) out["mediaType"] = *type;
        if (const json::value* name = file->if_contains("name")) out["filename"] = *name;
    } else {
        out = *o; // a kind 0.3 does not have: as it came
        out.erase("kind");
    }
    if (const json::value* metadata = o->if_contains("metadata")) out["metadata"] = *metadata;
    return out;
}

// ---- 1.0 -> 0.3 ---------------------------------------------------------------------------

json::value legacy_part(const json::value& p) {
    const json::object* given = p.if_object();
    if (!given) return p;
    const json::object o = camel_keys(*given);
    json::object out;
    if (const json::value* text = o.if_contains("text")) {
        out = {{"kind", "text"}, {"text", *text}};
    } else if (o.contains("raw") || o.contains("url")) {
        json::object file;
        if (const json::value* raw = o.if_contains("raw")) file["bytes"] = *raw;
        else file["uri"] = o.at("url");
        if (const json::value* type = o.if_contains("mediaType")) file["mimeType"] = *type;
        if (const json::value* name = o.if_contains("filename")) file["name"] = *name;
        out = {{"kind", "file"}, {"file", std::move(file)}};
    } else if (const json::value* data = o.if_contains("data")) {
        out = {{"kind", "data"}, {"data", *data}};
    } else {
        return o; // no content 1.0 knows: the reader keeps it as unknown content
    }
    if (const json::value* metadata = o.if_contains("metadata")) out["metadata"] = *metadata;
    return out;
}

// ---- the shapes that hold parts, either way ------------------------------------------------

enum class toward { v1_0, v0_3 };

// An object as `to` writes it: 0.3 names its kind, 1.0 does not; 1.0's snake_case keys become camelCase.
json::object reshaped(const json::object& o, toward to, std::string_view kind_0_3) {
    if (to == toward::v1_0) {
        json::object out = o;
        out.erase("kind");
        return out;
    }
    json::object out = camel_keys(o);
    if (!kind_0_3.empty()) out["kind"] = kind_0_3;
    return out;
}

json::array parts(const json::value* ps, toward to) {
    json::array out;
    if (ps && ps->is_array())
        for (const json::value& p : ps->get_array()) out.push_back(to == toward::v1_0 ? part(p) : legacy_part(p));
    return out;
}

json::object message(const json::object& m, toward to) {
    json::object out = reshaped(m, to, "message");
    out["role"] = renamed(out.if_contains("role"), roles, to == toward::v0_3);
    out["parts"] = parts(out.if_contains("parts"), to);
    return out;
}

json::object artifact(const json::object& a, toward to) {
    json::object out = reshaped(a, to, "");
    out["parts"] = parts(out.if_contains("parts"), to);
    return out;
}

json::object status(const json::object& s, toward to) {
    json::object out = s;
    out["state"] = renamed(s.if_contains("state"), states, to == toward::v0_3);
    if (const json::object* said = object_member(s, "message")) out["message"] = message(*said, to);
    return out;
}

json::object task(const json::object& t, toward to) {
    json::object out = reshaped(t, to, "task");
    if (const json::object* s = object_member(out, "status")) out["status"] = status(*s, to);
    for (const std::string_view key : {"artifacts", "history"}) {
        json::value* list = out.if_contains(key);
        if (!list || !list->is_array()) continue;
        for (json::value& item : list->get_array())
            if (item.is_object()) item = key == "artifacts" ? artifact(item.get_object(), to) : message(item.get_object(), to);
    }
    return out;
}

json::object status_update(const json::object& u, toward to) {
    json::object out = reshaped(u, to, "status-update");
    std::string state;
    if (const json::object* s = object_member(out, "status")) {
        json::object written = status(*s, to);
        state = json_detail::string_member(written, "state");
        out["status"] = std::move(written);
    }
    // 1.0 ends the stream instead.
    if (to == toward::v1_0) out.erase("final");
    else out["final"] = is_terminal_state(state) || is_interrupted_state(state);
    return out;
}

json::object artifact_update(const json::object& u, toward to) {
    json::object out = reshaped(u, to, "artifact-update");
    if (const json::object* a = object_member(out, "artifact")) out["artifact"] = artifact(*a, to);
    return out;
}

} // namespace

std::optional<protocol_version> version_named(std::string_view text) noexcept {
    const auto is = [text](std::string_view v) { return text == v || (text.starts_with(v) && text[v.size()] == '.'); };
    if (is("1.0")) return protocol_version::v1_0;
    if (is("0.3")) return protocol_version::v0_3;
    return std::nullopt;
}

std::optional<std::string_view> method_of(std::string_view method_0_3) noexcept {
    for (const auto& [old_name, new_name] : methods)
        if (method_0_3 == old_name) return new_name;
    return std::nullopt;
}

std::optional<std::string_view> legacy_method_of(std::string_view method_1_0) noexcept {
    for (const auto& [old_name, new_name] : methods)
        if (method_1_0 == new_name) return old_name;
    return std::nullopt;
}

json::object params(const json::object& given) {
    json::object out = given;
    if (const json::value* state = given.if_contains("status"); state && state->is_string()) out["status"] = renamed(state, states, false);
    if (const json::object* m = object_member(given, "message")) out["message"] = message(*m, toward::v1_0);
    if (const json::object* c = object_member(given, "configuration")) {
        json::object configuration = *c;
        if (const json::value* blocking = c->if_contains("blocking"); blocking && blocking->is_bool()) {
            configuration["returnImmediately"] = !blocking->get_bool();
            configuration.erase("blocking");
        }
        out["configuration"] = std::move(configuration);
    }
    return out;
}

json::object legacy_params(const json::object& given) {
    json::object out = camel_keys(given);
    if (const json::object* m = object_member(out, "message")) out["message"] = message(*m, toward::v0_3);
    if (const json::object* c = object_member(out, "configuration")) {
        json::object configuration = camel_keys(*c);
        const json::value* immediately = configuration.if_contains("returnImmediately");
        configuration["blocking"] = !(immediately && immediately->is_bool() && immediately->get_bool());
        configuration.erase("returnImmediately");
        out["configuration"] = std::move(configuration);
    }
    return out;
}

json::value legacy_state(const json::value& state) { return renamed(&state, states, true); }

// ListTasks' result: its tasks in `to`'s shape.
json::value task_list(const json::object& list, toward to) {
    json::object out = list;
    for (json::value& t : out["tasks"].get_array())
        if (t.is_object()) t = task(t.get_object(), to);
    return out;
}

bool is_task_list(const json::object& o) {
    const json::value* tasks = o.if_contains("tasks");
    return tasks && tasks->is_array();
}

json::value result(const json::value& given, bool wrapped) {
    const json::object* o = given.if_object();
    if (!o) return given;
    if (is_task_list(*o)) return task_list(*o, toward::v1_0);
    const std::string kind = json_detail::string_member(*o, "kind");
    json::object shape;
    std::string_view key;
    if (kind == "task") {
        shape = task(*o, toward::v1_0);
        key = "task";
    } else if (kind == "message") {
        shape = message(*o, toward::v1_0);
        key = "message";
    } else if (kind == "status-update") {
        shape = status_update(*o, toward::v1_0);
        key = "statusUpdate";
    } else if (kind == "artifact-update") {
        shape = artifact_update(*o, toward::v1_0);
        key = "artifactUpdate";
    } else {
        return given;
    }
    if (!wrapped) return shape;
    return json::object{{key, std::move(shape)}};
}

json::value legacy_result(const json::value& given) {
    const json::object* o = given.if_object();
    if (!o) return given;
    const json::object top = camel_keys(*o);
    if (is_task_list(top)) return task_list(top, toward::v0_3);
    if (const json::object* t = object_member(top, "task")) return task(*t, toward::v0_3);
    if (const json::object* m = object_member(top, "message")) return message(*m, toward::v0_3);
    if (const json::object* u = object_member(top, "statusUpdate")) return status_update(*u, toward::v0_3);
    if (const json::object* u = object_member(top, "artifactUpdate")) return artifact_update(*u, toward::v0_3);
    if (top.contains("messageId")) return message(top, toward::v0_3);
    if (top.contains("id") && top.contains("status")) return task(top, toward::v0_3);
    return given;
}

json::value error_data(std::int64_t code) {
    std::string_view reason;
    switch (code) {
    case -32001: reason = "TASK_NOT_FOUND"; break;
    case -32002: reason = "TASK_NOT_CANCELABLE"; break;
    case -32003: reason = "PUSH_NOTIFICATION_NOT_SUPPORTED"; break;
    case -32004: reason = "UNSUPPORTED_OPERATION"; break;
    case -32005: reason = "CONTENT_TYPE_NOT_SUPPORTED"; break;
    case -32006: reason = "INVALID_AGENT_RESPONSE"; break;
    case -32007: reason = "EXTENDED_AGENT_CARD_NOT_CONFIGURED"; break;
    case -32008: reason = "EXTENSION_SUPPORT_REQUIRED"; break;
    case -32009: reason = "VERSION_NOT_SUPPORTED"; break;
    case json_detail::json_rpc::invalid_params: reason = "INVALID_PARAMS"; break;
    default: return nullptr;
    }
    return json::array{{{"@type", "type.googleapis.com/google.rpc.ErrorInfo"}, {"reason", reason}, {"domain", "a2a-protocol.org"}}};
}

} // namespace forma::a2a::detail::v1
