#pragma once

#include <forma/net/tls_trust.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace forma::redis {

/// Where a Redis server is and how to talk to it.
struct client_options {
    std::string host = "127.0.0.1";
    std::uint16_t port = 6379;
    /// With `password`, sent as AUTH (an ACL user); empty for the default user.
    std::string username{};
    /// Sent as AUTH on every new connection when not empty.
    std::string password{};
    /// Selected on every new connection when not 0.
    int database = 0;
    /// Set as CLIENT SETNAME on every new connection when not empty (seen in CLIENT LIST).
    std::string client_name = "forma";

    /// TLS (Redis 6+ with tls-port), trusting what `trust` says.
    bool tls = false;
    /// Which servers are trusted over TLS (extra anchors, verification, or a context of your own).
    net::tls_trust trust{};

    /// Resolving, connecting, the TLS handshake and AUTH/SELECT, together.
    std::chrono::milliseconds connect_timeout{std::chrono::seconds(5)};
    /** The longest wait for a command's reply, from when it is queued. When it expires the
        connection is closed (its other commands fail too: their replies could no longer be
        matched), and the next command opens a new one. Zero: no limit.
    */
    std::chrono::milliseconds command_timeout{std::chrono::seconds(5)};
    /** After a failed connect, the next attempt waits this long, doubled after each further
        failure up to reconnect_backoff_max; a success resets it. Commands issued meanwhile
        wait for that attempt (within their timeout) rather than hammer a server that is down.
    */
    std::chrono::milliseconds reconnect_backoff{std::chrono::milliseconds(100)};
    std::chrono::milliseconds reconnect_backoff_max{std::chrono::seconds(2)};
    /** The memory one reply may take while it is read: its bytes as they arrive and the values
        made of them, together (a string reply takes about twice its size as it is finished).
        Past it the connection closes (redis_error_kind::reply_too_large). It bounds the peak,
        within a read buffer: the memory grows with the bytes that arrive, never with the size
        a reply announces, and a count of elements that could not fit fails at once.
    */
    std::size_t max_reply_bytes = 512 * 1024 * 1024;

    /** Options from a URL: `redis://[[user]:password@]host[:port][/database]`, or `rediss://`
        for TLS. Percent-escapes in the user and password are decoded.
        @throws forma::error naming what is wrong with the URL.
    */
    static client_options from_url(std::string_view url);
};

} // namespace forma::redis
