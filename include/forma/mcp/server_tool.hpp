#pragma once

#include <forma/mcp/content_block.hpp>
#include <forma/mcp/sampling.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma::mcp {

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
