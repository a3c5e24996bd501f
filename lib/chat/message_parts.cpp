#include "message_parts.hpp"

#include <forma/model/content.hpp>

#include <boost/json/object.hpp>

#include <type_traits>

namespace forma::telemetry::detail {

namespace {

// "image/png" -> "image": the conventions' modality of a blob or uri part.
std::string_view modality(std::string_view media_type) {
    const auto type = media_type.substr(0, media_type.find('/'));
    if (type == "image" || type == "video" || type == "audio") return type;
    return "document";
}

// A content as a part; nullopt for usage, which is no part of a message.
std::optional<boost::json::object> part(const content& c) {
    return std::visit(
        [](const auto& v) -> std::optional<boost::json::object> {
            using C = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<C, text_content>) {
                return boost::json::object{{"type", "text"}, {"content", v.text}};
            } else if constexpr (std::is_same_v<C, text_reasoning_content>) {
                return boost::json::object{{"type", "reasoning"}, {"content", v.text}};
            } else if constexpr (std::is_same_v<C, function_call_content>) {
                return boost::json::object{{"type", "tool_call"}, {"id", v.call_id}, {"name", v.name},
                                           {"arguments", v.arguments}};
            } else if constexpr (std::is_same_v<C, function_result_content>) {
                return boost::json::object{{"type", "tool_call_response"}, {"id", v.call_id}, {"response", v.result}};
            } else if constexpr (std::is_same_v<C, uri_content>) {
                return boost::json::object{{"type", "uri"}, {"modality", modality(v.media_type)}, {"uri", v.uri},
                                           {"mime_type", v.media_type}};
            } else if constexpr (std::is_same_v<C, data_content>) {
                return boost::json::object{{"type", "blob"}, {"modality", modality(v.media_type)},
                                           {"mime_type", v.media_type}, {"content", v.base64()}};
            } else if constexpr (std::is_same_v<C, refusal_content>) {
                return boost::json::object{{"type", "refusal"}, {"content", v.refusal}};
            } else if constexpr (std::is_same_v<C, function_approval_request_content>) {
                return boost::json::object{{"type", "function_approval_request"}, {"id", v.id},
                                           {"name", v.call.name}, {"arguments", v.call.arguments}};
            } else if constexpr (std::is_same_v<C, function_approval_response_content>) {
                return boost::json::object{{"type", "function_approval_response"}, {"id", v.id},
                                           {"approved", v.approved}};
            } else if constexpr (std::is_same_v<C, output_errors_content>) {
                return boost::json::object{{"type", "text"}, {"content", correction_text(v)}}; // as the model read it
            } else if constexpr (std::is_same_v<C, error_content>) {
                return boost::json::object{{"type", "error"}, {"content", v.message}};
            } else if constexpr (std::is_same_v<C, handoff_content>) {
                return boost::json::object{{"type", "handoff"}, {"from", v.from}, {"to", v.to}, {"reason", v.reason}};
            } else if constexpr (std::is_same_v<C, unknown_content>) {
                return boost::json::object{{"type", v.kind}};
            } else {
                return std::nullopt;
            }
        },
        c);
}

boost::json::object message_object(const chat_message& message) {
    boost::json::array parts;
    for (const auto& c : message.contents)
        if (auto p = part(c)) parts.push_back(std::move(*p));
    boost::json::object out{{"role", message.role.value()}, {"parts", std::move(parts)}};
    if (!message.author_name.empty()) out["name"] = message.author_name;
    return out;
}

// The conventions' spelling: OpenAI's "tool_calls" is "tool_call".
std::string_view convention_finish_reason(const std::optional<finish_reason>& reason) {
    if (!reason) return "stop";
    if (*reason == finish_reason::tool_calls()) return "tool_call";
    return reason->value();
}

} // namespace

boost::json::array instruction_parts(std::string_view instructions) {
    return boost::json::array{boost::json::object{{"type", "text"}, {"content", instructions}}};
}

boost::json::array message_list(const std::vector<chat_message>& messages) {
    boost::json::array out;
    out.reserve(messages.size());
    for (const auto& m : messages) out.push_back(message_object(m));
    return out;
}

boost::json::array output_message_list(const std::vector<chat_message>& messages,
                                       const std::optional<finish_reason>& reason) {
    boost::json::array out;
    out.reserve(messages.size());
    for (const auto& m : messages) {
        auto message = message_object(m);
        message["finish_reason"] = convention_finish_reason(reason);
        out.push_back(std::move(message));
    }
    return out;
}

} // namespace forma::telemetry::detail
