#pragma once
// An http_server on a test's io_context: listening on a free port from construction;
// finish() stops it and waits until run() has returned.

#include <forma/net/http_server.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <string>

namespace forma_test {

class running_server {
public:
    running_server(boost::asio::io_context& io, forma::net::http_routes routes, forma::net::server_options options = {})
        : server_(io.get_executor(), std::move(routes), std::move(options)),
          ended_(io, boost::asio::steady_timer::time_point::max()) {
        server_.listen({});
        boost::asio::co_spawn(io, [this]() -> boost::asio::awaitable<void> {
            co_await server_.run();
            done_ = true;
            ended_.cancel();
        }, boost::asio::detached);
    }

    unsigned short port() const { return server_.port(); }
    std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port()); }
    forma::net::http_server& server() { return server_; }
    bool done() const { return done_; }

    boost::asio::awaitable<void> finish() {
        server_.stop();
        while (!done_) co_await ended_.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
    }

private:
    forma::net::http_server server_;
    boost::asio::steady_timer ended_;
    bool done_ = false;
};

} // namespace forma_test
