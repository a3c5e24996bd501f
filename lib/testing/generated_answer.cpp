#include "generated_answer.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <optional>

namespace forma::testing::detail {
namespace {

namespace json = boost::json;

json::object usage_object(const word_usage& usage) {
    return {{"prompt_tokens", usage.prompt_tokens},
            {"completion_tokens", usage.completion_tokens},
            {"total_tokens", usage.prompt_tokens + usage.completion_tokens}};
}

json::object chunk_object(const answer_meta& meta) {
    return {{"id", meta.id},
            {"object", "chat.completion.chunk"},
            {"created", meta.created},
            {"model", meta.model}};
}

std::string event(const json::object& chunk) { return "data: " + json::serialize(chunk) + "\n\n"; }

std::string chunk_event(const answer_meta& meta, json::object delta, json::value finish_reason) {
    json::object chunk = chunk_object(meta);
    chunk["choices"] = json::array{json::object{
        {"index", 0}, {"delta", std::move(delta)}, {"logprobs", nullptr}, {"finish_reason", std::move(finish_reason)}}};
    return event(chunk);
}

// The finish chunk, the usage-only chunk when there is usage, and [DONE].
void finish_stream(std::vector<std::string>& events, const answer_meta& meta, std::string_view finish_reason,
                   const word_usage* usage) {
    events.push_back(chunk_event(meta, {}, json::string(finish_reason)));
    if (usage) {
        json::object chunk = chunk_object(meta);
        chunk["choices"] = json::array{};
        chunk["usage"] = usage_object(*usage);
        events.push_back(event(chunk));
    }
    events.emplace_back("data: [DONE]\n\n");
}

std::string completion_with(const answer_meta& meta, json::object message, std::string_view finish_reason,
                            const word_usage& usage) {
    json::object body{{"id", meta.id}, {"object", "chat.completion"}, {"created", meta.created}, {"model", meta.model}};
    body["choices"] = json::array{json::object{
        {"index", 0}, {"message", std::move(message)}, {"logprobs", nullptr}, {"finish_reason", finish_reason}}};
    body["usage"] = usage_object(usage);
    return json::serialize(body);
}

// The function tools a request offers, in order.
std::vector<offered_tool> offered_tools(const json::object& request) {
    std::vector<offered_tool> out;
    const json::value* tools = request.if_contains("tools");
    if (!tools || !tools->is_array()) return out;
    for (const json::value& tool : tools->get_array()) {
        const json::object* t = tool.if_object();
        const json::value* function = t ? t->if_contains("function") : nullptr;
        const json::object* f = function ? function->if_object() : nullptr;
        const json::value* name = f ? f->if_contains("name") : nullptr;
        if (!name || !name->is_string()) continue;
        const json::value* parameters = f->if_contains("parameters");
        out.push_back({std::string(name->get_string()), parameters ? parameters->if_object() : nullptr});
    }
    return out;
}

// What a chat.completions body asks: its user messages, tools, tool_choice and response format.
answer_request read_request(const json::object& fields, const json::array& messages) {
    answer_request request;
    for (const json::value& m : messages) {
        const json::object* message = m.if_object();
        if (!message) continue;
        const json::value* role = message->if_contains("role");
        if (!role || !role->is_string() || role->get_string() != "user") continue;
        add_user_text(request, content_text(message->if_contains("content"), {"text"}));
    }
    if (!messages.empty())
        if (const json::object* last = messages.back().if_object())
            if (const json::value* role = last->if_contains("role"); role && *role == "tool")
                request.ends_with_tool_result = true;
    request.tools = offered_tools(fields);
    if (const json::value* parallel = fields.if_contains("parallel_tool_calls"); parallel && *parallel == false)
        request.parallel_tool_calls = false;
    const json::value* choice = fields.if_contains("tool_choice");
    request.tools_forbidden = choice && *choice == "none";
    if (const json::object* named = choice ? choice->if_object() : nullptr) {
        const json::value* function = named->if_contains("function");
        const json::object* f = function ? function->if_object() : nullptr;
        const json::value* name = f ? f->if_contains("name") : nullptr;
        request.named_tool = name && name->is_string() ? std::string(name->get_string()) : std::string();
    }
    if (const json::value* format = fields.if_contains("response_format"); format && format->is_object()) {
        const json::value* type = format->get_object().if_contains("type");
        if (type && *type == "json_schema") {
            request.format = answer_format::json_schema;
            const json::value* spec = format->get_object().if_contains("json_schema");
            const json::value* schema = spec && spec->is_object() ? spec->get_object().if_contains("schema") : nullptr;
            request.schema = schema ? schema->if_object() : nullptr;
        } else if (type && *type == "json_object") {
            request.format = answer_format::json_object;
        }
    }
    return request;
}

// The request's output limit: `max_completion_tokens`, or the older `max_tokens`, when a positive integer.
std::optional<std::size_t> token_limit(const json::object& fields) {
    for (const std::string_view name : {"max_completion_tokens", "max_tokens"})
        if (const json::value* limit = fields.if_contains(name); limit && limit->is_int64() && limit->get_int64() > 0)
            return static_cast<std::size_t>(limit->get_int64());
    return std::nullopt;
}

scripted_reply streamed_reply(std::vector<std::string> events, std::chrono::milliseconds chunk_delay) {
    scripted_reply reply;
    reply.content_type = "text/event-stream";
    reply.chunks = std::move(events);
    reply.chunk_delay = chunk_delay;
    return reply;
}

} // namespace

std::string completion_body(const answer_meta& meta, std::string_view content, std::string_view finish_reason,
                            const word_usage& usage) {
    json::object message{{"role", "assistant"}, {"content", content}, {"refusal", nullptr}};
    return completion_with(meta, std::move(message), finish_reason, usage);
}

std::vector<std::string> stream_events(const answer_meta& meta, std::string_view content, std::size_t delta_size,
                                       std::string_view finish_reason, const word_usage* usage) {
    std::vector<std::string> events;
    events.push_back(chunk_event(meta, {{"role", "assistant"}, {"content", ""}}, nullptr));
    for (std::string_view piece : pieces(content, delta_size))
        events.push_back(chunk_event(meta, {{"content", piece}}, nullptr));
    finish_stream(events, meta, finish_reason, usage);
    return events;
}

std::string tool_calls_body(const answer_meta& meta, const std::vector<scripted_tool_call>& calls,
                            std::string_view content, const word_usage& usage) {
    json::array tool_calls;
    for (const scripted_tool_call& call : calls)
        tool_calls.push_back(json::object{
            {"id", call.id},
            {"type", "function"},
            {"function", json::object{{"name", call.name}, {"arguments", call.arguments}}}});
    json::object message{{"role", "assistant"},
                         {"content", content.empty() ? json::value(nullptr) : json::value(content)},
                         {"tool_calls", std::move(tool_calls)},
                         {"refusal", nullptr}};
    return completion_with(meta, std::move(message), "tool_calls", usage);
}

std::vector<std::string> tool_call_events(const answer_meta& meta, const std::vector<scripted_tool_call>& calls,
                                          std::size_t piece_size, std::string_view content, const word_usage* usage) {
    std::vector<std::string> events;
    events.push_back(chunk_event(
        meta, {{"role", "assistant"}, {"content", content.empty() ? json::value(nullptr) : json::value("")}}, nullptr));
    for (std::string_view piece : pieces(content, piece_size))
        events.push_back(chunk_event(meta, {{"content", piece}}, nullptr));
    // Each call's header (index, id, type, name), then the arguments' pieces, calls interleaved.
    for (std::size_t i = 0; i < calls.size(); ++i)
        events.push_back(chunk_event(
            meta,
            {{"tool_calls", json::array{json::object{
                                {"index", i},
                                {"id", calls[i].id},
                                {"type", "function"},
                                {"function", json::object{{"name", calls[i].name}, {"arguments", ""}}}}}}},
            nullptr));
    std::vector<std::vector<std::string_view>> arguments;
    for (const scripted_tool_call& call : calls) arguments.push_back(pieces(call.arguments, piece_size));
    for (std::size_t round = 0;; ++round) {
        bool any = false;
        for (std::size_t i = 0; i < calls.size(); ++i) {
            if (round >= arguments[i].size()) continue;
            any = true;
            events.push_back(chunk_event(
                meta,
                {{"tool_calls", json::array{json::object{
                                    {"index", i}, {"function", json::object{{"arguments", arguments[i][round]}}}}}}},
                nullptr));
        }
        if (!any) break;
    }
    finish_stream(events, meta, "tool_calls", usage);
    return events;
}

std::string error_body(std::string_view type, std::string_view message, std::string_view code) {
    json::object error{{"message", message},
                       {"type", type},
                       {"param", nullptr},
                       {"code", code.empty() ? json::value(nullptr) : json::value(code)}};
    return json::serialize(json::object{{"error", std::move(error)}});
}

scripted_reply generate_answer(std::string_view method, std::string_view target, std::string_view body,
                               const generation& options) {
    const std::string_view path = target.substr(0, target.find('?'));
    constexpr std::string_view endpoint = "/chat/completions";
    if (path.size() < endpoint.size() || path.substr(path.size() - endpoint.size()) != endpoint)
        return scripted_reply::error(404, "invalid_request_error",
                                     "Unknown request URL: " + std::string(method) + " " + std::string(path) +
                                         ". This server answers POST /v1/chat/completions, /v1/responses and /v1/messages.",
                                     "unknown_url");
    if (method != "POST")
        return scripted_reply::error(405, "invalid_request_error",
                                     "Method " + std::string(method) + " is not allowed; use POST.")
            .with_header("Allow", "POST");

    std::variant<json::object, scripted_reply> request = request_object(body);
    if (auto* refused = std::get_if<scripted_reply>(&request)) return std::move(*refused);
    const json::object* fields = &std::get<json::object>(request);
    const json::value* messages = fields->if_contains("messages");
    if (!messages || !messages->is_array())
        return bad_request("'messages' is a required property and must be an array.");

    const answer_request asked = read_request(*fields, messages->get_array());
    const decided_answer answer = decide_answer(asked, options);
    if (!answer.error.empty()) return bad_request(answer.error);

    const answer_meta meta{.id = "chatcmpl-local-" + std::to_string(options.request_number),
                           .model = options.model,
                           .created = unix_now()};
    const json::value* stream = fields->if_contains("stream");
    const bool streamed = stream && stream->is_bool() && stream->get_bool();
    bool include_usage = false;
    if (const json::value* so = fields->if_contains("stream_options"); so && so->is_object())
        if (const json::value* iu = so->get_object().if_contains("include_usage"); iu && iu->is_bool())
            include_usage = iu->get_bool();

    std::string_view text = answer.text;
    std::string_view finish_reason = "stop";
    std::size_t words = count_words(text);
    for (const scripted_tool_call& call : answer.calls) words += count_words(call.arguments);
    if (const std::optional<std::size_t> limit = token_limit(*fields); limit && answer.calls.empty() && words > *limit) {
        text = first_words(text, *limit); // cut as a model at its output limit
        words = *limit;
        finish_reason = "length";
    }
    const word_usage usage{.prompt_tokens = static_cast<std::int64_t>(count_words(asked.prompt)),
                           .completion_tokens = static_cast<std::int64_t>(words)};
    const word_usage* stream_usage = include_usage ? &usage : nullptr;
    if (!answer.calls.empty()) {
        if (!streamed) return scripted_reply::json(tool_calls_body(meta, answer.calls, {}, usage));
        return streamed_reply(tool_call_events(meta, answer.calls, options.delta_size, {}, stream_usage),
                              options.chunk_delay);
    }
    if (!streamed) return scripted_reply::json(completion_body(meta, text, finish_reason, usage));
    return streamed_reply(stream_events(meta, text, options.delta_size, finish_reason, stream_usage),
                          options.chunk_delay);
}

} // namespace forma::testing::detail
