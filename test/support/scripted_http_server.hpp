#pragma once
// A stand-in HTTP server (an MCP server, an A2A agent, an OpenAI endpoint, a collector) that
// misbehaves as a test asks: each request's raw response bytes come from a function of the
// request, over plain TCP or TLS. Runs on the test's io_context.

#include <forma/testing/self_signed_certificate.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <cctype>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace forma_test {

class scripted_http_server {
public:
    struct request {
        std::string method;
        std::string head; ///< the request line and headers, as sent
        std::string body;
        int connection = 0; ///< which accepted connection carried it, from 1
        bool has_header(const std::string& line) const { return head.find("\r\n" + line + "\r\n") != std::string::npos; }
        /// The request target ("/v1/chat/completions").
        std::string target() const {
            const auto start = head.find(' ') + 1;
            return head.substr(start, head.find(' ', start) - start);
        }
    };

    /// What the server does with a request.
    struct reply {
        reply(std::string response = {}) : bytes(std::move(response)) {} // NOLINT: a response is a reply
        /// Written in one write ("HTTP/1.1 200 OK\r\n..."); empty: drop the connection unanswered.
        std::string bytes;
        /// Written after `bytes` in a write of its own, as if the server had more to say later.
        std::string later{};
        enum class then { go_on, close, stall };
        /// go_on: read the next request (but close after a response that says "Connection: close");
        /// close: close the connection; stall: keep it open and never read or write again.
        then after = then::go_on;
    };
    using answer_function = std::function<reply(const request&)>;

    struct options {
        bool tls; // (no default member initializer: the default argument below needs none)
    };

    scripted_http_server(boost::asio::io_context& io, answer_function answer, options o = {})
        : acceptor_(io, {boost::asio::ip::make_address("127.0.0.1"), 0}), answer_(std::move(answer)) {
        if (o.tls) {
            certificate_ = forma::testing::make_self_signed_certificate();
            tls_.emplace(boost::asio::ssl::context::tls_server);
            tls_->use_certificate_chain(boost::asio::buffer(certificate_.certificate));
            tls_->use_private_key(boost::asio::buffer(certificate_.private_key), boost::asio::ssl::context::pem);
        }
        boost::asio::co_spawn(io, accept_all(), boost::asio::detached);
    }

    /// "http://127.0.0.1:<port>" (https with TLS) followed by `path`.
    std::string url(const std::string& path = "") const {
        return std::string(tls_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) +
               path;
    }

    /// The certificate a client trusts (PEM), with TLS.
    const std::string& certificate_pem() const noexcept { return certificate_.certificate; }

    /// Connections accepted so far.
    int connections() const noexcept { return connections_; }
    /// `later` writes done so far.
    int later_writes() const noexcept { return later_writes_; }

    /// A response with `status`, `content_type` and `body`.
    static std::string response(int status, const std::string& content_type, const std::string& body) {
        return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: " + content_type +
               "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    }

private:
    using tls_stream = boost::asio::ssl::stream<boost::asio::ip::tcp::socket>;

    boost::asio::awaitable<void> accept_all() {
        for (;;) {
            auto socket = co_await acceptor_.async_accept(boost::asio::use_awaitable);
            // Each write goes out at once: a `later` write is not held back (Nagle) until the
            // client's next bytes carry the acknowledgement of the previous one.
            socket.set_option(boost::asio::ip::tcp::no_delay(true));
            const int number = ++connections_;
            if (tls_) {
                boost::asio::co_spawn(acceptor_.get_executor(),
                                      serve_tls(std::make_unique<tls_stream>(std::move(socket), *tls_), number),
                                      boost::asio::detached);
            } else {
                boost::asio::co_spawn(acceptor_.get_executor(), serve_plain(std::move(socket), number), boost::asio::detached);
            }
        }
    }

    boost::asio::awaitable<void> serve_plain(boost::asio::ip::tcp::socket socket, int number) {
        co_await serve(socket, number);
    }

    boost::asio::awaitable<void> serve_tls(std::unique_ptr<tls_stream> stream, int number) {
        try {
            co_await stream->async_handshake(boost::asio::ssl::stream_base::server, boost::asio::use_awaitable);
        } catch (const std::exception&) {
            co_return; // the client gave up
        }
        co_await serve(*stream, number);
    }

    template <class Stream>
    boost::asio::awaitable<void> serve(Stream& stream, int number) {
        std::string buffer;
        try {
            for (;;) {
                const std::size_t head_size = co_await boost::asio::async_read_until(
                    stream, boost::asio::dynamic_buffer(buffer), "\r\n\r\n", boost::asio::use_awaitable);
                std::string head = buffer.substr(0, head_size);
                buffer.erase(0, head_size);
                const std::size_t length = content_length(head);
                if (buffer.size() < length) {
                    co_await boost::asio::async_read(stream, boost::asio::dynamic_buffer(buffer),
                                                     boost::asio::transfer_exactly(length - buffer.size()),
                                                     boost::asio::use_awaitable);
                }
                request r{head.substr(0, head.find(' ')), head, buffer.substr(0, length), number};
                buffer.erase(0, length);
                const reply answer = answer_(r);
                if (answer.bytes.empty()) co_return; // dropped
                co_await boost::asio::async_write(stream, boost::asio::buffer(answer.bytes), boost::asio::use_awaitable);
                if (!answer.later.empty()) {
                    co_await boost::asio::async_write(stream, boost::asio::buffer(answer.later), boost::asio::use_awaitable);
                    ++later_writes_;
                }
                if (answer.after == reply::then::stall) {
                    boost::asio::steady_timer forever(acceptor_.get_executor(), boost::asio::steady_timer::time_point::max());
                    co_await forever.async_wait(boost::asio::use_awaitable);
                }
                if (answer.after == reply::then::close ||
                    answer.bytes.find("\r\nConnection: close\r\n") != std::string::npos)
                    co_return;
            }
        } catch (const std::exception&) {
            // The client went away.
        }
    }

    static std::size_t content_length(std::string head) {
        for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const auto at = head.find("\r\ncontent-length:");
        return at == std::string::npos ? 0 : std::stoul(head.substr(at + 17));
    }

    boost::asio::ip::tcp::acceptor acceptor_;
    answer_function answer_;
    forma::testing::certificate_pem certificate_;
    std::optional<boost::asio::ssl::context> tls_;
    int connections_ = 0;
    int later_writes_ = 0;
};

} // namespace forma_test
