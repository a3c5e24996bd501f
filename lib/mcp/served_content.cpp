#include "served_content.hpp"

#include <forma/error.hpp>
#include <forma/mcp/mcp_error.hpp>

#include "../json/json_members.hpp"
#include "../json/json_text.hpp"

#include <array>

namespace forma::mcp::detail {

namespace {

namespace json = boost::json;

bool is_audio(const data_content& data) { return data.media_type.rfind("audio/", 0) == 0; }

json::object binary_json(const data_content& data) {
    return {{"type", is_audio(data) ? "audio" : "image"}, {"data", data.base64()}, {"mimeType", data.media_type}};
}

// One sampling message per content: MCP's SamplingMessage holds text, image or audio.
json::object sampling_content(const content& c) {
    if (const auto* text = std::get_if<text_content>(&c)) return {{"type", "text"}, {"text", json_detail::valid_utf8(text->text)}};
    if (const auto* data = std::get_if<data_content>(&c)) return binary_json(*data);
    throw error("a sampling message holds text, images and audio only");
}

[[noreturn]] void malformed(const std::string& client, const std::string& what) {
    throw mcp_error(client + " answered with " + what, client);
}

} // namespace

json::object resource_contents_json(const resource_contents& contents) {
    json::object out{{"uri", json_detail::valid_utf8(contents.uri)}};
    if (!contents.mime_type.empty()) out["mimeType"] = contents.mime_type;
    if (const auto* text = std::get_if<std::string>(&contents.data)) {
        out["text"] = json_detail::valid_utf8(*text);
    } else {
        out["blob"] = data_content(std::get<std::vector<std::byte>>(contents.data), contents.mime_type).base64();
    }
    return out;
}

json::object content_block_json(const content_block& block) {
    if (const auto* text = std::get_if<text_content>(&block)) return {{"type", "text"}, {"text", json_detail::valid_utf8(text->text)}};
    if (const auto* data = std::get_if<data_content>(&block)) return binary_json(*data);
    if (const auto* link = std::get_if<uri_content>(&block)) {
        json::object out{{"type", "resource_link"}, {"uri", json_detail::valid_utf8(link->uri)}, {"name", json_detail::valid_utf8(link->uri)}};
        if (!link->media_type.empty()) out["mimeType"] = link->media_type;
        return out;
    }
    return {{"type", "resource"}, {"resource", resource_contents_json(std::get<resource_contents>(block))}};
}

json::object sampling_params(const sampling_request& request) {
    json::array messages;
    for (const chat_message& message : request.messages) {
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

sampling_result read_sampling_result(const json::object& result, const std::string& client) {
    const std::string role = json_detail::string_member(result, "role");
    if (role.empty()) malformed(client, "a sampling result without a role");
    const json::value* content = result.if_contains("content");
    if (!content) malformed(client, "a sampling result without content");
    // 2025-11-25 allows an array of contents where older revisions give one.
    std::vector<forma::content> contents;
    const auto read_one = [&](const json::value& item) {
        if (!item.is_object()) malformed(client, "a sampling result whose content is not an object");
        const json::object& o = item.get_object();
        const std::string type = json_detail::string_member(o, "type");
        if (type == "text") {
            contents.emplace_back(text_content(json_detail::string_member(o, "text")));
        } else if (type == "image" || type == "audio") {
            try {
                contents.emplace_back(data_content::from_base64(json_detail::string_member(o, "data"), json_detail::string_member(o, "mimeType")));
            } catch (const error&) {
                malformed(client, "sampled " + type + " that is not valid base64");
            }
        } else {
            json::object rest = o;
            rest.erase("type");
            contents.emplace_back(unknown_content(type.empty() ? std::string("mcp_content") : type, std::move(rest)));
        }
    };
    if (content->is_array()) {
        for (const json::value& item : content->get_array()) read_one(item);
    } else {
        read_one(*content);
    }
    sampling_result out{.message = chat_message(chat_role(role), std::move(contents)),
                        .model = json_detail::string_member(result, "model"),
                        .stop_reason = json_detail::string_member(result, "stopReason")};
    return out;
}

elicitation_result read_elicitation_result(const json::object& result, const std::string& client) {
    const std::string action = json_detail::string_member(result, "action");
    elicitation_result out;
    if (action == "accept") {
        out.action = elicitation_result::kind::accept;
    } else if (action == "decline") {
        out.action = elicitation_result::kind::decline;
    } else if (action == "cancel") {
        out.action = elicitation_result::kind::cancel;
    } else {
        malformed(client, "an elicitation result whose action \"" + json_detail::valid_utf8(action) + "\" is none of accept, decline, cancel");
    }
    if (const json::value* content = result.if_contains("content"); content && content->is_object()) out.content = content->get_object();
    return out;
}

} // namespace forma::mcp::detail

namespace forma::mcp {

namespace {
constexpr std::array<std::string_view, 8> level_names{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};
}

std::string_view to_string(log_level level) noexcept { return level_names[static_cast<std::size_t>(level)]; }

std::optional<log_level> detail::log_level_named(std::string_view name) noexcept {
    for (std::size_t i = 0; i < level_names.size(); ++i) {
        if (level_names[i] == name) return static_cast<log_level>(i);
    }
    return std::nullopt;
}

} // namespace forma::mcp
