#pragma once

#include <forma/mcp/content_block.hpp>
#include <forma/model/chat_message.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <functional>
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

/// elicitation/create: what the user did with the server's question.
struct elicitation_result {
    enum class kind { accept, decline, cancel };
    kind action = kind::cancel;
    /// The answer (accept only), an object fitting the requested schema.
    boost::json::object content{};
};

/** What a tool served over MCP can do while it runs, besides returning its result. Valid until
    the tool's awaitable completes; use it on the server's executor.
*/
class call_context {
public:
    virtual ~call_context() = default;

    /// The call's arguments (an object; empty when the client sent none).
    virtual const boost::json::object& arguments() const noexcept = 0;
    /// The capabilities the client declared in initialize (sampling, elicitation, roots, ...).
    virtual const boost::json::object& client_capabilities() const noexcept = 0;

    /// notifications/message to the client, when `level` is at or above the one it set
    /// (logging/setLevel; every level until it sets one).
    virtual void log(log_level level, boost::json::value data, std::string logger = {}) = 0;
    /// notifications/progress, when the client asked for progress (a progressToken); else nothing.
    virtual void report_progress(double value, std::optional<double> total = {}, std::string message = {}) = 0;

    /** Asks the client's model (sampling/createMessage) and waits for its answer.
        @throws mcp_error when the client did not declare sampling, refused (its JSON-RPC error),
        answered with no message, or did not answer within server_options::client_request_timeout.
    */
    virtual boost::asio::awaitable<sampling_result> create_message(sampling_request request) = 0;
    /** Asks the client's user (elicitation/create): `message`, and the answer's JSON Schema (an
        object of flat properties: strings, numbers, booleans, enums; defaults allowed).
        @throws mcp_error as create_message.
    */
    virtual boost::asio::awaitable<elicitation_result> elicit(std::string message, boost::json::object requested_schema) = 0;
};

/// What a served tool returns: tools/call's result.
struct tool_result {
    std::vector<content_block> content{};
    /// structuredContent, for a tool with an output schema.
    std::optional<boost::json::value> structured_content{};
    /// The tool failed; content says why, for the model to read.
    bool is_error = false;
};

/** A tool served over MCP that speaks MCP's own content (images, audio, resources) and reaches
    the client while it runs (logs, progress, sampling, elicitation). A function_tool (make_tool,
    as_tool) is served too, with a JSON result; this is for what a function_tool cannot say.
    An exception from `invoke` is a result with isError and the exception's message.
*/
struct server_tool {
    std::string name;
    std::string description{};
    /// The JSON Schema of the arguments (`"type": "object"`).
    boost::json::object input_schema{{"type", "object"}};
    std::optional<boost::json::object> output_schema{};
    std::string title{};
    std::function<boost::asio::awaitable<tool_result>(call_context& call)> invoke;
};

} // namespace forma::mcp
