#include "messages_endpoint.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace forma::testing::detail {

namespace {

namespace json = boost::json;

scripted_reply messages_error(unsigned status, std::string_view type, std::string_view message) {
    return scripted_reply::json(json::serialize(json::object{{"type", "error"},
                                                             {"error", json::object{{"type", type}, {"message", message}}},
                                                             {"request_id", "req_local"}}),
                                status);
}

// What a Messages body asks: its user turns' text, tools, tool_choice and output format.
answer_request read_messages_request(const json::object& fields, const json::array& messages) {
    answer_request request;
    for (const json::value& m : messages) {
        const json::object* message = m.if_object();
        if (!message) continue;
        const json::value* role = message->if_contains("role");
        if (!role || *role != "user") continue;
        const std::string text = content_text(message->if_contains("content"), {"text"});
        if (!text.empty()) add_user_text(request, text);
    }
    if (!messages.empty())
        if (const json::object* last = messages.back().if_object())
            if (const json::value* content = last->if_contains("content"); content && content->is_array())
                for (const json::value& block : content->get_array())
                    if (const json::object* b = block.if_object(); b && b->if_contains("type") && b->at("type") == "tool_result")
                        request.ends_with_tool_result = true;
    if (const json::value* tools = fields.if_contains("tools"); tools && tools->is_array())
        for (const json::value& tool : tools->get_array()) {
            const json::object* t = tool.if_object();
            const json::value* name = t ? t->if_contains("name") : nullptr;
            if (!name || !name->is_string()) continue;
            const json::value* schema = t->if_contains("input_schema");
            request.tools.push_back({std::string(name->get_string()), schema ? schema->if_object() : nullptr});
        }
    if (const json::value* choice = fields.if_contains("tool_choice"); choice && choice->is_object()) {
        const json::object& c = choice->get_object();
        const json::value* type = c.if_contains("type");
        request.tools_forbidden = type && *type == "none";
        if (type && *type == "tool") {
            const json::value* name = c.if_contains("name");
            request.named_tool = name && name->is_string() ? std::string(name->get_string()) : std::string();
        }
        if (const json::value* off = c.if_contains("disable_parallel_tool_use"); off && *off == true)
            request.parallel_tool_calls = false;
    }
    if (const json::value* config = fields.if_contains("output_config"); config && config->is_object())
        if (const json::value* format = config->get_object().if_contains("format"); format && format->is_object()) {
            const json::value* schema = format->get_object().if_contains("schema");
            request.format = answer_format::json_schema;
            request.schema = schema ? schema->if_object() : nullptr;
            request.schema_field = "output_config.format.schema";
        }
    return request;
}

// Usage as the SDK's types have it: every member, null where the server has nothing to say.
json::object usage_of(std::int64_t input, std::int64_t output) {
    return {{"input_tokens", input},       {"cache_creation_input_tokens", 0}, {"cache_read_input_tokens", 0},
            {"cache_creation", nullptr},   {"output_tokens", output},          {"output_tokens_details", nullptr},
            {"server_tool_use", nullptr},  {"service_tier", "standard"},       {"inference_geo", nullptr},
            {"speed", nullptr}};
}

json::object text_block(std::string_view text) { return {{"type", "text"}, {"text", text}, {"citations", nullptr}}; }

json::object tool_use_block(const scripted_tool_call& call, json::value input) {
    return {{"type", "tool_use"}, {"id", call.id}, {"name", call.name}, {"input", std::move(input)},
            {"caller", json::object{{"type", "direct"}}}};
}

// A Message's members but its content, stop reason and usage.
json::object message_of(const std::string& id, const std::string& model) {
    return {{"id", id},           {"type", "message"},       {"role", "assistant"},    {"model", model},
            {"container", nullptr}, {"diagnostics", nullptr}, {"stop_details", nullptr}, {"stop_sequence", nullptr}};
}

// A call's input: its arguments as an object, or the text itself where they are not one (a fault).
json::value input_of(const scripted_tool_call& call) {
    boost::system::error_code ec;
    json::value v = json::parse(call.arguments, ec);
    return !ec && v.is_object() ? v : json::value(call.arguments);
}

std::string sse(std::string_view type, const json::object& data) {
    return "event: " + std::string(type) + "\ndata: " + json::serialize(data) + "\n\n";
}

struct message_meta {
    std::string id;
    std::string model;
    std::int64_t input_tokens = 0;
};

std::vector<std::string> message_events(const message_meta& meta, std::string_view text,
                                        const std::vector<scripted_tool_call>& calls, std::string_view stop_reason,
                                        std::int64_t output_tokens, std::size_t delta_size) {
    std::vector<std::string> events;
    json::object message = message_of(meta.id, meta.model);
    message["content"] = json::array();
    message["stop_reason"] = nullptr;
    message["usage"] = usage_of(meta.input_tokens, 1);
    events.push_back(sse("message_start", {{"type", "message_start"}, {"message", std::move(message)}}));
    std::int64_t index = 0;
    if (!text.empty() || calls.empty()) {
        events.push_back(sse("content_block_start", {{"type", "content_block_start"}, {"index", index},
                                                     {"content_block", text_block("")}}));
        events.push_back(sse("ping", {{"type", "ping"}}));
        for (std::string_view piece : pieces(text, delta_size))
            events.push_back(sse("content_block_delta", {{"type", "content_block_delta"}, {"index", index},
                                                         {"delta", json::object{{"type", "text_delta"}, {"text", piece}}}}));
        events.push_back(sse("content_block_stop", {{"type", "content_block_stop"}, {"index", index++}}));
    }
    for (const scripted_tool_call& call : calls) {
        events.push_back(sse("content_block_start",
                             {{"type", "content_block_start"}, {"index", index},
                              {"content_block", tool_use_block(call, json::object())}}));
        for (std::string_view piece : pieces(call.arguments, delta_size))
            events.push_back(sse("content_block_delta",
                                 {{"type", "content_block_delta"}, {"index", index},
                                  {"delta", json::object{{"type", "input_json_delta"}, {"partial_json", piece}}}}));
        events.push_back(sse("content_block_stop", {{"type", "content_block_stop"}, {"index", index++}}));
    }
    const json::object delta{{"stop_reason", stop_reason}, {"stop_sequence", nullptr}, {"stop_details", nullptr}, {"container", nullptr}};
    const json::object totals{{"input_tokens", meta.input_tokens}, {"cache_creation_input_tokens", 0}, {"cache_read_input_tokens", 0},
                              {"output_tokens", output_tokens},    {"output_tokens_details", nullptr},  {"server_tool_use", nullptr}};
    events.push_back(sse("message_delta", {{"type", "message_delta"}, {"delta", delta}, {"usage", totals}}));
    events.push_back(sse("message_stop", {{"type", "message_stop"}}));
    return events;
}

std::string message_body(const message_meta& meta, std::string_view text, const std::vector<scripted_tool_call>& calls,
                         std::string_view stop_reason, std::int64_t output_tokens) {
    json::array content;
    if (!text.empty() || calls.empty()) content.push_back(text_block(text));
    for (const scripted_tool_call& call : calls) content.push_back(tool_use_block(call, input_of(call)));
    json::object message = message_of(meta.id, meta.model);
    message["content"] = std::move(content);
    message["stop_reason"] = stop_reason;
    message["usage"] = usage_of(meta.input_tokens, output_tokens);
    return json::serialize(message);
}

} // namespace

