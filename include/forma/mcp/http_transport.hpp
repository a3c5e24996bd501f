#pragma once

#include <forma/mcp/transport.hpp>
#include <forma/net/timeouts.hpp>
#include <forma/net/tls_trust.hpp>

#include <boost/asio/any_io_executor.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace forma::mcp {

/// An MCP server reached over the Streamable HTTP transport (MCP 2025-03-26 and later).
struct http_server {
    /// The MCP endpoint, e.g. "https://tools.example.com/mcp" or "http://127.0.0.1:3001/mcp".
    std::string url;
    /// Sent with every request, e.g. {"Authorization", "Bearer ..."}.
    std::vector<std::pair<std::string, std::string>> headers{};
    /// connect: per connection; idle: the wait for the head of each answer. A streamed
    /// answer may then stay silent as long as the call takes (client_options::request_timeout
    /// bounds it); `total` is not used.
    net::timeouts timeouts{};
    /// A message (a JSON body or one SSE event) longer than this is an mcp_error.
    std::size_t max_message_size = 16 * 1024 * 1024;
    /// After the handshake, listen for the server's own messages (an HTTP GET stream), e.g.
    /// notifications/tools/list_changed. A server without such a stream (405) is fine.
    bool listen = true;
    /// Which servers are trusted over TLS (extra anchors, verification, or a context of your own).
    net::tls_trust trust{};
};

/** Speaks to `server` by HTTP POST (answers as JSON or as an SSE stream) on `executor`,
    with the session id (`Mcp-Session-Id`) the server gives and the negotiated
    `MCP-Protocol-Version`; close() ends the session (HTTP DELETE). Connections are kept
    alive and reused. A connection that drops while an answer is awaited is an mcp_error.
    @throws forma::error for a URL that does not parse or a CA file that cannot be read.
*/
std::unique_ptr<transport> make_http_transport(boost::asio::any_io_executor executor, http_server server);

} // namespace forma::mcp
