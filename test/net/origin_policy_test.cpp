// forma::net::origin_policy: the Host and Origin a server answers (DNS rebinding, other sites'
// pages), in http_server and in routes served by a Beast server of one's own.
#include <forma/net/beast_routes.hpp>
#include <forma/net/http_server.hpp>

#include "http_client_stub.hpp"
#include "support/bounded_run.hpp"
#include "support/co_assert.hpp"
#include "support/running_server.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <map>

namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
namespace json = boost::json;
using namespace std::chrono_literals;
using forma::net::http_reply;
using forma::net::http_routes;
using forma::net::response_writer;
using forma::net::server_options;
using forma::net::server_request;
using forma_test::running_server;

http_routes answering_routes() {
    http_routes routes;
    routes.shape_errors([](unsigned status, std::string_view message) {
        return http_reply{.status = status, .body = json::serialize(json::object{{"jsonrpc", "2.0"}, {"id", nullptr},
                                                                                 {"error", {{"code", -32600}, {"message", message}}}})};
    });
    routes.add("*", "/mcp", [](server_request&, response_writer& writer) -> asio::awaitable<void> {
        co_await writer.send({.body = "{}"});
    });
    return routes;
}

std::string request_with(std::string_view host, std::string_view origin = {}) {
    std::string head = "POST /mcp HTTP/1.1\r\nHost: " + std::string(host) + "\r\nContent-Length: 2\r\n";
    if (!origin.empty()) head += "Origin: " + std::string(origin) + "\r\n";
    return head + "\r\n{}";
}

// The status each request gets, on a new connection each.
asio::awaitable<std::map<std::string, unsigned>> statuses(unsigned short port, const std::vector<std::pair<std::string, std::string>>& heads) {
    std::map<std::string, unsigned> out;
    for (const auto& [host, origin] : heads) {
        const auto r = co_await forma_test::raw_http::exchange(port, request_with(host, origin));
        out[host + " " + origin] = r.result_int();
    }
    co_return out;
}

TEST(OriginPolicy, ALoopbackServerAnswersLoopbackNamesAndOriginsOnly) {
    asio::io_context io;
    forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
        running_server s(io, answering_routes());
        const std::string own = "127.0.0.1:" + std::to_string(s.port());
        const auto got = co_await statuses(s.port(), {{own, ""},
                                                      {"localhost", ""},
                                                      {"LOCALHOST:8080", ""},
                                                      {"[::1]:8080", ""},
                                                      {"127.0.0.2", ""},
                                                      {"app.localhost", ""},
                                                      {own, "http://" + own},
                                                      {own, "http://localhost:3000"},
                                                      {"evil.example.com", ""},
                                                      {"evil.example.com:" + std::to_string(s.port()), "http://evil.example.com:" + std::to_string(s.port())},
                                                      {"localhost.evil.example.com", ""},
                                                      {"127.0.0.1.evil.example.com", ""},
                                                      {own, "http://evil.example.com"},
                                                      {own, "null"},
                                                      {own, "https://" + own}, // another loopback origin
                                                      {"localhost.", ""},
                                                      {"", ""}, // empty: the target has no authority
                                                      {"evil@localhost", ""},
                                                      {"evil%2elocalhost", ""},
                                                      {"[::1", ""}});
        const auto two_hosts = co_await forma_test::raw_http::exchange(
            s.port(), "POST /mcp HTTP/1.1\r\nHost: localhost\r\nHost: evil.example.com\r\nContent-Length: 2\r\n\r\n{}");
        const auto refused = co_await forma_test::raw_http::exchange(s.port(), request_with("evil.example.com"));
        const auto refused_origin = co_await forma_test::raw_http::exchange(s.port(), request_with(own, "http://evil.example.com\xff"));
        co_await s.finish();
        for (const auto& [request, status] : got) {
            const bool allowed = request.find("evil") == std::string::npos && !request.ends_with("null") && request != "[::1 ";
            EXPECT_NE(status, 0u) << request;
            EXPECT_EQ(status, allowed ? 200u : 403u) << request;
        }
        EXPECT_EQ(two_hosts.result_int(), 403u);
        // In the route's own shape, saying what to set.
        const json::value body = json::parse(refused.body());
        EXPECT_EQ(body.at("error").at("code").as_int64(), -32600);
        EXPECT_NE(body.at("error").at("message").as_string().find("allowed_hosts"), json::string::npos) << refused.body();
        boost::system::error_code ec;
        const json::value origin_body = json::parse(refused_origin.body(), ec); // valid UTF-8 whatever the Origin held
        CO_ASSERT_TRUE(!ec);
        EXPECT_NE(origin_body.at("error").at("message").as_string().find("allowed_origins"), json::string::npos);
    }(), 20s);
}

