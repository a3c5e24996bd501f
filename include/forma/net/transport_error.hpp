#pragma once

#include <forma/error.hpp>

#include <boost/system/error_code.hpp>

#include <string>

namespace forma {

/// Where an HTTP exchange failed below the level of HTTP statuses.
enum class transport_error_kind {
    /// The host name did not resolve, or no address accepted a connection.
    connect,
    /// The TLS handshake failed: an untrusted certificate, a name mismatch, no common version.
    tls,
    /// A connect, idle or total timeout expired.
    timeout,
    /// The peer closed or reset the connection.
    closed,
    /// The peer's bytes are not HTTP/1.1.
    protocol,
    /// A response body grew past the configured limit.
    body_too_large,
};

/** An HTTP exchange failed: the server could not be reached, would not be
    trusted, went silent, closed the connection, or sent what is not HTTP.

    `what()` names the server (host and port, never the request's headers, so
    never an API key) and the cause, e.g. "no bytes from 127.0.0.1:8443 for
    500 ms (idle timeout)" or "TLS handshake with api.example.com:443 failed:
    certificate verify failed".
*/
class transport_error : public error {
public:
    /** @param before_response true when not one byte of a response had arrived,
        so the server cannot have answered (a request that is safe to repeat).
    */
    transport_error(transport_error_kind kind, const std::string& message,
                    boost::system::error_code code, bool before_response);
    ~transport_error() override;

    /// Where the exchange failed: connect, tls, timeout, closed, protocol or body_too_large.
    transport_error_kind kind() const noexcept { return kind_; }
    /// The underlying error (e.g. `asio::error::connection_refused`), or a default code.
    boost::system::error_code code() const noexcept { return code_; }
    /** True when not one byte of a response had arrived. When the connection broke while
        the request was still being sent, the client first reads what the server sent:
        an early answer (a 413 before the body was read) is that answer, and part of one
        makes this false. So false means the server answered, or began to.
    */
    bool before_response() const noexcept { return before_response_; }

private:
    transport_error_kind kind_;
    boost::system::error_code code_;
    bool before_response_;
};

} // namespace forma
