#pragma once
// One accepted connection of http_server: reading each request within the limits, answering it
// by the routes, and closing. Private to lib/net.

#include <forma/net/http_routes.hpp>
#include <forma/net/server_options.hpp>

#include "../text/ascii.hpp"
#include "origin_check.hpp"
#include "server_request_parser.hpp"
#include "server_writer.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

namespace forma::net::detail {

struct server_counters {
    std::size_t connections = 0;
    std::size_t requests = 0;
};

/// "address:port" of the socket's peer, or "" when it is gone.
inline std::string peer_address(const boost::asio::ip::tcp::socket& socket) {
    boost::system::error_code ec;
    const auto peer = socket.remote_endpoint(ec);
    return ec ? std::string() : peer.address().to_string() + ":" + std::to_string(peer.port());
}

/// "address:port" of the socket's own end (the address a client reached), or "" when unknown.
inline std::string local_address(const boost::asio::ip::tcp::socket& socket) {
    boost::system::error_code ec;
    const auto local = socket.local_endpoint(ec);
    if (ec) return {};
    const std::string address = local.address().to_string();
    return (local.address().is_v6() ? "[" + address + "]" : address) + ":" + std::to_string(local.port());
}

class server_connection : public std::enable_shared_from_this<server_connection> {
public:
    explicit server_connection(boost::asio::ip::tcp::socket s)
        : socket(std::move(s)), timer_(socket.get_executor()), reading_watch_ended_(socket.get_executor()) {}

    /// The socket is closed when `d` passes (zero: no limit) unless disarm() comes first.
    void arm(std::chrono::milliseconds d) {
        if (d.count() <= 0) return disarm();
        timed_out_ = false;
        timer_.expires_after(d);
        timer_.async_wait([self = shared_from_this(), armed = ++armings_](boost::system::error_code ec) {
            // A wait that ended as it was disarmed (its completion already queued) is not a timeout.
            if (ec || armed != self->armings_) return;
            // Ends the read or write that waits; the connection may still answer (408) before it closes.
            self->timed_out_ = true;
            boost::system::error_code ignored;
            self->socket.cancel(ignored);
        });
    }
    void disarm() {
        ++armings_;
        timer_.cancel();
    }

    void close() noexcept {
        boost::system::error_code ignored;
        socket.close(ignored);
        timer_.cancel();
    }
    bool closed() const noexcept { return !socket.is_open(); }
    /// A request is being handled (its body read, its handler running).
    bool busy() const noexcept { return busy_; }
    /// Cancels the running handler (terminal cancellation) as the server stops: it may still
    /// end its stream (stopped() tells it why it was canceled) until the server closes the connection.
    void cancel_request() {
        stopped_ = true;
        if (handling_) cancel_.emit(boost::asio::cancellation_type::terminal);
    }
    /** The slot the connection's coroutine is bound to: cancel_ cancels what it awaits, and is
        emitted only while that is a handler (the server stops, the client left). The coroutine's
        cancellation state lives in the signal: it must outlive the coroutine's thread.
    */
    boost::asio::cancellation_slot handler_cancellation_slot() { return cancel_.slot(); }
    bool stopped() const noexcept { return stopped_; }

    /// Answers a connection that is not served (too many): the routes' default error shape, then close.
    boost::asio::awaitable<void> refuse(const http_routes& routes, unsigned status, std::string message) {
        http_reply reply = (*routes.find("", "").shape)(status, message);
        reply.headers.emplace_back("Retry-After", "1");
        server_writer<boost::asio::ip::tcp::socket, server_connection> writer(socket, *this, std::chrono::seconds(5), false);
        try {
            co_await writer.send(std::move(reply));
        } catch (const boost::system::system_error&) {
        }
    }