bool serves_messages(std::string_view target) noexcept {
    const std::string_view path = target.substr(0, target.find('?'));
    constexpr std::string_view messages = "/messages", count = "/messages/count_tokens";
    const auto ends_with = [&](std::string_view end) {
        return path.size() >= end.size() && path.substr(path.size() - end.size()) == end;
    };
    return ends_with(messages) || ends_with(count);
}

scripted_reply generate_message(std::string_view method, std::string_view target, std::string_view body,
                                const generation& options) {
    if (method != "POST")
        return messages_error(405, "invalid_request_error", "Method " + std::string(method) + " is not allowed; use POST.")
            .with_header("Allow", "POST");
    boost::system::error_code ec;
    json::value parsed = json::parse(body, ec);
    if (ec || !parsed.is_object()) return messages_error(400, "invalid_request_error", "The request body is not a JSON object.");
    const json::object& fields = parsed.get_object();
    const json::value* messages = fields.if_contains("messages");
    if (!messages || !messages->is_array())
        return messages_error(400, "invalid_request_error", "messages: Field required (an array of turns)");
    const answer_request asked = read_messages_request(fields, messages->get_array());
    const auto input_tokens = static_cast<std::int64_t>(count_words(asked.prompt));
    const std::string_view path = target.substr(0, target.find('?'));
    if (path.size() >= 13 && path.substr(path.size() - 13) == "/count_tokens")
        return scripted_reply::json(json::serialize(json::object{{"input_tokens", input_tokens}}));

    const json::value* max_tokens = fields.if_contains("max_tokens");
    if (!max_tokens || !max_tokens->is_int64() || max_tokens->get_int64() < 1)
        return messages_error(400, "invalid_request_error", "max_tokens: Field required (a positive integer)");
    const decided_answer answer = decide_answer(asked, options);
    if (!answer.error.empty()) return messages_error(400, "invalid_request_error", answer.error);

    const message_meta meta{.id = "msg_local_" + std::to_string(options.request_number),
                            .model = options.model, .input_tokens = input_tokens};
    std::string_view text = answer.text;
    std::string_view stop_reason = answer.calls.empty() ? "end_turn" : "tool_use";
    std::size_t words = count_words(text);
    for (const scripted_tool_call& call : answer.calls) words += count_words(call.arguments);
    const auto limit = static_cast<std::size_t>(max_tokens->get_int64());
    if (answer.calls.empty() && words > limit) { // cut as a model at its output limit
        text = first_words(text, limit);
        words = limit;
        stop_reason = "max_tokens";
    }
    const json::value* stream = fields.if_contains("stream");
    if (stream && *stream == true) {
        scripted_reply reply;
        reply.content_type = "text/event-stream";
        reply.chunks = message_events(meta, text, answer.calls, stop_reason, static_cast<std::int64_t>(words), options.delta_size);
        reply.chunk_delay = options.chunk_delay;
        return reply;
    }
    return scripted_reply::json(message_body(meta, text, answer.calls, stop_reason, static_cast<std::int64_t>(words)));
}

} // namespace forma::testing::detail
