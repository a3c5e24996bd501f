#pragma once

#include <forma/net/origin_policy.hpp>
#include <forma/net/server_request.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace boost::asio::ssl {
class context;
} // namespace boost::asio::ssl

namespace forma::net {

/// A refusal of an authentication hook: the status (401 or 403), why, and headers such as WWW-Authenticate.
struct access_denied {
    unsigned status = 401;
    std::string message = "this server needs credentials";
    std::vector<std::pair<std::string, std::string>> headers{};
};

/** What an authentication hook decides on a request's head: let in, as a named caller or
    without a name, or refused. A hook written to return std::optional<access_denied> (nullopt:
    let in) converts to it.

    The caller's name scopes what its requests reach: a server keeps the tasks a caller starts
    (A2A tasks, stored Responses, paused AG-UI runs, MCP sessions) for that caller alone, so
    give each user or client its own name.
*/
struct authentication {
    /// Set: the request is refused with it.
    std::optional<access_denied> denied{};
    /// Who was let in (server_request::caller); empty: a caller without a name.
    std::string caller{};

    authentication() = default;
    authentication(std::nullopt_t) noexcept {}
    authentication(access_denied refusal) : denied(std::move(refusal)) {}
    authentication(std::optional<access_denied> refusal) : denied(std::move(refusal)) {}

    /// Lets the request in as `caller`.
    static authentication let_in(std::string caller) {
        authentication a;
        a.caller = std::move(caller);
        return a;
    }
};

/// Decides on a request's head, before its body is read.
using authenticator = std::function<authentication(const server_request& head)>;

/** Lets in requests with `Authorization: Bearer <token>` (compared in constant time), as the
    caller "bearer" (one token, one caller), and every request whose path is one of
    `public_paths`, without a name (an A2A agent card must be readable to be found).
*/
authenticator bearer_token(std::string token, std::vector<std::string> public_paths = {"/.well-known/agent-card.json"});

/// The certificate a TLS server shows: PEM text, or a context of your own.
struct tls_identity {
    /// The certificate chain, leaf first, and its private key (PEM).
    std::string certificate_chain{};
    std::string private_key{};
    /// A context set up by the caller (client certificates, ciphers): used as it is.
    std::shared_ptr<boost::asio::ssl::context> context{};
};

/** What an http_server allows. A limit that is passed is answered in the route's error shape
    with its status (413, 431, 408, 503) and the connection is closed; nothing hangs.

    A connection carries one request at a time (HTTP/1.1: a pipelined request is read once the
    one before it is answered), so concurrency is bounded by `max_connections`.
*/
struct server_options {
    /// The longest request head (request line and fields), 431 past it.
    std::size_t max_header_size = 16 * 1024;
    /// The longest body, 413 past it (told by Content-Length before any is read).
    std::size_t max_body_size = 4 * 1024 * 1024;
    /// Open connections; one more is answered 503 and closed.
    std::size_t max_connections = 10'000;
    /// Requests being handled at once over all connections; one more is answered 503.
    std::size_t max_requests = 4'096;
    /// The head of a connection's first request must be whole within this of its accept
    /// (a client that sends one byte a second is cut off: 408).
    std::chrono::milliseconds header_timeout{std::chrono::seconds(10)};
    /// A kept-alive connection closes when the next request's head is not whole within this.
    std::chrono::milliseconds idle_timeout{std::chrono::seconds(60)};
    /// The body must be whole within this of the head: 408 past it.
    std::chrono::milliseconds body_timeout{std::chrono::seconds(30)};
    /// The longest one write to the peer may take (a stream to a reader that stopped reading ends).
    std::chrono::milliseconds write_timeout{std::chrono::seconds(30)};
    /// stop(): how long running requests (streams included) may go on before they are canceled
    /// (a stream then ends with its protocol's last event; see response_writer).
    std::chrono::milliseconds shutdown_grace{std::chrono::seconds(10)};
    /// TLS, when set; plain HTTP otherwise.
    std::optional<tls_identity> tls{};
    /// The Host and Origin answered (DNS rebinding, other sites' pages): by default, a server
    /// reached on a loopback address answers loopback names only. Checked after `authenticate`.
    origin_policy origins{};
    /// Runs on every request's head before its body is read; none lets every request in.
    authenticator authenticate{};
};

} // namespace forma::net
