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
    json::object body{{"id", meta.id},
                      {"object", "chat.completion"},
                      {"created", meta.created},
                      {"model", meta.model}};
    body["choices"] = json::array{json::object{
        {"index", 0}, {"message", std::move(message)}, {"logprobs", nullptr}, {"finish_reason", finish_reason}}};
    body["usage"] = usage_object(usage);
    return json::serialize(body);
}

std::vector<std::string> stream_events(const answer_meta& meta, std::string_view content, std::size_t delta_size,
                                       std::string_view finish_reason, const word_usage* usage) {
    std::vector<std::string> events;
    events.push_back(chunk_event(meta, {{"role", "assistant"}, {"content", ""}}, nullptr));
    delta_size = std::max<std::size_t>(delta_size, 1);
    for (std::size_t pos = 0; pos < content.size();) {
        std::size_t end = std::min(content.size(), pos + delta_size);
        while (end > pos && end < content.size() && is_continuation(content[end])) --end;
        if (end == pos) { // a sequence longer than delta_size: send it whole
            end = pos + 1;
            while (end < content.size() && is_continuation(content[end])) ++end;
        }
        events.push_back(chunk_event(meta, {{"content", content.substr(pos, end - pos)}}, nullptr));
        pos = end;
    }
    events.push_back(chunk_event(meta, {}, json::string(finish_reason)));
    if (usage) {
        json::object chunk = chunk_object(meta);
        chunk["choices"] = json::array{};
        chunk["usage"] = usage_object(*usage);
        events.push_back(event(chunk));
    }
    events.emplace_back("data: [DONE]\n\n");
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

    const answer_meta meta{.id = "chatcmpl-local-" + std::to_string(options.request_number),
                           .model = options.model,
                           .created = unix_now()};
    const word_usage usage{.prompt_tokens = static_cast<std::int64_t>(count_words(prompt)),
                           .completion_tokens = static_cast<std::int64_t>(count_words(content))};

    const json::value* stream = fields->if_contains("stream");
    if (!stream || !stream->is_bool() || !stream->get_bool()) {
        scripted_reply reply = scripted_reply::json(completion_body(meta, content, "stop", usage));
        return reply;
    }
    bool include_usage = false;
    if (const json::value* so = fields->if_contains("stream_options"); so && so->is_object())
        if (const json::value* iu = so->get_object().if_contains("include_usage"); iu && iu->is_bool())
            include_usage = iu->get_bool();
    scripted_reply reply;
    reply.content_type = "text/event-stream";
    reply.chunks = stream_events(meta, content, options.delta_size, "stop", include_usage ? &usage : nullptr);
    reply.chunk_delay = options.chunk_delay;
    return reply;
}

} // namespace forma::testing::detail
