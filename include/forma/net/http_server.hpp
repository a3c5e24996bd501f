#pragma once

#include <forma/net/http_routes.hpp>
#include <forma/net/server_options.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace forma::net {

/// Where a server listens: an address ("127.0.0.1", "::", "0.0.0.0") and a port (0: any free one).
struct server_endpoint {
    std::string host = "127.0.0.1";
    unsigned short port = 0;
};

/** An HTTP/1.1 server (TLS optional) that answers by an http_routes table, on the caller's
    executor: no thread of its own. Everything it does runs on `executor`; with an io_context
    run by several threads, give it a strand.

        forma::net::http_server server(io.get_executor(), routes);
        server.listen({"0.0.0.0", 8080});
        co_await server.run();            // until stop()

    Limits, timeouts, TLS and authentication are in server_options. stop() is graceful: no new
    connections, idle ones closed, running requests (open streams too) given `shutdown_grace`
    to end, then canceled (their handlers see a terminal cancellation and may give a stream's
    last event: response_writer::set_last_event), their streams ended, and closed a second later.
*/
class http_server {
public:
    http_server(boost::asio::any_io_executor executor, http_routes routes, server_options options = {});
    ~http_server();
    http_server(const http_server&) = delete;
    http_server& operator=(const http_server&) = delete;

    /// Binds and listens. @throws transport_error when the address cannot be bound.
    void listen(const server_endpoint& endpoint);
    /// The port it listens on (the chosen one for port 0); 0 before listen().
    unsigned short port() const noexcept;

    /// Accepts connections until stop(), and returns once every connection has closed.
    boost::asio::awaitable<void> run();
    /// See the class comment. May be called from the executor only; a second call does nothing.
    void stop();

    /// Open connections and requests being handled now.
    std::size_t connections() const noexcept;
    std::size_t requests_in_flight() const noexcept;

    boost::asio::any_io_executor get_executor() const noexcept;

private:
    struct state;
    std::shared_ptr<state> state_;
};

/** Listens on `endpoint` and serves `routes` until the operation is canceled (then stops as
    http_server::stop does, and completes once every connection has closed).
    `on_listening`, if given, gets the bound port once the server listens.
*/
boost::asio::awaitable<void> serve(boost::asio::any_io_executor executor, server_endpoint endpoint, http_routes routes,
                                   server_options options = {},
                                   std::function<void(unsigned short port)> on_listening = {});

/// serve() for any completion token; the handler gets (std::exception_ptr).
template <class CompletionToken>
auto async_serve(boost::asio::any_io_executor executor, server_endpoint endpoint, http_routes routes,
                 server_options options, CompletionToken&& token) {
    return boost::asio::co_spawn(executor, serve(executor, std::move(endpoint), std::move(routes), std::move(options)),
                                 std::forward<CompletionToken>(token));
}

} // namespace forma::net
