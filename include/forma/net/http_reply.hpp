#pragma once

#include <boost/asio/awaitable.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace forma::net {

/// A whole HTTP response a route gives.
struct http_reply {
    unsigned status = 200;
    std::string content_type = "application/json";
    std::string body{};
    /// Further header fields (Content-Length, Transfer-Encoding and Connection are the server's).
    std::vector<std::pair<std::string, std::string>> headers{};
};

/** How a route answers: once with send(), or as a stream (start(), write()..., finish()),
    e.g. server-sent events. The server owns the connection; a writer lives for one request.

    Writes throw boost::system::system_error when the peer has gone or a write takes longer
    than the server's write timeout; a handler that lets it escape ends only its own request.

    A server that stops lets running requests go on for its grace time, then cancels their
    handlers (a terminal cancellation) with server_stopped() true. A stream's handler then gives
    its protocol's last event to set_last_event(), and the server writes it and the terminator
    once the handler has returned (within a second; then the connection closes). A request
    not answered yet gets a 503 in its route's error shape.
*/
class response_writer {
public:
    virtual ~response_writer() = default;

    /// Sends `reply` whole. Only before start().
    virtual boost::asio::awaitable<void> send(http_reply reply) = 0;
    /// Sends the head of a streamed response (chunked). `reply.body`, if any, is the first chunk.
    virtual boost::asio::awaitable<void> start(http_reply head) = 0;
    /// Sends one chunk of a started response; an empty one sends nothing.
    virtual boost::asio::awaitable<void> write(std::string_view bytes) = 0;
    /// Ends a started response.
    virtual boost::asio::awaitable<void> finish() = 0;

    /// Whether a head has been sent (by send() or start()).
    bool started() const noexcept { return started_; }

    /// Whether the server canceled this request because it stops (not because the client left).
    virtual bool server_stopped() const noexcept { return false; }

    /// What a stream the server stopped ends with (its protocol's last or error event), written
    /// by the server before the terminator once the handler has returned: the handler's own
    /// writes are canceled with it.
    void set_last_event(std::string bytes) { last_event_ = std::move(bytes); }

protected:
    bool started_ = false;
    std::string last_event_{};
};

/// The text of one server-sent event: an optional `event:` and `id:`, then `data` as `data:` lines.
std::string format_sse_event(std::string_view data, std::string_view event = {}, std::string_view id = {});

} // namespace forma::net
