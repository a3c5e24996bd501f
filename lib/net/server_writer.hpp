#pragma once
// response_writer over a Beast-compatible stream: the one writer of http_server and of routes
// mounted in a Beast server of the user's.

#include <forma/net/http_reply.hpp>

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/system/system_error.hpp>

#include <chrono>
#include <stdexcept>

namespace forma::net::detail {

/** `Stream`: what Beast writes to. `Deadline`: `arm(duration)` before a write (the write fails
    when it runs out), `disarm()` after, and `stopped()`: whether the server canceled the
    request as it stops. `keep_alive`: whether the connection stays open after
    this response (the head says "Connection: close" otherwise). `head_only`: the answer to a
    HEAD request, whose head is written and whose body is not (a stream's head, then the
    connection closes: its first write ends the handler with operation_aborted).
*/
template <class Stream, class Deadline>
class server_writer final : public response_writer {
public:
    server_writer(Stream& stream, Deadline& deadline, std::chrono::milliseconds write_timeout, bool keep_alive, bool head_only = false)
        : stream_(stream), deadline_(deadline), write_timeout_(write_timeout), keep_alive_(keep_alive), head_only_(head_only) {}

    boost::asio::awaitable<void> send(http_reply reply) override {
        namespace http = boost::beast::http;
        if (started_) throw std::logic_error("response_writer::send after the response started");
        started_ = true;
        http::response<http::string_body> message{static_cast<http::status>(reply.status), 11};
        fill(message, reply);
        message.body() = std::move(reply.body);
        message.prepare_payload(); // a HEAD's answer keeps the Content-Length its GET would have
        deadline_.arm(write_timeout_);
        if (head_only_) {
            http::response_serializer<http::string_body> serializer(message);
            co_await http::async_write_header(stream_, serializer, boost::asio::use_awaitable);
        } else {
            co_await http::async_write(stream_, message, boost::asio::use_awaitable);
        }
        deadline_.disarm();
    }

    boost::asio::awaitable<void> start(http_reply head) override {
        namespace http = boost::beast::http;
        if (started_) throw std::logic_error("response_writer::start after the response started");
        started_ = true;
        streaming_ = true;
        if (head_only_) keep_alive_ = false; // nothing of the stream follows; the connection closes
        http::response<http::empty_body> message{static_cast<http::status>(head.status), 11};
        fill(message, head);
        message.chunked(true);
        http::response_serializer<http::empty_body> serializer(message);
        deadline_.arm(write_timeout_);
        cut_ = true;
        co_await http::async_write_header(stream_, serializer, boost::asio::use_awaitable);
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
        deadline_.arm(write_timeout_);
        cut_ = true;
        co_await boost::asio::async_write(stream_, boost::beast::http::make_chunk(boost::asio::buffer(bytes.data(), bytes.size())),
                                          boost::asio::use_awaitable);
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
        co_await boost::asio::async_write(stream_, boost::beast::http::make_chunk_last(), boost::asio::use_awaitable);
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

    template <class Message>
    void fill(Message& message, const http_reply& reply) const {
        if (!reply.content_type.empty()) message.set(boost::beast::http::field::content_type, reply.content_type);
        for (const auto& [name, value] : reply.headers) message.insert(name, value);
        message.keep_alive(keep_alive_);
    }

    Stream& stream_;
    Deadline& deadline_;
    std::chrono::milliseconds write_timeout_;
    bool keep_alive_;
    bool head_only_;
    bool streaming_ = false;
    bool finished_ = false;
    bool cut_ = false; // a write of the stream began and did not end
};

} // namespace forma::net::detail
