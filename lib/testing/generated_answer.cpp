#include "generated_answer.hpp"

#include <forma/json/schema_error.hpp>
#include <forma/testing/schema_instance.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>

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

bool is_continuation(char c) noexcept { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// `text` in pieces of at most `size` bytes that never cut a UTF-8 sequence (a longer sequence
// is a piece of its own).
std::vector<std::string_view> pieces(std::string_view text, std::size_t size) {
    std::vector<std::string_view> out;
    size = std::max<std::size_t>(size, 1);
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t end = std::min(text.size(), pos + size);
        while (end > pos && end < text.size() && is_continuation(text[end])) --end;
        if (end == pos) {
            end = pos + 1;
            while (end < text.size() && is_continuation(text[end])) ++end;
        }
        out.push_back(text.substr(pos, end - pos));
        pos = end;
    }
    return out;
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

// The text of a message's content: a string, or the text parts of an array (space-joined,
// so that words of adjacent parts stay apart).
std::string content_text(const json::value* content) {
    if (!content) return {};
    if (const json::string* s = content->if_string()) return std::string(*s);
    std::string text;
    if (const json::array* parts = content->if_array()) {
        for (const json::value& part : *parts) {
            const json::object* p = part.if_object();
            if (!p) continue;
            const json::value* type = p->if_contains("type");
            const json::value* t = p->if_contains("text");
            if (!type || !type->is_string() || type->get_string() != "text" || !t || !t->is_string()) continue;
            if (!text.empty()) text += ' ';
            text += t->get_string();
        }
    }
    return text;
}

scripted_reply bad_request(std::string_view message) {
    return scripted_reply::error(400, "invalid_request_error", message);
}

struct offered_tool {
    std::string name;
    const json::object* parameters = nullptr; // null: the tool takes no arguments
};

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

// The tools the generated turn calls: none when the request offers none, forbids them, or
// ends with a tool's result (the model answers then).
std::vector<const offered_tool*> tools_to_call(const json::object& request, const std::vector<offered_tool>& offered,
                                               const json::array& messages, std::size_t per_turn, std::string& error) {
    std::vector<const offered_tool*> out;
    if (offered.empty()) return out;
    if (!messages.empty())
        if (const json::object* last = messages.back().if_object())
            if (const json::value* role = last->if_contains("role"); role && *role == "tool") return out;
    std::size_t count = std::max<std::size_t>(per_turn, 1);
    if (const json::value* parallel = request.if_contains("parallel_tool_calls"); parallel && *parallel == false)
        count = 1;
    const json::value* choice = request.if_contains("tool_choice");
    if (choice && *choice == "none") return out;
    if (const json::object* named = choice ? choice->if_object() : nullptr) {
        const json::value* function = named->if_contains("function");
        const json::value* name = function && function->is_object() ? function->get_object().if_contains("name") : nullptr;
        for (const offered_tool& tool : offered)
            if (name && name->is_string() && tool.name == name->get_string()) return {&tool};
        error = "tool_choice names a function that is not among the tools.";
        return out;
    }
    for (std::size_t i = 0; i < offered.size() && out.size() < count; ++i) out.push_back(&offered[i]);
    return out;
}

// The first half of `text`, never cutting a UTF-8 sequence: JSON that ends too soon.
std::string cut_short(const std::string& text) {
    std::size_t end = text.size() / 2;
    while (end > 0 && is_continuation(text[end])) --end;
    return text.substr(0, std::max<std::size_t>(end, 1));
}

// Calls of `tools` with arguments made from their schemas (and the configured fault).
// @throws schema_error for parameters make_instance cannot satisfy.
std::vector<scripted_tool_call> generated_calls(const std::vector<const offered_tool*>& tools,
                                                const std::string& prompt, const generation& options) {
    std::vector<scripted_tool_call> calls;
    for (std::size_t i = 0; i < tools.size(); ++i) {
        std::string arguments = "{}";
        if (const json::object* parameters = tools[i]->parameters)
            arguments = json::serialize(make_instance(*parameters, prompt, options.seed + i));
        if (options.tool_fault == tool_call_fault::malformed_arguments) arguments = cut_short(arguments);
        calls.push_back({"call_" + std::to_string(options.request_number) + "_" + std::to_string(i),
                         options.tool_fault == tool_call_fault::unknown_tool ? "no_such_tool" : tools[i]->name,
                         std::move(arguments)});
    }
    return calls;
}

scripted_reply streamed_reply(std::vector<std::string> events, std::chrono::milliseconds chunk_delay) {
    scripted_reply reply;
    reply.content_type = "text/event-stream";
    reply.chunks = std::move(events);
    reply.chunk_delay = chunk_delay;
    return reply;
}

} // namespace