// A connection remembers the last head that passed; a later one on it with another Host or
// Origin is checked again, never passed for the first's sake.
TEST(OriginPolicy, EachRequestOfAKeptAliveConnectionIsChecked) {
    asio::io_context io;
    forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
        running_server s(io, answering_routes());
        const std::string own = "127.0.0.1:" + std::to_string(s.port());
        const std::string two_hosts = "POST /mcp HTTP/1.1\r\nHost: evil.example.com\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}";
        // The requests of one connection, in order, and the status of each; the connection ends at a 403.
        const std::vector<std::vector<std::pair<std::string, unsigned>>> connections = {
            {{request_with(own), 200}, {request_with(own), 200}, {request_with(own, "http://evil.example.com"), 403}},
            {{request_with("localhost"), 200}, {request_with("evil.example.com"), 403}},
            {{request_with("localhost"), 200}, {two_hosts, 403}},
            {{request_with(own, "http://" + own), 200}, {request_with(own), 200}, {request_with(own, "http://" + own), 200},
             {request_with(own, "null"), 403}},
        };
        for (std::size_t i = 0; i < connections.size(); ++i) {
            auto c = co_await forma_test::raw_http::connection::open(s.port());
            for (std::size_t k = 0; k < connections[i].size(); ++k) {
                co_await c.send(connections[i][k].first);
                const auto r = co_await c.read();
                CO_ASSERT_TRUE(r.has_value());
                EXPECT_EQ(r->result_int(), connections[i][k].second) << "connection " << i << ", request " << k;
            }
            EXPECT_TRUE(co_await c.closed_by_server()) << "connection " << i;
        }
        co_await s.finish();
    }(), 20s);
}

TEST(OriginPolicy, ListedHostsAndOriginsReplaceTheLoopbackNames) {
    asio::io_context io;
    forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
        server_options options;
        options.origins.allowed_hosts = {"Agents.Example.com"};
        options.origins.allowed_origins = {"https://app.example.com"};
        running_server listed(io, answering_routes(), options);
        server_options open;
        open.origins.allowed_hosts = {"*"};
        open.origins.allowed_origins = {"*"};
        running_server any(io, answering_routes(), open);
        const auto got = co_await statuses(listed.port(), {{"agents.example.com:8443", ""},
                                                           {"agents.example.com", "https://app.example.com"},
                                                           {"agents.example.com", "https://APP.example.com:443"},
                                                           {"agents.example.com", "http://agents.example.com"},
                                                           {"agents.example.com", "https://agents.example.com"},
                                                           {"agents.example.com:8443", "https://agents.example.com:8443"},
                                                           {"agents.example.com:8443", "https://agents.example.com"},
                                                           {"agents.example.com", "https://app.example.com:8443"},
                                                           {"agents.example.com", "http://app.example.com"},
                                                           {"agents.example.com", "http://localhost:3000"},
                                                           {"localhost", ""}});
        const auto anything = co_await statuses(any.port(), {{"evil.example.com", "http://evil.example.com"}, {"x", "null"}});
        co_await listed.finish();
        co_await any.finish();
        EXPECT_EQ(got.at("agents.example.com:8443 "), 200u);
        EXPECT_EQ(got.at("agents.example.com https://app.example.com"), 200u);
        EXPECT_EQ(got.at("agents.example.com https://APP.example.com:443"), 200u) << "the default port is the same origin";
        EXPECT_EQ(got.at("agents.example.com http://agents.example.com"), 200u) << "its own origin";
        EXPECT_EQ(got.at("agents.example.com https://agents.example.com"), 200u) << "its own origin, its TLS ended by a proxy";
        EXPECT_EQ(got.at("agents.example.com:8443 https://agents.example.com:8443"), 200u);
        EXPECT_EQ(got.at("agents.example.com:8443 https://agents.example.com"), 403u) << "another port";
        EXPECT_EQ(got.at("agents.example.com https://app.example.com:8443"), 403u);
        EXPECT_EQ(got.at("agents.example.com http://app.example.com"), 403u);
        EXPECT_EQ(got.at("agents.example.com http://localhost:3000"), 403u) << "a list replaces the loopback origins";
        EXPECT_EQ(got.at("localhost "), 403u) << "a list replaces the loopback names";
        for (const auto& [request, status] : anything) EXPECT_EQ(status, 200u) << request;
    }(), 20s);
}

TEST(OriginPolicy, RoutesInABeastServerKeepItToo) {
    asio::io_context io;
    forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
        const http_routes routes = answering_routes();
        asio::ip::tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), 0});
        asio::co_spawn(io, [&]() -> asio::awaitable<void> {
            for (;;) {
                boost::beast::tcp_stream stream(co_await acceptor.async_accept(asio::use_awaitable));
                boost::beast::flat_buffer buffer;
                http::request<http::string_body> request;
                auto [ec, n] = co_await http::async_read(stream, buffer, request, asio::as_tuple(asio::use_awaitable));
                if (!ec) co_await forma::net::serve_request(routes, std::move(request), stream);
            }
        }, asio::detached);
        const unsigned short port = acceptor.local_endpoint().port();
        const auto got = co_await statuses(port, {{"localhost", ""}, {"evil.example.com", ""}, {"localhost", "http://evil.example.com"}});
        acceptor.close();
        EXPECT_EQ(got.at("localhost "), 200u);
        EXPECT_EQ(got.at("evil.example.com "), 403u);
        EXPECT_EQ(got.at("localhost http://evil.example.com"), 403u);
    }(), 20s);
}

} // namespace
