#pragma once
// One MCP client's session with forma::mcp::server, whatever carries it (stdio, Streamable
// HTTP): the handshake, tools/list, tools/call with progress and cancellation, ping.

#include <forma/chat/function_tool.hpp>
#include <forma/mcp/server.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/json/value.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace forma::mcp::detail {

/// What a server serves: its tools and options, shared by its sessions.
struct server_catalog {
    boost::asio::any_io_executor executor;
    std::vector<function_tool> tools;
    server_options options;
};

class server_session {
public:
    /// Sends one message (a notification, during a call) to the client.
    using notify_function = std::function<void(std::string message)>;

    explicit server_session(std::shared_ptr<const server_catalog> catalog) : catalog_(std::move(catalog)) {}

    /** Handles one message from the client. A request gets its answer as the returned text
        (nullopt when it was canceled); a notification or a response returns nullopt at once.
        `notify` carries notifications sent while a call runs.
    */
    boost::asio::awaitable<std::optional<std::string>> handle(const boost::json::value& message, notify_function notify);

    /// Whether a request for progress notifications came with the message (a tools/call with a progressToken).
    static bool wants_progress(const boost::json::value& message);

    bool initialized() const noexcept { return !protocol_version_.empty(); }
    const std::string& protocol_version() const noexcept { return protocol_version_; }
    /// Cancels every running call (the transport ended).
    void cancel_all();

private:
    boost::asio::awaitable<boost::json::value> call_tool(const boost::json::value& id, const boost::json::object& params,
                                                         notify_function notify);

    std::shared_ptr<const server_catalog> catalog_;
    std::string protocol_version_;
    std::map<std::string, std::shared_ptr<boost::asio::cancellation_signal>> calls_; // serialized request id -> its stop
};

/// Whether forma speaks MCP `version`.
bool supported_protocol_version(std::string_view version) noexcept;

} // namespace forma::mcp::detail
