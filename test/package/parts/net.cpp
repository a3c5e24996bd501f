// forma::net alone: an HTTP server with a route, listening on a free loopback port, stopped.
#include <forma/net/http_server.hpp>
#include <forma/net/http_reply.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <iostream>

int main() {
    boost::asio::io_context io;
    forma::net::http_routes routes;
    routes.add("GET", "/ping", [](forma::net::server_request&, forma::net::response_writer& w) -> boost::asio::awaitable<void> {
        co_await w.send({.content_type = "text/plain", .body = "pong"});
    });
    forma::net::http_server server(io.get_executor(), std::move(routes));
    server.listen({.host = "127.0.0.1", .port = 0});
    const bool listening = server.port() != 0;
    boost::asio::co_spawn(io, server.run(), boost::asio::detached);
    server.stop();
    io.run();
    std::cout << (listening ? "listened, stopped; " : "did not listen; ") << forma::net::format_sse_event("x").size() << " bytes of SSE\n";
}
