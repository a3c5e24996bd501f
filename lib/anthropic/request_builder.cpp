#include <forma/anthropic/request_builder.hpp>

#include "../chat/request_parts.hpp"

#include <forma/chat/answer_tool.hpp>
#include <forma/error.hpp>

#include <optional>
#include <string>
#include <variant>

namespace forma::anthropic {

namespace json = boost::json;

namespace {

using chat_detail::essence;
using chat_detail::starts_with_ci;

[[noreturn]] void cannot_send(std::string_view role, std::string_view what) {
    throw error("an Anthropic " + std::string(role) + " turn cannot hold " + std::string(what));
}

json::object cache_breakpoint(prompt_cache cache) {
    json::object mark{{"type", "ephemeral"}};
    if (cache == prompt_cache::one_hour) mark["ttl"] = "1h";
    return mark;
}

json::object text_block(std::string_view text) { return {{"type", "text"}, {"text", text}}; }

json::object image_block(json::object source) { return {{"type", "image"}, {"source", std::move(source)}}; }

json::object data_block(const data_content& data) {
    const std::string type = essence(data.media_type);
    if (type == "image/jpeg" || type == "image/png" || type == "image/gif" || type == "image/webp")
        return image_block({{"type", "base64"}, {"media_type", type}, {"data", data.base64()}});
    if (type == "application/pdf") {
        json::object block{{"type", "document"},
                           {"source", json::object{{"type", "base64"}, {"media_type", type}, {"data", data.base64()}}}};
        if (!data.name.empty()) block["title"] = data.name;
        return block;
    }
    cannot_send("user", "data of media type \"" + data.media_type + "\" (JPEG, PNG, GIF and WebP images and PDF only)");
}

json::object uri_block(const uri_content& uri) {
    const std::string type = essence(uri.media_type);
    if (starts_with_ci(type, "image/")) return image_block({{"type", "url"}, {"url", uri.uri}});
    if (type == "application/pdf")
        return {{"type", "document"}, {"source", json::object{{"type", "url"}, {"url", uri.uri}}}};
    cannot_send("user", "a URI of media type \"" + uri.media_type + "\" (images and PDFs only)");
}

// A failed call's text starts "Error: ", as every provider's does; the API also hears `is_error`.
json::object tool_result_block(const function_result_content& result) {
    json::object block{{"type", "tool_result"}, {"tool_use_id", result.call_id}, {"content", chat_detail::result_text(result)}};
    if (result.error) block["is_error"] = true;
    return block;
}

// A thinking block goes back as it came: its text and signature, or its redacted data.
std::optional<json::object> thinking_block(const text_reasoning_content& reasoning) {
    if (!reasoning.protected_data || reasoning.protected_data->empty()) return std::nullopt; // not Anthropic's
    if (const json::value* redacted = reasoning.additional_properties.if_contains("redacted");
        redacted && redacted->is_bool() && redacted->get_bool())
        return json::object{{"type", "redacted_thinking"}, {"data", *reasoning.protected_data}};
    return json::object{{"type", "thinking"}, {"thinking", reasoning.text}, {"signature", *reasoning.protected_data}};
}

enum class turn_role { user, assistant };

// The blocks of one message, appended to its turn's (tool results to `results`, which lead).
void add_blocks(const chat_message& message, turn_role role, json::array& blocks, json::array& results) {
    const char* name = role == turn_role::user ? "user" : "assistant";
    for (const content& c : message.contents) {
        if (const auto* t = std::get_if<text_content>(&c)) {
            if (!t->text.empty()) blocks.push_back(text_block(t->text));
        } else if (const auto* d = std::get_if<data_content>(&c)) {
            if (role != turn_role::user) cannot_send(name, "data contents (images, documents)");
            blocks.push_back(data_block(*d));
        } else if (const auto* u = std::get_if<uri_content>(&c)) {
            if (role != turn_role::user) cannot_send(name, "uri contents (images, documents)");
            blocks.push_back(uri_block(*u));
        } else if (const auto* call = std::get_if<function_call_content>(&c)) {
            if (role != turn_role::assistant) cannot_send(name, "a function call");
            blocks.push_back(json::object{{"type", "tool_use"}, {"id", call->call_id}, {"name", call->name}, {"input", call->arguments}});
        } else if (const auto* result = std::get_if<function_result_content>(&c)) {
            results.push_back(tool_result_block(*result));
        } else if (const auto* reasoning = std::get_if<text_reasoning_content>(&c)) {
            if (role == turn_role::assistant)
                if (std::optional<json::object> block = thinking_block(*reasoning)) blocks.push_back(std::move(*block));
        } else if (const auto* refusal = std::get_if<refusal_content>(&c)) {
            if (role != turn_role::assistant) cannot_send(name, "a refusal");
            if (!refusal->refusal.empty()) blocks.push_back(text_block(refusal->refusal));
        } else if (const auto* errors = std::get_if<output_errors_content>(&c)) {
            blocks.push_back(text_block(correction_text(*errors))); // a validation retry's request
        }
        // Usage, errors and unknown kinds are output, not input; approval requests and answers
        // are between the caller and the tool loop, which sends the calls.
    }
}

struct conversation {
    json::array system;
    json::array messages;
};

conversation conversation_of(std::span<const chat_message> messages, const chat_options& options) {
    conversation out;
    if (!options.instructions.empty()) out.system.push_back(text_block(options.instructions));
    std::optional<turn_role> open_role;
    json::array blocks, results;
    const auto close_turn = [&] {
        if (!open_role) return;
        json::array content = std::move(results);
        for (json::value& b : blocks) content.push_back(std::move(b));
        if (!content.empty())
            out.messages.push_back(json::object{{"role", *open_role == turn_role::user ? "user" : "assistant"},
                                                {"content", std::move(content)}});
        blocks = {};
        results = {};
        open_role.reset();
    };
    for (const chat_message& message : messages) {
        if (message.role == chat_role::system() || message.role == chat_role(std::string("developer"))) {
            for (const content& c : message.contents)
                if (const auto* t = std::get_if<text_content>(&c); t && !t->text.empty()) out.system.push_back(text_block(t->text));
                else if (std::holds_alternative<data_content>(c) || std::holds_alternative<uri_content>(c))
                    cannot_send("system", "data or uri contents");
            continue;
        }
        turn_role role;
        if (message.role == chat_role::user() || message.role == chat_role::tool()) role = turn_role::user;
        else if (message.role == chat_role::assistant()) role = turn_role::assistant;
        else throw error("the Anthropic Messages API has no role \"" + message.role.value() + "\" (system, user, assistant, tool)");
        if (open_role != role) {
            close_turn();
            open_role = role;
        }
        add_blocks(message, role, blocks, results);
        if (role == turn_role::assistant && !results.empty())
            throw error("an Anthropic assistant turn cannot hold a function result: send it in a tool or user message");
    }
    close_turn();
    return out;
}

json::object tool_choice_of(const chat_options& options) {
    const tool_choice choice = options.tool_choice.value_or(tool_choice::automatic());
    json::object out;
    switch (choice.mode()) {
    case tool_choice_mode::automatic: out["type"] = "auto"; break;
    case tool_choice_mode::none: out["type"] = "none"; return out; // no parallel setting with none
    case tool_choice_mode::required: out["type"] = "any"; break;
    case tool_choice_mode::function:
        out["type"] = "tool";
        out["name"] = choice.function_name();
        break;
    }
    if (options.parallel_tool_calls && !*options.parallel_tool_calls) out["disable_parallel_tool_use"] = true;
    return out;
}

// The last block of the last turn carries the conversation's breakpoint.
void mark_conversation(json::array& messages, prompt_cache cache) {
    if (messages.empty()) return;
    json::array& content = messages.back().as_object()["content"].as_array();
    if (!content.empty()) content.back().as_object()["cache_control"] = cache_breakpoint(cache);
}

// What the Messages request and its token count share.
json::object common_body(std::span<const chat_message> messages, const chat_options& requested,
                         const client_options& settings, std::optional<chat_options>& by_tool) {
    const chat_options& options = options_as_sent(requested, by_tool);
    const std::string_view model = chat_detail::model_to_send(options, settings.model, "an Anthropic Messages request");
    if (options.continuation_token)
        throw error("the Anthropic Messages API cannot resume a response from a continuation token: it has no background runs");
    chat_detail::check_additional_properties(options, {"messages", "stream", "system", "max_tokens"}, "the Anthropic client");
    chat_detail::check_tools(options);

    conversation turns = conversation_of(messages, options);
    json::object body{{"model", model}};
    if (settings.cache != prompt_cache::none) {
        if (!turns.system.empty()) turns.system.back().as_object()["cache_control"] = cache_breakpoint(settings.cache);
        mark_conversation(turns.messages, settings.cache);
    }
    if (!turns.system.empty()) body["system"] = std::move(turns.system);
    body["messages"] = std::move(turns.messages);
    if (!options.tools.empty()) {
        json::array tools;
        for (const function_tool& tool : options.tools) {
            json::object t{{"name", tool.name()}};
            if (!tool.description().empty()) t["description"] = tool.description();
            t["input_schema"] = tool.parameters();
            tools.push_back(std::move(t));
        }
        if (settings.cache != prompt_cache::none) tools.back().as_object()["cache_control"] = cache_breakpoint(settings.cache);
        body["tools"] = std::move(tools);
        body["tool_choice"] = tool_choice_of(options);
    }
    if (options.response_format) {
        const response_format& format = *options.response_format;
        if (format.kind() == response_format_kind::json_schema)
            body["output_config"] = json::object{{"format", json::object{{"type", "json_schema"}, {"schema", format.schema()}}}};
        else if (format.kind() == response_format_kind::json)
            body["output_config"] =
                json::object{{"format", json::object{{"type", "json_schema"}, {"schema", json::object{{"type", "object"}}}}}};
    }
    if (settings.thinking_budget_tokens > 0)
        body["thinking"] = json::object{{"type", "enabled"}, {"budget_tokens", settings.thinking_budget_tokens}};
    return body;
}

void add_additional_properties(json::object& body, const chat_options& options, std::string_view request) {
    for (const auto& property : options.additional_properties) body[property.key()] = property.value();
    chat_detail::require_utf8(body, request);
}

} // namespace

json::object build_request(std::span<const chat_message> messages, const chat_options& requested,
                           const client_options& settings, bool stream) {
    std::optional<chat_options> by_tool;
    json::object body = common_body(messages, requested, settings, by_tool);
    const chat_options& options = by_tool ? *by_tool : requested;
    body["max_tokens"] = options.max_output_tokens.value_or(settings.max_tokens);
    if (options.temperature) body["temperature"] = *options.temperature;
    if (options.top_p) body["top_p"] = *options.top_p;
    if (!options.stop_sequences.empty()) {
        json::array stops;
        for (const std::string& s : options.stop_sequences) stops.emplace_back(s);
        body["stop_sequences"] = std::move(stops);
    }
    if (stream) body["stream"] = true;
    add_additional_properties(body, options, "the Anthropic request");
    return body;
}

json::object build_count_tokens_request(std::span<const chat_message> messages, const chat_options& requested,
                                        const client_options& settings) {
    std::optional<chat_options> by_tool;
    json::object body = common_body(messages, requested, settings, by_tool);
    chat_detail::require_utf8(body, "the Anthropic count_tokens request"); // additional properties are the Messages request's
    return body;
}

} // namespace forma::anthropic
