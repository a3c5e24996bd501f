#pragma once
// response_writer over a Beast-compatible stream: the one writer of http_server and of routes
// mounted in a Beast server of the user's.

#include <forma/net/http_reply.hpp>

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/system/system_error.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace forma::net::detail {

/** The head of a response, as its bytes: the status line; `reply`'s Content-Type and fields, in
    order (not the framing ones, Content-Length, Transfer-Encoding and Connection, which are the
    server's; a control character in a name or value becomes a space, so that no field can end
    the head early); `Connection: close` unless `keep_alive`; then `Content-Length: body_size`,
    or `Transfer-Encoding: chunked` without a body size. A 1xx, 204 or 304 has no length.
*/
std::string response_head(const http_reply& reply, bool keep_alive, std::optional<std::size_t> body_size);

/// "<size in hex>\r\n", the line before a chunk of `size` bytes.
std::string chunk_size_line(std::size_t size);

/** `Stream`: what is written to (an Asio or Beast stream). `Deadline`: `arm(duration)` before a
    write (the write fails when it runs out), `disarm()` after, and `stopped()`: whether the
    server canceled the request as it stops. `keep_alive`: whether the connection stays open after
    this response (the head says "Connection: close" otherwise). `head_only`: the answer to a
    HEAD request, whose head is written and whose body is not (a stream's head, then the
    connection closes: its first write ends the handler with operation_aborted).

    Every write is one gather write of up to three buffers (a head and a body, or a chunk's size
    line, data and CRLF): the head is formatted here, not by Beast's serializer, whose write
    operations cost more to compile for each stream type than all the rest of a server.
*/
template <class Stream, class Deadline>
class server_writer final : public response_writer {
public:
    server_writer(Stream& stream, Deadline& deadline, std::chrono::milliseconds write_timeout, bool keep_alive, bool head_only = false)
        : stream_(stream), deadline_(deadline), write_timeout_(write_timeout), keep_alive_(keep_alive), head_only_(head_only) {}

    boost::asio::awaitable<void> send(http_reply reply) override {
        if (started_) throw std::logic_error("response_writer::send after the response started");
        started_ = true;
        // A HEAD's answer keeps the Content-Length its GET would have.
        head_ = response_head(reply, keep_alive_, reply.body.size());
        deadline_.arm(write_timeout_);
        const std::string_view body = head_only_ ? std::string_view() : std::string_view(reply.body);
        co_await write_parts(head_, body);
        deadline_.disarm();
    }

    boost::asio::awaitable<void> start(http_reply head) override {
        if (started_) throw std::logic_error("response_writer::start after the response started");
        started_ = true;
        streaming_ = true;
        if (head_only_) keep_alive_ = false; // nothing of the stream follows; the connection closes
        head_ = response_head(head, keep_alive_, std::nullopt);
        deadline_.arm(write_timeout_);
        cut_ = true;
        co_await write_parts(head_);
        cut_ = false;
        deadline_.disarm();
        co_await write(head.body);
    }

    boost::asio::awaitable<void> write(std::string_view bytes) override {
        if (!streaming_ || finished_) throw std::logic_error("response_writer::write outside a started response");
        if (head_only_) {
            finished_ = true; // the head is the whole answer
            if (!bytes.empty()) throw boost::system::system_error(boost::asio::error::operation_aborted);
        }
        if (bytes.empty()) co_return;
        throw_if_cut();
        head_ = chunk_size_line(bytes.size());
        deadline_.arm(write_timeout_);
        cut_ = true;
        co_await write_parts(head_, bytes, "\r\n");
        cut_ = false;
        deadline_.disarm();
    }

    boost::asio::awaitable<void> finish() override {
        if (!streaming_) throw std::logic_error("response_writer::finish without start");
        if (finished_) co_return;
        finished_ = true;
        if (head_only_) co_return;
        throw_if_cut();
        deadline_.arm(write_timeout_);
        cut_ = true;
        co_await write_parts("0\r\n\r\n"); // the last chunk, no trailer
        cut_ = false;
        deadline_.disarm();
    }

    bool server_stopped() const noexcept override { return deadline_.stopped(); }

    /// Ends a stream the server stopped: its last event (set_last_event), then the terminator.
    /// A peer that is gone, or a stream cut mid-write, is no error here.
    boost::asio::awaitable<void> end_stopped_stream() {
        try {
            co_await write(last_event_);
            co_await finish();
        } catch (const boost::system::system_error&) {
        }
    }

    /// Whether the response is whole on the wire (a stream that was not finished is not).
    bool complete() const noexcept { return started_ && (!streaming_ || finished_); }
    bool keep_alive() const noexcept { return keep_alive_; }

private:
    // A write that failed midway (canceled, timed out) may have sent part of a chunk: nothing
    // written after it could be read, so nothing is.
    void throw_if_cut() const {
        if (cut_) throw boost::system::system_error(boost::asio::error::operation_aborted);
    }

    // One write operation type for every write of the stream: compiled once per stream type.
    auto write_parts(std::string_view first, std::string_view second = {}, std::string_view third = {}) {
        const std::array<boost::asio::const_buffer, 3> parts{boost::asio::buffer(first), boost::asio::buffer(second),
                                                             boost::asio::buffer(third)};
        return boost::asio::async_write(stream_, parts, boost::asio::use_awaitable);
    }

    Stream& stream_;
    Deadline& deadline_;
    std::chrono::milliseconds write_timeout_;
    bool keep_alive_;
    bool head_only_;
    bool streaming_ = false;
    bool finished_ = false;
    bool cut_ = false; // a write of the stream began and did not end
    std::string head_;  // the head or a chunk's size line, alive while it is written
};

} // namespace forma::net::detail
