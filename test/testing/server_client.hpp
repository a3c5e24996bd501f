#pragma once
// A small Beast client of the local model server over real TLS on loopback (it trusts only the
// server's certificate and checks the host name), for the server's own tests.

#include <forma/testing/model_server.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <openssl/ssl.h>

#include <chrono>
#include <exception>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace server_client {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using forma::testing::model_server;
using namespace std::chrono_literals;

using response = http::response<http::string_body>;

/// Runs `task` on `io` until it ends, failing (not hanging) after `limit`.
template <class T>
T run(asio::io_context& io, asio::awaitable<T> task, std::chrono::milliseconds limit = 10s) {
    std::optional<T> result;
    std::exception_ptr error;
    bool done = false;
    asio::co_spawn(io, std::move(task), [&](std::exception_ptr e, T value) {
        error = e;
        if (!e) result.emplace(std::move(value));
        done = true;
    });
    io.restart();
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done && std::chrono::steady_clock::now() < deadline)
        io.run_one_for(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()));
    if (!done) throw std::runtime_error("the test client timed out");
    if (error) std::rethrow_exception(error);
    return std::move(*result);
}

/// A small Beast client: TLS that trusts only the server's certificate and checks the host name.
class client {
public:
    client(const model_server& server, std::string host = "127.0.0.1") : server_(server), host_(std::move(host)) {}

    /// Restricts the client's TLS versions (the server's own restriction is what is tested).
    int min_version = 0, max_version = 0;
    /// Trust nothing (to see verification fail).
    bool trust_server = true;

    asio::awaitable<void> connect() {
        auto ex = co_await asio::this_coro::executor;
        socket_.emplace(ex);
        const tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), server_.port());
        co_await socket_->async_connect(endpoint, asio::use_awaitable);
        if (server_.certificate_pem().empty()) co_return;
        if (trust_server) context_.add_certificate_authority(asio::buffer(server_.certificate_pem()));
        if (min_version) SSL_CTX_set_min_proto_version(context_.native_handle(), min_version);
        if (max_version) SSL_CTX_set_max_proto_version(context_.native_handle(), max_version);
        tls_.emplace(*socket_, context_);
        tls_->set_verify_mode(ssl::verify_peer);
        tls_->set_verify_callback(ssl::host_name_verification(host_));
        if (host_ == "localhost") SSL_set_tlsext_host_name(tls_->native_handle(), host_.c_str());
        co_await tls_->async_handshake(ssl::stream_base::client, asio::use_awaitable);
    }

    int tls_version() { return tls_ ? SSL_version(tls_->native_handle()) : 0; }

    asio::awaitable<void> send(http::verb method, std::string target, std::string body, bool keep_alive = true,
                               std::vector<std::pair<std::string, std::string>> headers = {}) {
        http::request<http::string_body> request(method, target, 11);
        request.set(http::field::host, host_);
        request.set(http::field::content_type, "application/json");
        request.set(http::field::authorization, "Bearer test-key");
        for (auto& [name, value] : headers) request.set(name, value);
        request.body() = std::move(body);
        request.keep_alive(keep_alive);
        request.prepare_payload();
        if (tls_)
            co_await http::async_write(*tls_, request, asio::use_awaitable);
        else
            co_await http::async_write(*socket_, request, asio::use_awaitable);
    }

    /// Reads one response; `ec` is set when it ends early (the body so far is kept).
    asio::awaitable<response> read(error_code& ec, std::vector<std::size_t>* chunk_sizes = nullptr) {
        http::response_parser<http::string_body> parser;
        parser.body_limit(16 * 1024 * 1024);
        auto on_chunk = [chunk_sizes](std::uint64_t size, std::string_view, error_code&) {
            if (chunk_sizes && size) chunk_sizes->push_back(static_cast<std::size_t>(size));
        };
        parser.on_chunk_header(on_chunk);
        if (tls_)
            co_await http::async_read(*tls_, buffer_, parser, asio::redirect_error(asio::use_awaitable, ec));
        else
            co_await http::async_read(*socket_, buffer_, parser, asio::redirect_error(asio::use_awaitable, ec));
        co_return parser.release();
    }

    /** Reads one response piece by piece, calling `progress` with the body so far after each
        piece (to act while a stream is still coming); `ec` as read's.
    */
    asio::awaitable<response> read_progress(error_code& ec, std::function<void(std::string_view)> progress) {
        http::response_parser<http::string_body> parser;
        parser.body_limit(16 * 1024 * 1024);
        while (!parser.is_done()) {
            if (tls_)
                co_await http::async_read_some(*tls_, buffer_, parser, asio::redirect_error(asio::use_awaitable, ec));
            else
                co_await http::async_read_some(*socket_, buffer_, parser, asio::redirect_error(asio::use_awaitable, ec));
            if (ec) break;
            if (parser.is_header_done()) progress(parser.get().body());
        }
        co_return parser.release();
    }

    asio::awaitable<response> exchange(std::string body, http::verb method = http::verb::post,
                                       std::string target = "/v1/chat/completions") {
        co_await send(method, std::move(target), std::move(body));
        error_code ec;
        response r = co_await read(ec);
        if (ec) throw boost::system::system_error(ec, "reading the response");
        co_return r;
    }

private:
    const model_server& server_;
    std::string host_;
    ssl::context context_{ssl::context::tls_client};
    std::optional<tcp::socket> socket_;
    std::optional<ssl::stream<tcp::socket&>> tls_;
    beast::flat_buffer buffer_;
};

/// Connects, sends one request, and reads the response.
inline response ask(asio::io_context& io, const model_server& server, std::string body,
             http::verb method = http::verb::post, std::string target = "/v1/chat/completions") {
    client c(server);
    return run(io, [&]() -> asio::awaitable<response> {
        co_await c.connect();
        co_return co_await c.exchange(std::move(body), method, std::move(target));
    }());
}

/// The `data:` payloads of an SSE body, in order.
inline std::vector<std::string> sse_data(std::string_view body) {
    std::vector<std::string> data;
    while (!body.empty()) {
        const std::size_t end = body.find("\n\n");
        std::string_view event = body.substr(0, end);
        if (event.substr(0, 6) == "data: ") data.emplace_back(event.substr(6));
        if (end == std::string_view::npos) break;
        body.remove_prefix(end + 2);
    }
    return data;
}

} // namespace server_client
