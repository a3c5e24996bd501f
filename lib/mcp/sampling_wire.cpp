#include "sampling_wire.hpp"

#include <forma/error.hpp>
#include <forma/mcp/mcp_error.hpp>

#include "../json/json_members.hpp"
#include "../json/json_text.hpp"
#include "served_content.hpp"

#include <array>

namespace forma::mcp {

namespace {
constexpr std::array<std::string_view, 8> level_names{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};
}

std::string_view to_string(log_level level) noexcept { return level_names[static_cast<std::size_t>(level)]; }

} // namespace forma::mcp

namespace forma::mcp::detail {

namespace {

namespace json = boost::json;

bool image_or_audio(const data_content& data) {
    return data.media_type.rfind("image/", 0) == 0 || data.media_type.rfind("audio/", 0) == 0;
}

// MCP's SamplingMessage holds one text, image or audio.
json::object sampling_content(const content& c) {
    if (const auto* text = std::get_if<text_content>(&c)) return {{"type", "text"}, {"text", json_detail::valid_utf8(text->text)}};
    if (const auto* data = std::get_if<data_content>(&c); data && image_or_audio(*data)) return data_content_json(*data);
    throw error("a sampling message holds text, images and audio only");
}

// MCP's messages are the user's and the assistant's: a system prompt goes apart.
bool mcp_role(const chat_role& role) { return role == chat_role::user() || role == chat_role::assistant(); }

[[noreturn]] void malformed(const std::string& peer, const std::string& what) { throw mcp_error(peer + " sent " + what, peer); }

// One content, or (2025-11-25) an array of them.
std::vector<content> read_sampling_contents(const json::value& value, const std::string& peer) {
    std::vector<content> contents;
    const auto read_one = [&](const json::value& item) {
        if (!item.is_object()) malformed(peer, "sampling content that is not an object");
        const json::object& o = item.get_object();
        const std::string type = json_detail::string_member(o, "type");
        if (type == "text") {
            contents.emplace_back(text_content(json_detail::string_member(o, "text")));
        } else if (type == "image" || type == "audio") {
            try {
                contents.emplace_back(data_content::from_base64(json_detail::string_member(o, "data"), json_detail::string_member(o, "mimeType")));
            } catch (const error&) {
                malformed(peer, "sampled " + type + " that is not valid base64");
            }
        } else {
            json::object rest = o;
            rest.erase("type");
            contents.emplace_back(unknown_content(type.empty() ? std::string("mcp_content") : type, std::move(rest)));
        }
    };
    if (value.is_array()) {
        for (const json::value& item : value.get_array()) read_one(item);
    } else {
        read_one(value);
    }
    return contents;
}

chat_role role_of(const json::object& o, const std::string& peer) {
    const std::string role = json_detail::string_member(o, "role");
    if (role != "user" && role != "assistant") malformed(peer, "a sampling message whose role is neither user nor assistant");
    return chat_role(role);
}

} // namespace

json::object sampling_params(const sampling_request& request) {
    json::array messages;
    for (const chat_message& message : request.messages) {
        if (!mcp_role(message.role)) throw error("a sampling message is the user's or the assistant's; put instructions in system_prompt");
        for (const content& c : message.contents) {
            messages.push_back(json::object{{"role", message.role.value()}, {"content", sampling_content(c)}});
        }
    }
    json::object params{{"messages", std::move(messages)}, {"maxTokens", request.max_tokens}};
    if (!request.system_prompt.empty()) params["systemPrompt"] = json_detail::valid_utf8(request.system_prompt);
    if (request.temperature) params["temperature"] = *request.temperature;
    if (!request.stop_sequences.empty()) {
        json::array stops;
        for (const std::string& s : request.stop_sequences) stops.push_back(json::string(json_detail::valid_utf8(s)));
        params["stopSequences"] = std::move(stops);
    }
    if (!request.model_preferences.empty()) params["modelPreferences"] = request.model_preferences;
    return params;
}

sampling_request read_sampling_request(const json::object& params, const std::string& peer) {
    const json::value* messages = params.if_contains("messages");
    if (!messages || !messages->is_array()) malformed(peer, "a sampling request without a messages array");
    sampling_request request;
    for (const json::value& m : messages->get_array()) {
        if (!m.is_object() || !m.get_object().contains("content")) malformed(peer, "a sampling message without content");
        request.messages.emplace_back(role_of(m.get_object(), peer), read_sampling_contents(m.get_object().at("content"), peer));
    }
    const json::value* max_tokens = params.if_contains("maxTokens");
    if (!max_tokens || !max_tokens->is_int64() || max_tokens->get_int64() < 1) malformed(peer, "a sampling request without a positive maxTokens");
    request.max_tokens = static_cast<int>(std::min<std::int64_t>(max_tokens->get_int64(), 1 << 30));
    request.system_prompt = json_detail::valid_utf8(json_detail::string_member(params, "systemPrompt"));
    if (const json::value* t = params.if_contains("temperature"); t && t->is_number()) request.temperature = t->to_number<double>();
    if (const json::value* stops = params.if_contains("stopSequences"); stops && stops->is_array()) {
        for (const json::value& s : stops->get_array()) {
            if (s.is_string()) request.stop_sequences.push_back(json_detail::valid_utf8(s.get_string()));
        }
    }
    if (const json::value* p = params.if_contains("modelPreferences"); p && p->is_object()) request.model_preferences = p->get_object();
    return request;
}

json::object sampling_result_json(const sampling_result& result, bool several_contents) {
    json::array contents;
    for (const content& c : result.message.contents) {
        const auto* data = std::get_if<data_content>(&c);
        if (std::holds_alternative<text_content>(c) || (data && image_or_audio(*data))) contents.push_back(sampling_content(c));
    }
    if (contents.empty()) throw error("a sampling answer needs text, an image or audio");
    json::object out{{"role", result.message.role.value()}, {"model", json_detail::valid_utf8(result.model)}};
    if (contents.size() == 1 || !several_contents) {
        out["content"] = contents.front();
    } else {
        out["content"] = std::move(contents);
    }
    if (!result.stop_reason.empty()) out["stopReason"] = result.stop_reason;
    return out;
}

sampling_result read_sampling_result(const json::object& result, const std::string& peer) {
    const json::value* content = result.if_contains("content");
    if (!content) malformed(peer, "a sampling result without content");
    return sampling_result{.message = chat_message(role_of(result, peer), read_sampling_contents(*content, peer)),
                           .model = json_detail::string_member(result, "model"),
                           .stop_reason = json_detail::string_member(result, "stopReason")};
}

elicitation_request read_elicitation_request(const json::object& params, const std::string& peer) {
    const json::value* schema = params.if_contains("requestedSchema");
    if (!schema || !schema->is_object()) malformed(peer, "an elicitation request without a requestedSchema object");
    return {json_detail::valid_utf8(json_detail::string_member(params, "message")), schema->get_object()};
}

json::object elicitation_result_json(const elicitation_result& result, const json::object& requested_schema) {
    using kind = elicitation_result::kind;
    json::object out{{"action", result.action == kind::accept ? "accept" : result.action == kind::decline ? "decline" : "cancel"}};
    if (result.action != kind::accept) return out;
    json::object content = result.content;
    if (const json::value* properties = requested_schema.if_contains("properties"); properties && properties->is_object()) {
        for (const auto& [name, property] : properties->get_object()) {
            const json::value* fallback = property.is_object() ? property.get_object().if_contains("default") : nullptr;
            if (fallback && !content.contains(name)) content[name] = *fallback;
        }
    }
    out["content"] = std::move(content);
    return out;
}

elicitation_result read_elicitation_result(const json::object& result, const std::string& peer) {
    const std::string action = json_detail::string_member(result, "action");
    elicitation_result out;
    if (action == "accept") {
        out.action = elicitation_result::kind::accept;
    } else if (action == "decline") {
        out.action = elicitation_result::kind::decline;
    } else if (action == "cancel") {
        out.action = elicitation_result::kind::cancel;
    } else {
        malformed(peer, "an elicitation result whose action \"" + json_detail::valid_utf8(action) + "\" is none of accept, decline, cancel");
    }
    if (const json::value* content = result.if_contains("content"); content && content->is_object()) out.content = content->get_object();
    return out;
}

std::optional<log_level> log_level_named(std::string_view name) noexcept {
    for (std::size_t i = 0; i < level_names.size(); ++i) {
        if (level_names[i] == name) return static_cast<log_level>(i);
    }
    return std::nullopt;
}

} // namespace forma::mcp::detail