    /// Reads and answers requests on `stream` until one ends the connection.
    template <class Stream>
    boost::asio::awaitable<void> serve_requests(Stream& stream, const http_routes& routes, const server_options& options,
                                                server_counters& counters, const bool& stopping) {
        namespace http = boost::beast::http;
        namespace asio = boost::asio;
        using boost::system::error_code;
        constexpr bool secure = !std::is_same_v<Stream, asio::ip::tcp::socket>;
        bool first = true;
        bool first_request = true;
        // Every byte read waits in this buffer until the parser takes it: a head, a chunk-size line
        // with its extensions, a trailer must each fit in max_header_size (Beast bounds neither of
        // the last two); a body goes on into its string, bounded by max_body_size.
        buffer_.max_size(std::max<std::size_t>(options.max_header_size, 1024));
        for (;;) {
            std::optional<server_request_parser> parsing(std::in_place, request_);
            auto& parser = *parsing;
            parser.header_limit(static_cast<std::uint32_t>(std::min<std::size_t>(options.max_header_size, UINT32_MAX)));
            parser.body_limit(boost::none); // the body's limit is checked below, where the route words the error
            error_code ec;
            arm(first ? options.header_timeout : options.idle_timeout);
            co_await http::async_read_header(stream, buffer_, parser, asio::redirect_error(asio::use_awaitable, ec));
            disarm();
            first = false;
            if (ec) {
                const error_shape& shape = shape_of_partial_head(routes, parser.head());
                // A client that leaves between requests is no error; one that sent part of a head is answered.
                if (timed_out_ && parser.got_some()) {
                    co_await answer(stream, shape(408, "the request head did not arrive within the server's time"), options);
                } else if (ec == http::error::header_limit || ec == http::error::buffer_overflow) {
                    co_await answer(stream, shape(431, "the request head is longer than the server's limit of " +
                                                          std::to_string(options.max_header_size) + " bytes"), options);
                } else if (!timed_out_ && ec.category() == http::make_error_code(http::error::bad_target).category() && ec != http::error::end_of_stream &&
                           ec != http::error::partial_message) {
                    co_await answer(stream, shape(400, "the request is not HTTP/1.1: " + ec.message()), options);
                }
                co_return;
            }
            if (first_request) { // asked once per connection, not per request
                peer_ = peer_address(socket);
                local_ = local_address(socket);
            }
            first_request = false;
            server_request& request = parser.head();
            request.remote_address = peer_;
            request.local_address = local_;
            request.secure = secure;
            busy_ = true; // from here on, stop() lets the request finish
            const http_routes::match route = routes.find(request.method, request.path);
            const error_shape& route_shape = *route.shape;
            if (stopping) {
                co_await answer(stream, with_retry(route_shape(503, "the server is shutting down")), options, request.method == "HEAD");
                co_return;
            }
            if (options.authenticate) {
                authentication decided = options.authenticate(request);
                if (const std::optional<access_denied>& denied = decided.denied) {
                    http_reply reply = route_shape(denied->status, denied->message);
                    reply.headers.insert(reply.headers.end(), denied->headers.begin(), denied->headers.end());
                    co_await answer(stream, std::move(reply), options, request.method == "HEAD");
                    co_return;
                }
                request.caller = std::move(decided.caller);
            }
            if (std::optional<std::string> refused = origins_.refusal(request, options.origins)) {
                co_await answer(stream, route_shape(403, *refused), options, request.method == "HEAD");
                co_return;
            }
            if (const auto length = parser.content_length(); length && *length > options.max_body_size) {
                co_await answer(stream, route_shape(413, "the request body of " + std::to_string(*length) +
                                                             " bytes is longer than the server's limit of " +
                                                             std::to_string(options.max_body_size) + " bytes"), options, request.method == "HEAD");
                co_return;
            }
            if (counters.requests >= options.max_requests) {
                co_await answer(stream, with_retry(route_shape(503, "the server is handling as many requests as it may; try again later")), options, request.method == "HEAD");
                co_return;
            }
            if (const std::string* expect = request.header("Expect"); expect && text_detail::iequals(*expect, "100-continue")) {
                static constexpr std::string_view go_on = "HTTP/1.1 100 Continue\r\n\r\n";
                co_await asio::async_write(stream, asio::buffer(go_on.data(), go_on.size()), asio::redirect_error(asio::use_awaitable, ec));
                if (ec) co_return;
            }
            parser.body_limit(options.max_body_size);
            parser.eager(true);
            // A body that came with its head (a small POST's does) is parsed from the buffer: no read to wait on.
            while (!parser.is_done() && buffer_.size() > 0) {
                const std::size_t used = parser.put(buffer_.data(), ec);
                buffer_.consume(used);
                if (ec == http::error::need_more) ec = {};
                if (ec || used == 0) break;
            }
            if (!ec && !parser.is_done()) {
                arm(options.body_timeout);
                co_await http::async_read(stream, buffer_, parser, asio::redirect_error(asio::use_awaitable, ec));
                disarm();
            }
            if (ec) {
                if (timed_out_) {
                    co_await answer(stream, route_shape(408, "the request body did not arrive within the server's time"), options, request.method == "HEAD");
                } else if (ec == http::error::body_limit) {
                    co_await answer(stream, route_shape(413, "the request body is longer than the server's limit of " +
                                                                 std::to_string(options.max_body_size) + " bytes"), options, request.method == "HEAD");
                } else if (ec == http::error::buffer_overflow) {
                    co_await answer(stream, route_shape(400, "a chunk-size line or the trailer of the request body is longer than the server's limit of " +
                                                                 std::to_string(buffer_.max_size()) + " bytes"), options, request.method == "HEAD");
                } else if (ec.category() == http::make_error_code(http::error::bad_target).category() && ec != http::error::partial_message) {
                    co_await answer(stream, route_shape(400, "the request is not HTTP/1.1: " + ec.message()), options, request.method == "HEAD");
                }
                co_return;
            }
            const bool keep_alive = parser.keep_alive();
            // What a long stream holds is its handler's: the parser's fields and the read buffer go.
            parsing.reset();
            if (buffer_.size() == 0) buffer_.shrink_to_fit();

            ++counters.requests;
            server_writer<Stream, server_connection> writer(stream, *this, options.write_timeout, keep_alive && !stopping,
                                                            request.method == "HEAD");
            // The handler runs beside a watch of the socket: a client that leaves (or resets) ends it
            // at once, its run canceled as the route decides, not at the stream's next write.
            watch_peer(stream);
            handling_ = true;
            std::exception_ptr handler_failure;
            try {
                co_await routes.handle(request, writer);
                busy_ = false; // answered: from here on stop() closes the connection as an idle one
            } catch (...) {
                handler_failure = std::current_exception();
            }
            handling_ = false;
            ++requests_handled_;
            stop_peeking();
            const asio::cancellation_state state = co_await asio::this_coro::cancellation_state;
            if (state.cancelled() != asio::cancellation_type::none)
                co_await asio::this_coro::reset_cancellation_state(); // what follows still writes and reads
            co_await end_reading_watch();
            // A stream the server stopped ends with its handler's last event and the terminator.
            if (stopped_ && writer.started() && !writer.complete()) co_await writer.end_stopped_stream();
            // The peer left, a write failed, or the handler failed mid-stream: the response is cut.
            const bool failed = peer_left_ || handler_failure;
            --counters.requests;
            busy_ = false;
            if (failed || !writer.complete() || !writer.keep_alive() || stopping || closed()) co_return;
        }
    }

