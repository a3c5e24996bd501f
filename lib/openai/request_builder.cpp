#include <forma/openai/request_builder.hpp>

#include <forma/json/detail/reader.hpp>

#include <forma/chat/answer_tool.hpp>
#include "../chat/request_parts.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <variant>
#include <vector>

namespace forma::openai {
namespace {

using chat_detail::essence;
using chat_detail::result_text;
using chat_detail::starts_with_ci;

// The API takes at most this many stop sequences (StopConfiguration: maxItems 4).
constexpr std::size_t max_stop_sequences = 4;

enum class role_kind { system, developer, user, assistant, tool };

role_kind kind_of(const chat_role& role) {
    if (role == chat_role::system()) return role_kind::system;
    if (role == chat_role(std::string("developer"))) return role_kind::developer;
    if (role == chat_role::user()) return role_kind::user;
    if (role == chat_role::assistant()) return role_kind::assistant;
    if (role == chat_role::tool()) return role_kind::tool;
    throw error("an OpenAI chat message cannot have the role \"" + role.value() +
                "\": the roles are system, developer, user, assistant and tool");
}

const char* role_name(role_kind kind) noexcept {
    switch (kind) {
    case role_kind::system: return "system";
    case role_kind::developer: return "developer";
    case role_kind::user: return "user";
    case role_kind::assistant: return "assistant";
    case role_kind::tool: return "tool";
    }
    return "user";
}

// OpenAI rejects names outside ^[A-Za-z0-9_-]{1,64}$ with a 400; such names are left out.
bool is_api_name(std::string_view name) noexcept {
    if (name.empty() || name.size() > 64) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
    });
}

boost::json::object text_part(const std::string& text) {
    return {{"type", "text"}, {"text", text}};
}

boost::json::object image_part(std::string url) {
    boost::json::object part{{"type", "image_url"}};
    part["image_url"] = boost::json::object{{"url", std::move(url)}};
    return part;
}

[[noreturn]] void cannot_send(std::string_view what, role_kind role) {
    throw error("an OpenAI " + std::string(role_name(role)) + " message cannot hold " + std::string(what));
}

boost::json::object data_part(const data_content& data, role_kind role) {
    const std::string type = essence(data.media_type);
    if (starts_with_ci(type, "image/")) return image_part(data.data_uri());
    if (type == "audio/wav" || type == "audio/x-wav" || type == "audio/wave" || type == "audio/mpeg" ||
        type == "audio/mp3") {
        boost::json::object part{{"type", "input_audio"}};
        part["input_audio"] = boost::json::object{
            {"data", data.base64()}, {"format", type == "audio/mpeg" || type == "audio/mp3" ? "mp3" : "wav"}};
        return part;
    }
    if (type == "application/pdf") {
        boost::json::object part{{"type", "file"}};
        part["file"] = boost::json::object{{"file_data", data.data_uri()},
                                           {"filename", data.name.empty() ? "document.pdf" : data.name}};
        return part;
    }
    cannot_send("data of media type \"" + data.media_type + "\" (images, WAV and MP3 audio and PDF only)",
                role);
}

boost::json::object uri_part(const uri_content& uri, role_kind role) {
    if (starts_with_ci(essence(uri.media_type), "image/")) return image_part(uri.uri);
    cannot_send("a URI of media type \"" + uri.media_type + "\" (only images can be sent by URI)", role);
}

boost::json::object tool_message(const function_result_content& result) {
    return {{"role", "tool"}, {"tool_call_id", result.call_id}, {"content", result_text(result)}};
}

boost::json::object tool_call(const function_call_content& call) {
    boost::json::object function{{"name", call.name}, {"arguments", boost::json::serialize(call.arguments)}};
    return {{"id", call.call_id}, {"type", "function"}, {"function", std::move(function)}};
}

// Appends the message's OpenAI form, and a tool message per function result, to `out`.
void add_message(boost::json::array& out, const chat_message& message) {
    const role_kind role = kind_of(message.role);
    boost::json::array parts;     // content parts, when a string is not enough
    std::string text;             // the text contents, joined
    bool has_text = false;
    bool needs_parts = false;
    std::string refusal;
    boost::json::array tool_calls;
    std::vector<const function_result_content*> results;

    for (const content& c : message.contents) {
        if (const auto* t = std::get_if<text_content>(&c)) {
            text += t->text;
            has_text = true;
            parts.push_back(text_part(t->text));
        } else if (const auto* d = std::get_if<data_content>(&c)) {
            if (role != role_kind::user) cannot_send("data contents (images, audio, files)", role);
            parts.push_back(data_part(*d, role));
            needs_parts = true;
        } else if (const auto* u = std::get_if<uri_content>(&c)) {
            if (role != role_kind::user) cannot_send("uri contents (images)", role);
            parts.push_back(uri_part(*u, role));
            needs_parts = true;
        } else if (const auto* r = std::get_if<refusal_content>(&c)) {
            if (role != role_kind::assistant) cannot_send("a refusal", role);
            refusal += r->refusal;
        } else if (const auto* call = std::get_if<function_call_content>(&c)) {
            if (role != role_kind::assistant) cannot_send("a function call", role);
            tool_calls.push_back(tool_call(*call));
        } else if (const auto* result = std::get_if<function_result_content>(&c)) {
            results.push_back(result);
        } else if (const auto* errors = std::get_if<output_errors_content>(&c)) {
            const std::string correction = correction_text(*errors); // a validation retry's request
            text += correction;
            has_text = true;
            parts.push_back(text_part(correction));
        }
        // Reasoning, usage, errors and unknown kinds are the model's output, not input; approval
        // requests and answers are between the caller and the tool loop, which sends the calls.
    }

    // A message of only what is not sent (reasoning, approval answers) is not sent at all.
    if (!message.contents.empty() && !has_text && !needs_parts && refusal.empty() && tool_calls.empty() &&
        results.empty())
        return;
    if (role == role_kind::tool) {
        if (has_text || needs_parts || results.empty())
            throw error("an OpenAI tool message needs a function_result_content (the call id it "
                        "answers); put the tool's output there instead of in text");
    } else if (has_text || needs_parts || !refusal.empty() || !tool_calls.empty() || results.empty()) {
        boost::json::object m{{"role", role_name(role)}};
        if (is_api_name(message.author_name)) m["name"] = message.author_name;
        if (needs_parts) m["content"] = std::move(parts);
        else if (has_text || (role != role_kind::assistant)) m["content"] = std::move(text);
        else m["content"] = nullptr; // an assistant message of only tool calls or a refusal
        if (!refusal.empty()) m["refusal"] = std::move(refusal);
        if (!tool_calls.empty()) m["tool_calls"] = std::move(tool_calls);
        out.push_back(std::move(m));
    }
    for (const function_result_content* result : results) out.push_back(tool_message(*result));
}

