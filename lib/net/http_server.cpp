// forma::net::http_server: accepting, TLS, the connections' lives and stopping gracefully
// (server_connection reads and answers each request).
#include <forma/net/http_server.hpp>
#include <forma/net/transport_error.hpp>

#include "server_connection.hpp"
#include "tls_server.hpp"
#include "tls_stream.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <openssl/ssl.h>

#include <list>

namespace forma::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using boost::system::error_code;

// After shutdown_grace, how long a canceled request may take to end its stream before its connection closes.
constexpr std::chrono::seconds last_words_time{1};

struct http_server::state : std::enable_shared_from_this<state> {
    state(asio::any_io_executor ex, http_routes r, server_options o)
        : executor(ex), routes(std::move(r)), options(std::move(o)), acceptor(ex), all_closed(ex), grace(ex) {
        if (options.tls) tls_context = detail::make_tls_server_context(*options.tls);
    }

    asio::any_io_executor executor;
    http_routes routes;
    server_options options;
    tcp::acceptor acceptor;
    std::shared_ptr<ssl_ctx_st> tls_context;
    std::list<detail::server_connection*> open; // every live connection, for stop()
    detail::server_counters counters;
    asio::steady_timer all_closed; // canceled when the last connection closes after stop()
    asio::steady_timer grace;
    bool stopping = false;

    // One connection, from accept to close.
    asio::awaitable<void> serve(std::shared_ptr<detail::server_connection> c) {
        const auto self = shared_from_this();
        open.push_front(c.get());
        const auto where = open.begin();
        ++counters.connections;
        if (counters.connections > options.max_connections) {
            co_await c->refuse(routes, 503, "the server has too many open connections; try again later");
        } else if (tls_context) {
            detail::ssl_handle ssl;
            try {
                c->socket.non_blocking(true); // OpenSSL reads the socket itself: it must not block the executor
                ssl = detail::start_tls_server_session(tls_context.get(), c->socket.native_handle());
            } catch (const std::exception&) {
            }
            if (ssl) {
                detail::tls_stream stream(c->socket, ssl.get());
                c->arm(options.header_timeout);
                error_code ec;
                co_await stream.async_accept(asio::redirect_error(asio::use_awaitable, ec));
                c->disarm();
                if (!ec) co_await c->serve_requests(stream, routes, options, counters, stopping);
                if (!ec && !c->closed()) SSL_shutdown(ssl.get()); // close_notify, best effort
            }
        } else {
            co_await c->serve_requests(c->socket, routes, options, counters, stopping);
        }
        co_await c->close_gracefully();
        open.erase(where);
        --counters.connections;
        if (stopping && open.empty()) {
            all_closed.cancel();
            grace.cancel(); // nothing left to cut: the loop need not wait for the grace to pass
        }
    }

    void stop() {
        if (stopping) return;
        stopping = true;
        error_code ignored;
        acceptor.close(ignored);
        for (detail::server_connection* c : open)
            if (!c->busy()) c->close();
        if (open.empty()) {
            all_closed.cancel();
            return;
        }
        grace.expires_after(options.shutdown_grace);
        grace.async_wait([self = shared_from_this()](error_code ec) {
            if (ec) return;
            for (detail::server_connection* c : self->open) c->cancel_request();
            // What a canceled handler still writes (its stream's last event) has this long.
            self->grace.expires_after(last_words_time);
            self->grace.async_wait([self](error_code ec) {
                if (ec) return;
                for (detail::server_connection* c : self->open) c->close();
            });
        });
    }
};

http_server::http_server(asio::any_io_executor executor, http_routes routes, server_options options)
    : state_(std::make_shared<state>(std::move(executor), std::move(routes), std::move(options))) {}

http_server::~http_server() {
    error_code ignored;
    state_->acceptor.close(ignored);
    state_->grace.cancel();
}

void http_server::listen(const server_endpoint& endpoint) {
    error_code ec;
    const auto address = asio::ip::make_address(endpoint.host, ec);
    const std::string where = endpoint.host + ":" + std::to_string(endpoint.port);
    if (ec) throw transport_error(transport_error_kind::connect, "cannot listen on " + where + ": not an IP address", ec, true);
    tcp::acceptor& acceptor = state_->acceptor;
    const tcp::endpoint bound(address, endpoint.port);
    acceptor.open(bound.protocol(), ec);
    if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor.bind(bound, ec);
    if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        error_code ignored;
        acceptor.close(ignored);
        throw transport_error(transport_error_kind::connect, "cannot listen on " + where + ": " + ec.message(), ec, true);
    }
}

unsigned short http_server::port() const noexcept {
    error_code ec;
    const auto local = state_->acceptor.local_endpoint(ec);
    return ec ? 0 : local.port();
}

asio::awaitable<void> http_server::run() {
    const auto s = state_;
    while (!s->stopping && s->acceptor.is_open()) {
        error_code ec;
        tcp::socket socket = co_await s->acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
        if (ec) {
            if (s->stopping || ec == asio::error::operation_aborted) break;
            // Out of descriptors (EMFILE) or a connection reset before accept: wait a little and go on.
            asio::steady_timer pause(s->executor, std::chrono::milliseconds(50));
            co_await pause.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            continue;
        }
        // A stream's events are small writes: without this, Nagle holds each one back until the
        // client's delayed ACK of the last (40 ms on Linux).
        socket.set_option(tcp::no_delay(true), ec);
        auto c = std::make_shared<detail::server_connection>(std::move(socket));
        // Bound to the connection's signal, which cancels the handler the coroutine awaits. The
        // completion lets the connection (and the signal, where the coroutine's cancellation
        // state lives) go only once the coroutine's thread has ended.
        const asio::cancellation_slot slot = c->handler_cancellation_slot();
        asio::co_spawn(s->executor, s->serve(c), asio::bind_cancellation_slot(slot, [c](std::exception_ptr) mutable {
                           const auto executor = c->socket.get_executor();
                           asio::post(executor, [c = std::move(c)] {});
                       }));
    }
    s->stop();
    if (!s->open.empty()) {
        s->all_closed.expires_at(asio::steady_timer::time_point::max());
        error_code ec;
        co_await s->all_closed.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
}

void http_server::stop() { state_->stop(); }

std::size_t http_server::connections() const noexcept { return state_->counters.connections; }

std::size_t http_server::requests_in_flight() const noexcept { return state_->counters.requests; }

asio::any_io_executor http_server::get_executor() const noexcept { return state_->executor; }

asio::awaitable<void> serve(asio::any_io_executor executor, server_endpoint endpoint, http_routes routes,
                            server_options options, std::function<void(unsigned short)> on_listening) {
    http_server server(executor, std::move(routes), std::move(options));
    server.listen(endpoint);
    if (on_listening) on_listening(server.port());
    // The server runs apart from this operation's cancellation: a cancellation stops it
    // gracefully, and this operation completes once it has stopped.
    bool finished = false;
    asio::steady_timer done(executor, asio::steady_timer::time_point::max());
    asio::co_spawn(
        executor,
        [](http_server& server, bool& finished, asio::steady_timer& done) -> asio::awaitable<void> {
            co_await server.run();
            finished = true;
            done.cancel();
        }(server, finished, done),
        asio::detached);
    while (!finished) {
        error_code ec;
        co_await done.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        if (finished) break;
        server.stop();
        co_await asio::this_coro::reset_cancellation_state();
    }
}

} // namespace forma::net
