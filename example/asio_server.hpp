#pragma once
// The HTTP server of example/asio_server.cpp: Beast sessions whose handler awaits an agent.
// A header so that its test runs this very code in-process, next to its own model server.

#include "example_types.hpp"

#include <forma/forma.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/describe.hpp>

#include <chrono>
#include <cstddef>
#include <exception>
#include <iostream>
#include <list>
#include <string>

namespace asio_server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

/// The body of every answer that is not a person.
struct error_body {
    std::string error;   // a stable code for programs: "bad_request", "refused", ...
    std::string message; // for people
};
BOOST_DESCRIBE_STRUCT(error_body, (), (error, message))

struct server_options {
    tcp::endpoint endpoint{asio::ip::address_v4::loopback(), 0};
    /// Stop after this many responses (0: until stop()).
    std::size_t max_requests = 0;
    std::size_t max_body = 64 * 1024;
    /// For reading a request and writing a response; the agent's run has the client's timeouts.
    std::chrono::seconds io_timeout{30};
};

/** POST /extract with a text body: 200 and the person the text describes, as JSON.

    Every connection is a coroutine on the executor given; while one awaits its agent,
    the others read, run and write. stop() stops accepting, closes idle connections and
    lets the requests in progress finish; run() returns once every connection has closed.
*/
class server {
public:
    server(asio::any_io_executor executor, forma::agent& agent, server_options options = {})
        : agent_(agent), options_(options), acceptor_(executor, options.endpoint),
          drained_(executor, asio::steady_timer::time_point::max()) {}

    unsigned short port() const { return acceptor_.local_endpoint().port(); }
    std::size_t requests_served() const noexcept { return served_; }

    asio::awaitable<void> run() {
        for (;;) {
            beast::error_code ec;
            tcp::socket socket =
                co_await acceptor_.async_accept(asio::redirect_error(asio::use_awaitable, ec));
            if (stopping_) break;
            if (ec) { // out of descriptors, say: wait rather than spin
                asio::steady_timer pause(acceptor_.get_executor(), std::chrono::milliseconds(50));
                co_await pause.async_wait(asio::redirect_error(asio::use_awaitable, ec));
                continue;
            }
            asio::co_spawn(acceptor_.get_executor(), session(std::move(socket)),
                           [](std::exception_ptr e) {
                               if (e) std::cerr << "session failed: " << what(e) << '\n';
                           });
        }
        // Cancelled by the last connection to close (a timer used as an event).
        while (!connections_.empty()) {
            beast::error_code ec;
            co_await drained_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        }
    }

    void stop() {
        if (stopping_) return;
        stopping_ = true;
        beast::error_code ignored;
        acceptor_.close(ignored);
        for (connection* c : connections_)
            if (!c->busy) c->stream.cancel(); // waiting for a next request that need not come
    }

private:
    struct connection {
        beast::tcp_stream stream;
        bool busy = false; // between reading a request and writing its response
    };

    asio::awaitable<void> session(tcp::socket socket) {
        connection c{beast::tcp_stream(std::move(socket))};
        connections_.push_front(&c);
        struct unregister {
            server& s;
            connection& c;
            ~unregister() {
                s.connections_.remove(&c);
                if (s.stopping_ && s.connections_.empty()) s.drained_.cancel();
            }
        } guard{*this, c};

        beast::flat_buffer buffer;
        for (bool keep_alive = true; keep_alive && !stopping_;) {
            http::request_parser<http::string_body> parser;
            parser.body_limit(options_.max_body);
            beast::error_code ec;
            c.stream.expires_after(options_.io_timeout);
            co_await http::async_read(c.stream, buffer, parser,
                                      asio::redirect_error(asio::use_awaitable, ec));
            // Beast's HTTP errors are the request's fault and get an answer; others end the
            // connection: the client left or went silent, or stop() cancelled the wait for a next
            // request.
            const bool malformed =
                ec && ec.category() == http::make_error_code(http::error::bad_target).category();
            if (ec == http::error::end_of_stream || (ec && !malformed)) break;

            c.busy = true;
            http::response<http::string_body> response;
            if (ec == http::error::body_limit)
                response = error_response(http::status::payload_too_large, "too_large",
                                          "the text is longer than " +
                                              std::to_string(options_.max_body) + " bytes");
            else if (malformed)
                response = error_response(http::status::bad_request, "bad_request",
                                          "not HTTP: " + ec.message());
            else
                response = co_await handle(parser.get());
            keep_alive = !ec && parser.get().keep_alive() && !stopping_;
            response.keep_alive(keep_alive);
            response.prepare_payload();

            c.stream.expires_after(options_.io_timeout);
            co_await http::async_write(c.stream, response,
                                       asio::redirect_error(asio::use_awaitable, ec));
            c.busy = false;
            if (ec) break;
            if (++served_ == options_.max_requests) stop();
        }
        beast::error_code ec;
        c.stream.socket().shutdown(tcp::socket::shutdown_send, ec);
        // Read what the client still sends until it closes too: closing with unread bytes
        // (a body we refused) would reset the connection before the client read our answer.
        c.stream.expires_after(std::chrono::seconds(2));
        char sink[1024];
        while (!ec)
            co_await c.stream.async_read_some(asio::buffer(sink),
                                              asio::redirect_error(asio::use_awaitable, ec));
    }

