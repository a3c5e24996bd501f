#pragma once
// A raw HTTP/1.1 client for the server tests: writes exactly the bytes a test gives (hostile
// ones included) and reads responses with Beast's parser.

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma_test {

namespace raw_http {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using response = http::response<http::string_body>;

class connection {
public:
    explicit connection(tcp::socket s) : socket_(std::move(s)) {}

    static asio::awaitable<connection> open(unsigned short port) {
        tcp::socket socket(co_await asio::this_coro::executor);
        co_await socket.async_connect({asio::ip::make_address("127.0.0.1"), port}, asio::use_awaitable);
        co_return connection(std::move(socket));
    }

    asio::awaitable<void> send(std::string_view bytes) {
        co_await asio::async_write(socket_, asio::buffer(bytes.data(), bytes.size()), asio::use_awaitable);
    }

    /// The next response, or nullopt when the server closed the connection first.
    asio::awaitable<std::optional<response>> read() {
        http::response_parser<http::string_body> parser;
        parser.body_limit(64 * 1024 * 1024);
        boost::system::error_code ec;
        co_await http::async_read(socket_, buffer_, parser, asio::redirect_error(asio::use_awaitable, ec));
        if (ec) co_return std::nullopt;
        co_return parser.release();
    }

    /// The next response to a HEAD request: its head, no body whatever its Content-Length says.
    asio::awaitable<std::optional<response>> read_head_answer() {
        http::response_parser<http::string_body> parser;
        parser.skip(true);
        boost::system::error_code ec;
        co_await http::async_read(socket_, buffer_, parser, asio::redirect_error(asio::use_awaitable, ec));
        if (ec) co_return std::nullopt;
        co_return parser.release();
    }

    /// Whether the server closes the connection (reads until it does; false when it sends bytes).
    asio::awaitable<bool> closed_by_server() {
        char byte;
        boost::system::error_code ec;
        if (buffer_.size() != 0) co_return false;
        co_await socket_.async_read_some(asio::buffer(&byte, 1), asio::redirect_error(asio::use_awaitable, ec));
        co_return bool(ec);
    }

    tcp::socket& socket() { return socket_; }

private:
    tcp::socket socket_;
    boost::beast::flat_buffer buffer_;
};

/// "POST <target> HTTP/1.1" with a Content-Length body and the given extra header lines.
inline std::string post(std::string_view target, std::string_view body, std::string_view extra_headers = {}) {
    return "POST " + std::string(target) + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
           std::string(extra_headers) + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
}

inline std::string get(std::string_view target, std::string_view extra_headers = {}) {
    return "GET " + std::string(target) + " HTTP/1.1\r\nHost: localhost\r\n" + std::string(extra_headers) + "\r\n";
}

/// `request` on a new connection, and its response (an empty one when the server closed first).
inline asio::awaitable<response> exchange(unsigned short port, std::string request) {
    connection c = co_await connection::open(port);
    co_await c.send(request);
    std::optional<response> r = co_await c.read();
    co_return r ? std::move(*r) : response();
}

/// The response to a POST of `body` as `content_type`, on a new connection.
inline asio::awaitable<response> posted(unsigned short port, std::string_view target, std::string_view body,
                                        std::string_view content_type = "application/json") {
    co_return co_await exchange(port, "POST " + std::string(target) + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: " + std::string(content_type) +
                                          "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body));
}

/// The data of each event of an SSE body.
inline std::vector<std::string> sse_data(std::string_view body) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while ((at = body.find("data: ", at)) != std::string_view::npos) {
        const std::size_t end = body.find('\n', at);
        out.emplace_back(body.substr(at + 6, end - at - 6));
        at = end;
    }
    return out;
}

} // namespace raw_http

} // namespace forma_test
