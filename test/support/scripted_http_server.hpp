#pragma once
// A stand-in HTTP server (an MCP server, an A2A agent) that misbehaves as a test asks: each
// request's raw response comes from a function of the request. Runs on the test's io_context.

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <cctype>
#include <functional>
#include <string>

namespace forma_test {

class scripted_http_server {
public:
    struct request {
        std::string method;
        std::string head; ///< the request line and headers, as sent
        std::string body;
        bool has_header(const std::string& line) const { return head.find("\r\n" + line + "\r\n") != std::string::npos; }
    };
    /// The whole response to send ("HTTP/1.1 200 OK\r\n..."); empty: drop the connection.
    using answer_function = std::function<std::string(const request&)>;

    scripted_http_server(boost::asio::io_context& io, answer_function answer)
        : acceptor_(io, {boost::asio::ip::make_address("127.0.0.1"), 0}), answer_(std::move(answer)) {
        boost::asio::co_spawn(io, accept_all(), boost::asio::detached);
    }

    /// "http://127.0.0.1:<port>" followed by `path`.
    std::string url(const std::string& path = "") const {
        return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + path;
    }

    /// A response with `status`, `content_type` and `body`.
    static std::string response(int status, const std::string& content_type, const std::string& body) {
        return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: " + content_type +
               "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    }

private:
    boost::asio::awaitable<void> accept_all() {
        for (;;) {
            auto socket = co_await acceptor_.async_accept(boost::asio::use_awaitable);
            boost::asio::co_spawn(acceptor_.get_executor(), serve(std::move(socket)), boost::asio::detached);
        }
    }

    boost::asio::awaitable<void> serve(boost::asio::ip::tcp::socket socket) {
        std::string buffer;
        try {
            for (;;) {
                const std::size_t head_size = co_await boost::asio::async_read_until(
                    socket, boost::asio::dynamic_buffer(buffer), "\r\n\r\n", boost::asio::use_awaitable);
                std::string head = buffer.substr(0, head_size);
                buffer.erase(0, head_size);
                const std::size_t length = content_length(head);
                if (buffer.size() < length) {
                    co_await boost::asio::async_read(socket, boost::asio::dynamic_buffer(buffer),
                                                     boost::asio::transfer_exactly(length - buffer.size()),
                                                     boost::asio::use_awaitable);
                }
                request r{head.substr(0, head.find(' ')), head, buffer.substr(0, length)};
                buffer.erase(0, length);
                const std::string reply = answer_(r);
                if (reply.empty()) co_return; // dropped
                co_await boost::asio::async_write(socket, boost::asio::buffer(reply), boost::asio::use_awaitable);
                if (reply.find("\r\nConnection: close\r\n") != std::string::npos) co_return;
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
};

} // namespace forma_test
