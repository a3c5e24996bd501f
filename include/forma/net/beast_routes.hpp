#pragma once
// Routes in a Beast server of your own. This header includes Beast (not included by <forma/forma.hpp>).

#include <forma/net/http_routes.hpp>
#include <forma/net/origin_policy.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <chrono>

namespace forma::net {

/** Answers one request that your Beast server has read, by `routes`, on `stream`; returns
    whether the connection may carry another request (false after a streamed response that was
    cut, or when the request asked to close). Each write is limited to `write_timeout` through
    the tcp_stream's expiry (reset to none afterwards). A request whose Host or Origin breaks
    `origins` is answered 403 in its route's error shape (the default answers loopback names
    only on a loopback address: see origin_policy). Limits on the head and body, and
    authentication, are your server's, as it read the request. Set TCP_NODELAY on the socket
    you accept (`socket.set_option(tcp::no_delay(true))`), as http_server does: otherwise a
    stream's small event writes wait on the client's delayed ACKs (40 ms each on Linux).

        http::request<http::string_body> request;
        co_await http::async_read(stream, buffer, request, asio::use_awaitable);
        if (!co_await forma::net::serve_request(routes, std::move(request), stream)) break;
*/
boost::asio::awaitable<bool> serve_request(const http_routes& routes, boost::beast::http::request<boost::beast::http::string_body> request,
                                           boost::beast::tcp_stream& stream,
                                           std::chrono::milliseconds write_timeout = std::chrono::seconds(30),
                                           const origin_policy& origins = {});
/// The same over TLS.
boost::asio::awaitable<bool> serve_request(const http_routes& routes, boost::beast::http::request<boost::beast::http::string_body> request,
                                           boost::beast::ssl_stream<boost::beast::tcp_stream>& stream,
                                           std::chrono::milliseconds write_timeout = std::chrono::seconds(30),
                                           const origin_policy& origins = {});

} // namespace forma::net