boost::json::object format_of(const response_format& format) {
    switch (format.kind()) {
    case response_format_kind::text: return {{"type", "text"}};
    case response_format_kind::json: return {{"type", "json_object"}};
    case response_format_kind::json_schema: break;
    }
    boost::json::object schema{{"name", format.name()}};
    if (!format.description().empty()) schema["description"] = format.description();
    schema["schema"] = format.schema();
    if (format.strict()) schema["strict"] = *format.strict();
    return {{"type", "json_schema"}, {"json_schema", std::move(schema)}};
}

boost::json::object tool_declaration(const function_tool& tool) {
    boost::json::object function{{"name", tool.name()}};
    if (!tool.description().empty()) function["description"] = tool.description();
    function["parameters"] = tool.parameters();
    if (tool.strict()) function["strict"] = true;
    return {{"type", "function"}, {"function", std::move(function)}};
}

boost::json::value tool_choice_of(const tool_choice& choice) {
    if (const char* keyword = chat_detail::tool_choice_keyword(choice)) return keyword;
    return boost::json::object{{"type", "function"},
                               {"function", boost::json::object{{"name", choice.function_name()}}}};
}

void add_tools(boost::json::object& body, const chat_options& options) {
    if (options.tools.empty()) return; // the API refuses tool_choice and parallel_tool_calls without tools
    boost::json::array& tools = body["tools"].emplace_array();
    tools.reserve(options.tools.size());
    for (const function_tool& tool : options.tools) tools.push_back(tool_declaration(tool));
    if (options.tool_choice) body["tool_choice"] = tool_choice_of(*options.tool_choice);
    if (options.parallel_tool_calls) body["parallel_tool_calls"] = *options.parallel_tool_calls;
}

} // namespace

boost::json::object build_request(std::span<const chat_message> messages, const chat_options& requested,
                                  std::string_view default_model, bool stream) {
    std::optional<chat_options> by_tool;
    const chat_options& options = options_as_sent(requested, by_tool);
    const std::string_view model = chat_detail::model_to_send(options, default_model, "an OpenAI chat request");
    if (options.continuation_token)
        throw error("the OpenAI Chat Completions API cannot resume a response from a continuation token: "
                    "background runs need forma::openai::responses_client");
    if (options.stop_sequences.size() > max_stop_sequences)
        throw error("the OpenAI Chat Completions API takes at most 4 stop sequences, got " +
                    std::to_string(options.stop_sequences.size()));
    chat_detail::check_additional_properties(options, {"messages", "stream"}, "the OpenAI client");
    chat_detail::check_tools(options);

    boost::json::object body;
    body["model"] = model;
    boost::json::array& out = body["messages"].emplace_array();
    if (!options.instructions.empty())
        out.push_back(boost::json::object{{"role", "system"}, {"content", options.instructions}});
    for (const chat_message& message : messages) add_message(out, message);
    if (out.empty()) throw error("an OpenAI chat request needs at least one message or instructions");

    if (options.temperature) body["temperature"] = *options.temperature;
    if (options.top_p) body["top_p"] = *options.top_p;
    if (options.max_output_tokens) body["max_completion_tokens"] = *options.max_output_tokens;
    if (!options.stop_sequences.empty()) {
        boost::json::array& stop = body["stop"].emplace_array();
        for (const std::string& s : options.stop_sequences) stop.push_back(boost::json::string_view(s));
    }
    if (options.seed) body["seed"] = *options.seed;
    if (options.response_format) body["response_format"] = format_of(*options.response_format);
    add_tools(body, options);
    if (stream) {
        body["stream"] = true;
        body["stream_options"] = boost::json::object{{"include_usage", true}};
    }
    for (const auto& property : options.additional_properties) body[property.key()] = property.value();
    chat_detail::require_utf8(body, "the OpenAI request");
    return body;
}

} // namespace forma::openai
