#pragma once

#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>

namespace forma::mcp {

/** How an mcp::client exchanges JSON-RPC messages with one server: each send and receive
    is one whole message (a JSON text). Operations run on the client's executor, one
    receive and one send at a time.
*/
class transport {
public:
    virtual ~transport();

    /// Starts the server or connects to it. @throws mcp_error when it cannot.
    virtual boost::asio::awaitable<void> start() = 0;
    /// Sends one message. @throws mcp_error when the server is gone; request_error when
    /// only this message's request failed.
    virtual boost::asio::awaitable<void> send(std::string message) = 0;
    /// The next message from the server; nullopt once the server has closed its side.
    /// @throws mcp_error on a broken connection or a message past the size limit;
    /// request_error for one request whose answer cannot come (the connection is fine).
    virtual boost::asio::awaitable<std::optional<std::string>> receive() = 0;
    /// Ends the session and frees the server (for stdio: closes its input, waits a
    /// moment, then terminates it). Never throws; safe to call twice.
    virtual boost::asio::awaitable<void> close() = 0;

    /// The handshake agreed on `version`; a transport that says it on each request (HTTP) keeps it.
    virtual void use_protocol_version(const std::string& version) { (void)version; }

    /// The server for messages, e.g. `stdio server "node index.js"`.
    virtual std::string describe() const = 0;
    /// What the server said about its failure (a stdio server's last stderr lines); may be empty.
    virtual std::string diagnostics() const { return {}; }
};

} // namespace forma::mcp
