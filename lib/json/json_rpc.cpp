#include "json_rpc.hpp"

#include "json_members.hpp"
#include "json_text.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace forma::json_detail::json_rpc {

namespace json = boost::json;

std::string request(std::int64_t id, std::string_view method, json::object params) {
    return serialize_utf8(json::object{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
}

std::string notification(std::string_view method, json::object params) {
    json::object message{{"jsonrpc", "2.0"}, {"method", method}};
    if (!params.empty()) message["params"] = std::move(params);
    return serialize_utf8(message);
}

std::string result_reply(const json::value& id, json::value result) {
    return serialize_utf8(json::object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

std::string error_reply(const json::value& id, std::int64_t code, std::string_view message) {
    return error_reply(id, code, message, nullptr);
}

std::string error_reply(const json::value& id, std::int64_t code, std::string_view message, json::value data) {
    json::object error{{"code", code}, {"message", valid_utf8(message)}};
    if (!data.is_null()) error["data"] = std::move(data);
    return serialize_utf8(json::object{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}});
}

message_view classify(const json::value& message) {
    message_view view;
    const json::object* m = message.if_object();
    if (!m) return view;
    const json::value* id = m->if_contains("id");
    if (const json::value* method = m->if_contains("method"); method && method->is_string()) {
        view.method = method->get_string();
        view.params = m->if_contains("params");
        if (id && !id->is_null()) {
            view.kind = message_kind::request;
            view.id = id;
        } else {
            view.kind = message_kind::notification;
        }
        return view;
    }
    if (id && id->is_int64()) {
        view.kind = message_kind::response;
        view.id = id;
        view.response_id = id->get_int64();
    }
    return view;
}

checked_message classify_received(const json::value& message) {
    checked_message checked;
    const json::object* m = message.if_object();
    if (!m) {
        checked.problem = "a JSON-RPC message is an object";
        return checked;
    }
    const json::value* version = m->if_contains("jsonrpc");
    if (!version || !version->is_string() || version->get_string() != "2.0") {
        checked.problem = "\"jsonrpc\" must be \"2.0\"";
        return checked;
    }
    const json::value* method = m->if_contains("method");
    const json::value* id = m->if_contains("id");
    if (!method) {
        checked.view = classify(message);
        if (checked.view.kind != message_kind::response)
            checked.problem = "the message has no \"method\" and is no response to a request of this server";
        return checked;
    }
    if (!method->is_string()) {
        checked.problem = "\"method\" must be a string";
        return checked;
    }
    if (id && !id->is_string() && !id->is_int64() && !id->is_uint64()) {
        checked.problem = "\"id\" must be a string or an integer";
        return checked;
    }
    if (const json::value* params = m->if_contains("params"); params && !params->is_object() && !params->is_array()) {
        checked.problem = "\"params\" must be an object or an array";
        return checked;
    }
    checked.view = classify(message);
    return checked;
}

json::value answer_id(const json::value& message) {
    const json::object* m = message.if_object();
    const json::value* id = m ? m->if_contains("id") : nullptr;
    if (id && (id->is_string() || id->is_int64() || id->is_uint64())) return *id;
    return nullptr;
}

response_outcome outcome(json::object& response) {
    if (const json::value* error = response.if_contains("error"); error && error->is_object()) {
        const json::object& e = error->get_object();
        const json::value* code = e.if_contains("code");
        const std::optional<std::int64_t> number = code && code->is_int64() ? std::optional(code->get_int64()) : std::nullopt;
        std::string text = string_member(e, "message");
        if (text.empty()) text = "no message";
        if (number) text += " (JSON-RPC error " + std::to_string(*number) + ")";
        return {.result = std::nullopt, .error = response_error{std::move(text), number}};
    }
    if (json::value* result = response.if_contains("result")) return {.result = std::move(*result), .error = std::nullopt};
    return {};
}

std::vector<std::string> messages_of(std::string body) {
    std::vector<std::string> messages;
    const auto first = body.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return messages;
    if (body[first] == '[') {
        boost::system::error_code ec;
        const json::value batch = json::parse(body, ec);
        if (!ec && batch.is_array()) {
            for (const json::value& message : batch.get_array()) messages.push_back(json::serialize(message));
            return messages;
        }
    }
    messages.push_back(std::move(body));
    return messages;
}

namespace {

message_view classify_text(std::string_view text, json::value& storage) {
    boost::system::error_code ec;
    storage = json::parse(text, ec);
    if (ec) return {};
    return classify(storage);
}

} // namespace

bool answers(std::string_view message, std::int64_t id) {
    json::value parsed;
    const message_view view = classify_text(message, parsed);
    return view.kind == message_kind::response && view.response_id == id;
}

std::optional<std::int64_t> request_id_of(std::string_view message) {
    json::value parsed;
    const message_view view = classify_text(message, parsed);
    if (view.kind != message_kind::request || !view.id->is_int64()) return std::nullopt;
    return view.id->get_int64();
}

} // namespace forma::json_detail::json_rpc
