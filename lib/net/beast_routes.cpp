// Routes answered on the streams of a Beast server of the user's.
#include <forma/net/beast_routes.hpp>

#include "origin_check.hpp"
#include "server_connection.hpp"
#include "server_writer.hpp"

#include <iterator>

namespace forma::net {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

// The write deadline of server_writer, kept by the tcp_stream under `Stream`.
struct stream_expiry {
    beast::tcp_stream& tcp;
    void arm(std::chrono::milliseconds d) {
        if (d.count() > 0) tcp.expires_after(d);
    }
    void disarm() { tcp.expires_never(); }
    static bool stopped() noexcept { return false; } // the user's server stops its own way
};

// The head of a request as a server_request (no body yet), from `remote_address` to `local_address`.
server_request request_head(const http::request<http::string_body>& message, std::string remote_address, std::string local_address, bool secure) {
    server_request request;
    request.method = std::string(message.method_string());
    detail::set_target(request, message.target());
    request.headers.reserve(static_cast<std::size_t>(std::distance(message.begin(), message.end())));
    for (const auto& field : message) request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    request.remote_address = std::move(remote_address);
    request.local_address = std::move(local_address);
    request.secure = secure;
    return request;
}

template <class Stream>
asio::awaitable<bool> answer(const http_routes& routes, http::request<http::string_body> message, Stream& stream,
                             beast::tcp_stream& tcp, std::chrono::milliseconds write_timeout, const origin_policy& origins, bool secure) {
    server_request request = request_head(message, detail::peer_address(tcp.socket()), detail::local_address(tcp.socket()), secure);
    request.body = std::move(message.body());
    stream_expiry expiry{tcp};
    detail::server_writer<Stream, stream_expiry> writer(stream, expiry, write_timeout, message.keep_alive(), request.method == "HEAD");
    try {
        if (std::optional<std::string> refused = detail::origin_refusal(request, origins)) {
            http_reply reply = (*routes.find(request.method, request.path).shape)(403, *refused);
            co_await writer.send(std::move(reply));
        } else {
            co_await routes.handle(request, writer);
        }
    } catch (...) {
        co_return false; // the peer went, a write took too long, or the handler failed mid-stream
    }
    co_return writer.complete() && writer.keep_alive();
}

} // namespace

asio::awaitable<bool> serve_request(const http_routes& routes, http::request<http::string_body> request, beast::tcp_stream& stream,
                                    std::chrono::milliseconds write_timeout, const origin_policy& origins) {
    co_return co_await answer(routes, std::move(request), stream, stream, write_timeout, origins, false);
}

asio::awaitable<bool> serve_request(const http_routes& routes, http::request<http::string_body> request,
                                    beast::ssl_stream<beast::tcp_stream>& stream, std::chrono::milliseconds write_timeout,
                                    const origin_policy& origins) {
    co_return co_await answer(routes, std::move(request), stream, stream.next_layer(), write_timeout, origins, true);
}

} // namespace forma::net
