#pragma once
// What an MCP server and client ask each other besides tools: logs, sampling (the client's
// model answers the server) and elicitation (the client's user answers the server).

#include <forma/model/chat_message.hpp>

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma::mcp {

/// MCP's log levels (RFC 5424's), least severe first.
enum class log_level { debug, info, notice, warning, error, critical, alert, emergency };

/// The level's name on the wire, e.g. "warning".
std::string_view to_string(log_level level) noexcept;

/// sampling/createMessage: the server asks the client's model for one message.
struct sampling_request {
    /// User and assistant messages of text, images (data_content image/*) and audio.
    std::vector<chat_message> messages;
    std::string system_prompt{};
    int max_tokens = 1000;
    std::optional<double> temperature{};
    std::vector<std::string> stop_sequences{};
    /// modelPreferences as MCP defines it (hints, costPriority, ...); sent when not empty.
    boost::json::object model_preferences{};
};

struct sampling_result {
    /// The client's answer: role (usually assistant) and one content.
    chat_message message;
    /// The model that answered.
    std::string model;
    /// e.g. "endTurn", "maxTokens"; may be empty.
    std::string stop_reason;
};

/// elicitation/create: the server asks the client's user.
struct elicitation_request {
    std::string message;
    /// The answer's JSON Schema: an object of flat properties (strings, numbers, booleans,
    /// enums), each with an optional default.
    boost::json::object requested_schema;
};

/// elicitation/create: what the user did with the server's question.
struct elicitation_result {
    enum class kind { accept, decline, cancel };
    kind action = kind::cancel;
    /// The answer (accept only), an object fitting the requested schema.
    boost::json::object content{};
};

} // namespace forma::mcp