    /** Watches the socket while a handler runs. Most requests end before their client sends
        anything more, so all they pay is one peek that waits (a speculative receive with
        MSG_PEEK, taking no byte): it completes when the peer sends or leaves. The end of input
        or a reset ends the handler; bytes (the next request, pipelined, or a TLS record such as
        close_notify) start read_while_handled, which reads them through the stream.
    */
    template <class Stream>
    void watch_peer(Stream& stream) {
        if (peer_done_sending_) return; // it closed its side after what it sent: it waits for the answers
        peeking_ = true;
        socket.async_receive(boost::asio::buffer(&peeked_, 1), boost::asio::socket_base::message_peek,
                             [self = shared_from_this(), &stream, request = requests_handled_](boost::system::error_code ec, std::size_t) {
                                 if (request != self->requests_handled_) return; // its request ended first
                                 self->peeking_ = false;
                                 if (ec == boost::asio::error::operation_aborted) return; // a timeout ends the connection
                                 if (ec) return self->peer_left();
                                 self->read_while_handled(stream);
                             });
    }

    /// Cancels the peek when it still waits as its request ends: Asio reads no further in a round
    /// once a read comes back short, so a peek's end of input would leave the next read waiting.
    void stop_peeking() {
        if (!peeking_) return;
        peeking_ = false;
        boost::system::error_code ignored;
        socket.cancel(ignored);
    }

    void peer_left() {
        if (!handling_) return;
        peer_left_ = true;
        cancel_.emit(boost::asio::cancellation_type::terminal);
    }

    /// The watch once the peer has sent something while its request runs: reads it into the buffer
    /// (the next request waits there) and goes on until the peer leaves, or the request ends.
    template <class Stream>
    void read_while_handled(Stream& stream) {
        reading_watch_ = true;
        boost::asio::co_spawn(socket.get_executor(), read_until_peer_leaves(stream),
                              boost::asio::bind_cancellation_slot(
                                  reading_watch_cancel_.slot(), [self = shared_from_this(), request = requests_handled_](std::exception_ptr) {
                                      self->reading_watch_ = false;
                                      self->reading_watch_ended_.cancel();
                                      // Ended by itself while its request runs: the peer left.
                                      if (request == self->requests_handled_) self->peer_left();
                                  }));
    }

