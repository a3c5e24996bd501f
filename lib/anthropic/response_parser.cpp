#include <forma/anthropic/response_parser.hpp>

#include "wire.hpp"
#include "../json/body_excerpt.hpp"
#include "../json/json_members.hpp"
#include "../json/parsed_numbers.hpp"

#include <forma/json/from_json.hpp>
#include <forma/json/json_error.hpp>

#include <boost/json/parse.hpp>

namespace forma::anthropic {

namespace json = boost::json;

namespace {

struct error_body_wire {
    std::optional<detail::error_wire> error;
};
BOOST_DESCRIBE_STRUCT(error_body_wire, (), (error))

json::value parse_body(std::string_view body) {
    json::parse_options options;
    options.max_depth = 64;
    boost::system::error_code ec;
    json::value v = json::parse(body, ec, {}, options);
    if (ec) throw json_error("", "the Anthropic response is not JSON: " + ec.message());
    (void)json_detail::repair_parsed_numbers(v);
    return v;
}

std::optional<std::int64_t> count_at(const json::object& o, std::string_view key) {
    const json::value* v = o.if_contains(key);
    return v && v->is_int64() ? std::optional(v->get_int64()) : std::nullopt;
}

[[noreturn]] void not_a_message(std::string path, std::string_view what) {
    throw json_error(std::move(path), "an Anthropic Message needs " + std::string(what));
}

content block_content(const json::object& block, std::size_t index) {
    const std::string type = json_detail::string_member(block, "type");
    const std::string at = "/content/" + std::to_string(index);
    if (type == "text") return text_content(json_detail::string_member(block, "text"));
    if (type == "thinking")
        return detail::thinking_of(json_detail::string_member(block, "thinking"),
                                   json_detail::string_member(block, "signature"), false);
    if (type == "redacted_thinking") return detail::thinking_of({}, json_detail::string_member(block, "data"), true);
    if (type == "tool_use") {
        const std::string id = json_detail::string_member(block, "id");
        if (id.empty()) not_a_message(at + "/id", "a tool_use id");
        const json::value* input = block.if_contains("input");
        return detail::call_of(id, json_detail::string_member(block, "name"), input ? *input : json::value());
    }
    if (type.empty()) not_a_message(at + "/type", "a type for each content block");
    return unknown_content(type, block);
}

} // namespace

http_error parse_error(int status, std::string_view body) {
    if (auto parsed = try_from_json<error_body_wire>(body); parsed && parsed->error &&
                                                               (parsed->error->type || parsed->error->message))
        return detail::to_http_error(status, *parsed->error);
    return http_error(status, {}, json_detail::body_excerpt(body));
}

agent_response<> parse_message(std::string_view body) {
    json::value raw = parse_body(body);
    const json::object* message = raw.if_object();
    if (!message) throw json_error("", "an Anthropic Message is a JSON object");
    const json::value* blocks = message->if_contains("content");
    if (!blocks || !blocks->is_array()) not_a_message("/content", "a content array");

    agent_response<> response;
    response.response_id = json_detail::string_member(*message, "id");
    if (const std::string model = json_detail::string_member(*message, "model"); !model.empty())
        response.additional_properties["model"] = model;
    chat_message out(chat_role::assistant(), std::vector<content>{});
    out.message_id = response.response_id;
    std::size_t index = 0;
    for (const json::value& block : blocks->get_array()) {
        if (!block.is_object()) not_a_message("/content/" + std::to_string(index), "content blocks that are objects");
        out.contents.push_back(block_content(block.get_object(), index++));
    }
    if (const std::string stop = json_detail::string_member(*message, "stop_reason"); !stop.empty()) {
        response.finish_reason = detail::to_finish_reason(stop);
        if (stop == "refusal") {
            std::string explanation;
            if (const json::value* details = message->if_contains("stop_details"); details && details->is_object())
                explanation = json_detail::string_member(details->get_object(), "explanation");
            out.contents.push_back(detail::refusal_of(explanation));
        }
    }
    if (const json::value* usage = message->if_contains("usage"); usage && usage->is_object()) {
        const json::object& u = usage->get_object();
        response.usage = detail::to_usage({.input_tokens = count_at(u, "input_tokens"),
                                           .output_tokens = count_at(u, "output_tokens"),
                                           .cache_creation_input_tokens = count_at(u, "cache_creation_input_tokens"),
                                           .cache_read_input_tokens = count_at(u, "cache_read_input_tokens")});
    }
    response.messages.push_back(std::move(out));
    response.raw_representation = std::move(raw);
    return response;
}

} // namespace forma::anthropic