    asio::awaitable<http::response<http::string_body>>
    handle(const http::request<http::string_body>& request) {
        if (request.target() != "/extract")
            co_return error_response(http::status::not_found, "not_found",
                                     "POST the text to /extract");
        if (request.method() != http::verb::post) {
            auto response = error_response(http::status::method_not_allowed, "method_not_allowed",
                                           "POST the text to /extract");
            response.set(http::field::allow, "POST");
            co_return response;
        }
        if (request.body().find_first_not_of(" \t\r\n") == std::string::npos)
            co_return error_response(http::status::bad_request, "bad_request",
                                     "the body must be a text that describes a person");

        std::exception_ptr failure;
        try {
            std::string text = request.body();
            forma::agent_response<example::person> answer =
                co_await agent_.run<example::person>(std::move(text));
            http::response<http::string_body> response{http::status::ok, 11};
            response.set(http::field::content_type, "application/json");
            response.body() =
                forma::to_json(answer.result()); // result() throws what the model got wrong
            co_return response;
        } catch (...) {
            failure = std::current_exception(); // no co_await inside a catch block
        }
        co_return error_for(failure);
    }

    // Typed errors become statuses: the model's fault is the upstream's (502), a refusal is the
    // text's (422).
    static http::response<http::string_body> error_for(std::exception_ptr failure) {
        try {
            std::rethrow_exception(failure);
        } catch (const forma::refusal_error& e) {
            return error_response(http::status::unprocessable_entity, "refused", e.what());
        } catch (const forma::output_truncated_error& e) {
            return error_response(http::status::bad_gateway, "truncated", e.what());
        } catch (const forma::json_error& e) {
            return error_response(http::status::bad_gateway, "invalid_answer", e.what());
        } catch (const forma::http_error& e) {
            return error_response(http::status::bad_gateway, "model_error", e.what());
        } catch (const forma::transport_error& e) {
            return e.kind() == forma::transport_error_kind::timeout
                       ? error_response(http::status::gateway_timeout, "model_timeout", e.what())
                       : error_response(http::status::bad_gateway, "model_unreachable", e.what());
        } catch (const std::exception& e) {
            return error_response(http::status::internal_server_error, "internal", e.what());
        }
    }

    static http::response<http::string_body> error_response(http::status status, std::string code,
                                                            std::string message) {
        http::response<http::string_body> response{status, 11};
        response.set(http::field::content_type, "application/json");
        response.body() = forma::to_json(error_body{std::move(code), std::move(message)});
        return response;
    }

    static std::string what(std::exception_ptr e) {
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& x) {
            return x.what();
        } catch (...) {
            return "unknown exception";
        }
    }

    forma::agent& agent_;
    server_options options_;
    tcp::acceptor acceptor_;
    asio::steady_timer drained_;
    std::list<connection*> connections_; // every open connection, for stop()
    std::size_t served_ = 0;
    bool stopping_ = false;
};

} // namespace asio_server