    /// Cancels read_while_handled's watch when one runs, and waits for it: the next read is the loop's.
    boost::asio::awaitable<void> end_reading_watch() {
        if (!reading_watch_) co_return;
        reading_watch_cancel_.emit(boost::asio::cancellation_type::terminal);
        while (reading_watch_) {
            reading_watch_ended_.expires_at(boost::asio::steady_timer::time_point::max());
            boost::system::error_code ec;
            co_await reading_watch_ended_.async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, ec));
        }
    }

    /// Ends when the peer has left (end of stream, reset, a write that timed out). What it sends
    /// meanwhile (a pipelined request) waits in the read buffer for the next request; a peer that
    /// sent one and then closed its side waits for its answers. Holds no buffer while it waits.
    template <class Stream>
    boost::asio::awaitable<void> read_until_peer_leaves(Stream& stream) {
        namespace asio = boost::asio;
        boost::system::error_code ec;
        for (;;) {
            co_await socket.async_wait(asio::ip::tcp::socket::wait_read, asio::redirect_error(asio::use_awaitable, ec));
            if (ec) co_return;
            const std::size_t room = buffer_.max_size() - buffer_.size();
            if (room == 0) { // the handler's end reads what waits
                co_await until_canceled();
                co_return;
            }
            const std::size_t n = co_await stream.async_read_some(buffer_.prepare(std::min<std::size_t>(room, 4096)),
                                                                  asio::redirect_error(asio::use_awaitable, ec));
            buffer_.commit(n);
            const bool end_of_input = ec == asio::error::eof || ec == asio::ssl::error::stream_truncated;
            if (end_of_input && buffer_.size() > 0) { // a request came before the end: each is answered
                peer_done_sending_ = true;
                co_await until_canceled();
            }
            if (ec) co_return;
        }
    }

    boost::asio::awaitable<void> until_canceled() {
        boost::asio::steady_timer never(socket.get_executor(), boost::asio::steady_timer::time_point::max());
        boost::system::error_code ec;
        co_await never.async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, ec));
    }

    /// Stops sending, then reads what the peer still sends (at most a second) before closing:
    /// closing with unread input resets the connection, which can destroy an answer not yet read.
    boost::asio::awaitable<void> close_gracefully() {
        using boost::system::error_code;
        if (closed()) co_return;
        error_code ec;
        socket.shutdown(boost::asio::ip::tcp::socket::shutdown_send, ec);
        arm(std::chrono::seconds(1));
        char sink[1024];
        while (!ec) co_await socket.async_read_some(boost::asio::buffer(sink), boost::asio::redirect_error(boost::asio::use_awaitable, ec));
        close();
    }

    boost::asio::ip::tcp::socket socket;

private:
    /// The error shape of the route a head that could not be read was for, told by its request
    /// line ("POST /a2a HTTP/1.1", or as much of it as came), else the routes' default. The
    /// parser writes the line into the head once it has it whole; before that, it is in the buffer.
    const error_shape& shape_of_partial_head(const http_routes& routes, const server_request& parsed) const {
        const auto shape_for = [&](std::string_view method, std::string_view target) -> const error_shape& {
            std::string origin_target;
            assign_origin_form(origin_target, target);
            return *routes.find(method, std::string_view(origin_target).substr(0, origin_target.find('?'))).shape;
        };
        if (!parsed.target.empty()) return shape_for(parsed.method, parsed.target);
        const std::string_view read(static_cast<const char*>(buffer_.data().data()), buffer_.size());
        const std::string_view line = read.substr(0, read.find("\r\n")); // all of it when the line is too long to end
        const std::size_t method_end = line.find(' ');
        if (method_end == std::string_view::npos) return *routes.find("", "").shape;
        const std::size_t target_end = line.find(' ', method_end + 1);
        return shape_for(line.substr(0, method_end), line.substr(method_end + 1, target_end - method_end - 1));
    }

    static http_reply with_retry(http_reply reply) {
        reply.headers.emplace_back("Retry-After", "1");
        return reply;
    }

    // An answer after which the connection closes.
    template <class Stream>
    boost::asio::awaitable<void> answer(Stream& stream, http_reply reply, const server_options& options, bool head_only = false) {
        if (closed()) co_return;
        server_writer<Stream, server_connection> writer(stream, *this, options.write_timeout, false, head_only);
        try {
            co_await writer.send(std::move(reply));
        } catch (const boost::system::system_error&) {
        }
    }

    boost::asio::steady_timer timer_;
    boost::beast::flat_buffer buffer_;
    server_request request_; // one request at a time, its strings' capacity kept for the next
    std::string peer_;
    std::string local_;
    origin_memo origins_;
    boost::asio::cancellation_signal cancel_;
    boost::asio::cancellation_signal reading_watch_cancel_;
    boost::asio::steady_timer reading_watch_ended_;
    std::uint64_t requests_handled_ = 0;
    bool timed_out_ = false;
    std::uint64_t armings_ = 0;
    bool peer_done_sending_ = false;
    bool handling_ = false;
    bool peeking_ = false;
    bool reading_watch_ = false;
    bool peer_left_ = false;
    char peeked_ = 0;
    bool busy_ = false;
    bool stopped_ = false;
};

} // namespace forma::net::detail
