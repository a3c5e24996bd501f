#pragma once

#include <forma/error.hpp>

#include <boost/system/error_code.hpp>

#include <string>

namespace forma::redis {

/// What went wrong between forma and a Redis server.
enum class redis_error_kind {
    /// The host name did not resolve, or no address accepted a connection.
    connect,
    /// The TLS handshake failed: an untrusted certificate, a name mismatch, no common version.
    tls,
    /// The server refused the credentials (AUTH), or wants some (NOAUTH).
    auth,
    /// The connect timeout or a command's timeout expired.
    timeout,
    /// The connection closed or broke, or the client was closed.
    closed,
    /// The server's bytes are not RESP, or a reply came for no command.
    protocol,
    /// A reply grew past client_options::max_reply_bytes.
    reply_too_large,
    /// The server answered the command with an error reply (e.g. WRONGTYPE).
    server,
    /// A key holds data that is not what forma stored there (e.g. a session key holding a list).
    foreign_data,
};

/** A Redis command failed. `what()` names the server (host and port, never a password) and
    the cause, e.g. "redis at 127.0.0.1:6379 closed the connection before it answered GET
    (the command may have run)".
*/
class redis_error : public error {
public:
    redis_error(redis_error_kind kind, const std::string& message, bool may_have_run = false,
                boost::system::error_code code = {});
    ~redis_error() override;

    redis_error_kind kind() const noexcept { return kind_; }
    /** Whether the server may have run the command: it was sent and its answer was lost (a
        broken connection, a timeout). False when it was never sent, or when the server
        answered (an error reply ran nothing). (A cancelled command ends in
        boost::system::system_error, operation_aborted, not in a redis_error.)
    */
    bool may_have_run() const noexcept { return may_have_run_; }
    /// The underlying I/O error (e.g. `asio::error::connection_refused`), or a default code.
    boost::system::error_code code() const noexcept { return code_; }

private:
    redis_error_kind kind_;
    bool may_have_run_;
    boost::system::error_code code_;
};

} // namespace forma::redis