std::int64_t unix_now() noexcept {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::size_t count_words(std::string_view text) noexcept {
    std::size_t words = 0;
    bool in_word = false;
    for (char c : text) {
        const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
        if (!space && !in_word) ++words;
        in_word = !space;
    }
    return words;
}

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
                                         ". This server answers POST /v1/chat/completions.",
                                     "unknown_url");
    if (method != "POST")
        return scripted_reply::error(405, "invalid_request_error",
                                     "Method " + std::string(method) + " is not allowed; use POST.")
            .with_header("Allow", "POST");

    boost::system::error_code ec;
    const json::value request = json::parse(body, ec);
    if (ec) return bad_request("The request body is not valid JSON: " + ec.message() + ".");
    const json::object* fields = request.if_object();
    if (!fields) return bad_request("The request body must be a JSON object.");
    const json::value* messages = fields->if_contains("messages");
    if (!messages || !messages->is_array()) return bad_request("'messages' is a required property and must be an array.");

    std::string prompt, last_user;
    for (const json::value& m : messages->get_array()) {
        const json::object* message = m.if_object();
        if (!message) continue;
        const json::value* role = message->if_contains("role");
        if (!role || !role->is_string() || role->get_string() != "user") continue;
        last_user = content_text(message->if_contains("content"));
        if (!prompt.empty()) prompt += ' ';
        prompt += last_user;
    }

    const answer_meta meta{.id = "chatcmpl-local-" + std::to_string(options.request_number),
                           .model = options.model,
                           .created = unix_now()};
    const json::value* stream = fields->if_contains("stream");
    const bool streamed = stream && stream->is_bool() && stream->get_bool();
    bool include_usage = false;
    if (const json::value* so = fields->if_contains("stream_options"); so && so->is_object())
        if (const json::value* iu = so->get_object().if_contains("include_usage"); iu && iu->is_bool())
            include_usage = iu->get_bool();

    const std::vector<offered_tool> offered = offered_tools(*fields);
    std::string choice_error;
    const std::vector<const offered_tool*> to_call =
        tools_to_call(*fields, offered, messages->get_array(), options.tool_calls_per_turn, choice_error);
    if (!choice_error.empty()) return bad_request(choice_error);
    if (!to_call.empty()) {
        std::vector<scripted_tool_call> calls;
        try {
            calls = generated_calls(to_call, prompt, options);
        } catch (const schema_error& e) {
            return bad_request(e.what());
        }
        std::size_t words = 0;
        for (const scripted_tool_call& call : calls) words += count_words(call.arguments);
        const word_usage usage{.prompt_tokens = static_cast<std::int64_t>(count_words(prompt)),
                               .completion_tokens = static_cast<std::int64_t>(words)};
        if (!streamed) return scripted_reply::json(tool_calls_body(meta, calls, {}, usage));
        return streamed_reply(tool_call_events(meta, calls, options.delta_size, {}, include_usage ? &usage : nullptr),
                              options.chunk_delay);
    }

    std::string content = "You said: " + last_user;
    if (const json::value* format = fields->if_contains("response_format"); format && format->is_object()) {
        const json::value* type = format->get_object().if_contains("type");
        if (type && type->is_string() && type->get_string() == "json_schema") {
            const json::value* spec = format->get_object().if_contains("json_schema");
            const json::value* schema = spec && spec->is_object() ? spec->get_object().if_contains("schema") : nullptr;
            if (!schema || !schema->is_object())
                return bad_request("response_format.json_schema.schema must be a JSON object.");
            try {
                content = json::serialize(make_instance(schema->get_object(), prompt, options.seed));
            } catch (const schema_error& e) {
                return bad_request(e.what());
            }
        } else if (type && type->is_string() && type->get_string() == "json_object") {
            content = json::serialize(json::object{{"answer", last_user}});
        }
    }

    const word_usage usage{.prompt_tokens = static_cast<std::int64_t>(count_words(prompt)),
                           .completion_tokens = static_cast<std::int64_t>(count_words(content))};
    if (!streamed) return scripted_reply::json(completion_body(meta, content, "stop", usage));
    return streamed_reply(stream_events(meta, content, options.delta_size, "stop", include_usage ? &usage : nullptr),
                          options.chunk_delay);
}

} // namespace forma::testing::detail
