// forma::net::http_server and http_routes: routing, streaming, keep-alive, limits, hostile
// clients, authentication, TLS, graceful stop, and routes mounted in a Beast server of one's own.
#include <forma/net/beast_routes.hpp>
#include <forma/net/http_server.hpp>
#include <forma/testing/self_signed_certificate.hpp>

#include "http_client_stub.hpp"
#include "support/bounded_run.hpp"
#include "support/co_assert.hpp"
#include "support/running_server.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
namespace json = boost::json;
using namespace std::chrono_literals;
using forma::net::http_reply;
using forma::net::http_routes;
using forma::net::http_server;
using forma::net::response_writer;
using forma::net::server_options;
using forma::net::server_request;
using forma_test::running_server;
using forma_test::raw_http::connection;

asio::awaitable<void> echo(server_request& request, response_writer& writer) {
    const json::object said{{"method", request.method}, {"path", request.path}, {"query", request.query_parameter("q")},
                            {"body", request.body}, {"caller", request.caller}};
    co_await writer.send({.body = json::serialize(said)});
}

asio::awaitable<void> three_events(server_request&, response_writer& writer) {
    co_await writer.start({.content_type = "text/event-stream"});
    for (int i = 1; i <= 3; ++i) co_await writer.write(forma::net::format_sse_event("{\"n\":" + std::to_string(i) + "}", "tick"));
    co_await writer.finish();
}

http_routes test_routes() {
    http_routes routes;
    routes.add("POST", "/echo", echo).add("GET", "/echo", echo).add("GET", "/events", three_events);
    routes.add("GET", "/items/*", echo);
    routes.add("GET", "/throws", [](server_request&, response_writer&) -> asio::awaitable<void> {
        throw std::runtime_error("the handler broke");
        co_return;
    });
    return routes;
}

// test_routes() and a JSON-RPC route, /rpc, whose errors are JSON-RPC's.
http_routes routes_with_rpc() {
    http_routes routes = test_routes();
    http_routes rpc;
    rpc.shape_errors([](unsigned status, std::string_view message) {
        return http_reply{.status = status, .body = json::serialize(json::object{{"jsonrpc", "2.0"}, {"id", nullptr},
                                                                                 {"error", {{"code", -32600}, {"message", message}}}})};
    });
    rpc.add("POST", "/rpc", echo);
    routes.add_all(rpc);
    return routes;
}

json::object body_of(const forma_test::raw_http::response& response) { return json::parse(response.body()).as_object(); }

void run(asio::io_context& io, asio::awaitable<void> test) { forma_test::run_bounded(io, std::move(test), 20s); }

// A TLS client's context that trusts `certificate` and checks the server's.
asio::ssl::context trusting(const std::string& certificate) {
    asio::ssl::context context(asio::ssl::context::tls_client);
    context.add_certificate_authority(asio::buffer(certificate));
    context.set_verify_mode(asio::ssl::verify_peer);
    return context;
}

// Connects `tls` to the server on `port` of this host and makes the handshake.
asio::awaitable<void> connect_tls(asio::ssl::stream<asio::ip::tcp::socket>& tls, unsigned short port) {
    co_await tls.next_layer().async_connect({asio::ip::make_address("127.0.0.1"), port}, asio::use_awaitable);
    co_await tls.async_handshake(asio::ssl::stream_base::client, asio::use_awaitable);
}

TEST(HttpServer, RoutesByMethodAndPathAndKeepsTheConnectionAlive) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, test_routes());
        connection c = co_await connection::open(s.port());
        co_await c.send(forma_test::raw_http::post("/echo", "{\"a\":1}"));
        auto first = co_await c.read();
        co_await c.send(forma_test::raw_http::get("/echo?q=a%20b+c&x=1"));
        auto second = co_await c.read(); // the same connection
        co_await c.send(forma_test::raw_http::get("/items/42"));
        auto third = co_await c.read();
        co_await s.finish();
        EXPECT_TRUE(s.done());
        CO_ASSERT_TRUE(first && second && third);
        EXPECT_EQ(first->result_int(), 200u);
        EXPECT_EQ(body_of(*first).at("body").as_string(), "{\"a\":1}");
        EXPECT_EQ(body_of(*second).at("method").as_string(), "GET");
        EXPECT_EQ(body_of(*second).at("query").as_string(), "a b c");
        EXPECT_EQ(body_of(*third).at("path").as_string(), "/items/42");
    }());
}

// A connection keeps one server_request from request to request, for its strings' capacity:
// each request must still see its own head and body only, whatever the last one had, left or took.
TEST(HttpServer, EachRequestOnAKeptConnectionSeesItsOwnHeadAndBodyOnly) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        const auto whole_request = [](server_request& request, response_writer& writer) -> asio::awaitable<void> {
            json::array fields;
            for (const auto& [name, value] : request.headers) fields.push_back(json::array{json::string(name), json::string(value)});
            const json::object said{{"method", request.method}, {"target", request.target}, {"path", request.path},
                                    {"query", request.query},   {"body", request.body},     {"headers", std::move(fields)}};
            co_await writer.send({.body = json::serialize(said)});
        };
        const auto taker = [](server_request& request, response_writer& writer) -> asio::awaitable<void> {
            const auto headers = std::move(request.headers); // a handler may take what it wants kept
            const std::string body = std::move(request.body);
            co_await writer.send({.body = std::to_string(headers.size()) + " " + std::to_string(body.size())});
        };
        http_routes routes;
        routes.add("POST", "/whole/*", whole_request).add("GET", "/whole/*", whole_request).add("POST", "/take", taker);
        running_server s(io, std::move(routes));
        connection c = co_await connection::open(s.port());
        const std::string long_body(5000, 'b'); // past what a connection keeps for the next body
        co_await c.send(forma_test::raw_http::post("/whole/a/rather/long/target/path?first=1&more=2", long_body,
                                                   "X-One: 1\r\nX-Two: a value longer than a short string\r\nX-Three: 3\r\n"));
        auto first = co_await c.read();
        co_await c.send(forma_test::raw_http::get("/whole/b"));
        auto second = co_await c.read();
        co_await c.send(forma_test::raw_http::post("/whole/c?x", "small", "X-Two: 2\r\n"));
        auto third = co_await c.read();
        co_await c.send(forma_test::raw_http::post("/take", "taken", "X-One: 1\r\n"));
        auto taken = co_await c.read();
        co_await c.send(forma_test::raw_http::get("/whole/d", "X-After: yes\r\n"));
        auto after = co_await c.read();
        co_await s.finish();
        CO_ASSERT_TRUE(first && second && third && taken && after);
        const auto headers = [](const json::object& said) { return json::serialize(said.at("headers")); };
        const json::object one = body_of(*first);
        EXPECT_EQ(one.at("body").as_string().size(), 5000u);
        EXPECT_EQ(one.at("query").as_string(), "first=1&more=2");
        EXPECT_EQ(headers(one), R"([["Host","localhost"],["Content-Type","application/json"],["X-One","1"],)"
                                R"(["X-Two","a value longer than a short string"],["X-Three","3"],["Content-Length","5000"]])");
        const json::object two = body_of(*second);
        EXPECT_EQ(two.at("method").as_string(), "GET");
        EXPECT_EQ(two.at("target").as_string(), "/whole/b");
        EXPECT_EQ(two.at("path").as_string(), "/whole/b");
        EXPECT_EQ(two.at("query").as_string(), "") << "the last request's query is not kept";
        EXPECT_EQ(two.at("body").as_string(), "");
        EXPECT_EQ(headers(two), R"([["Host","localhost"]])");
        const json::object three = body_of(*third);
        EXPECT_EQ(three.at("target").as_string(), "/whole/c?x");
        EXPECT_EQ(three.at("query").as_string(), "x");
        EXPECT_EQ(three.at("body").as_string(), "small");
        EXPECT_EQ(headers(three), R"([["Host","localhost"],["Content-Type","application/json"],["X-Two","2"],["Content-Length","5"]])");
        EXPECT_EQ(taken->body(), "4 5");
        const json::object last = body_of(*after);
        EXPECT_EQ(last.at("path").as_string(), "/whole/d");
        EXPECT_EQ(last.at("body").as_string(), "");
        EXPECT_EQ(headers(last), R"([["Host","localhost"],["X-After","yes"]])");
    }());
}

TEST(HttpServer, AnswersUnknownPathsAndMethodsInTheRoutesErrorShape) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, routes_with_rpc());
        connection c = co_await connection::open(s.port());
        co_await c.send(forma_test::raw_http::get("/nowhere"));
        auto missing = co_await c.read();
        co_await c.send("BREW /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n");
        auto wrong_method = co_await c.read();
        co_await c.send(forma_test::raw_http::get("/rpc"));
        auto rpc_wrong_method = co_await c.read();
        connection bytes = co_await connection::open(s.port());
        co_await bytes.send(forma_test::raw_http::get("/caf\xc3\xa9/\xff\xfe"));
        auto not_utf8 = co_await bytes.read();
        co_await s.finish();
        CO_ASSERT_TRUE(not_utf8);
        EXPECT_NO_THROW((void)body_of(*not_utf8)) << "valid JSON whatever bytes the path held: " << not_utf8->body();
        CO_ASSERT_TRUE(missing && wrong_method && rpc_wrong_method);
        EXPECT_EQ(missing->result_int(), 404u);
        EXPECT_EQ(body_of(*missing).at("error").at("message").as_string(), "nothing is served at /nowhere");
        EXPECT_EQ(wrong_method->result_int(), 405u);
        EXPECT_EQ((*wrong_method)[http::field::allow], "POST, GET");
        EXPECT_EQ(rpc_wrong_method->result_int(), 405u);
        EXPECT_EQ(body_of(*rpc_wrong_method).at("error").at("code").as_int64(), -32600) << rpc_wrong_method->body();
    }());
}

TEST(HttpServer, StreamsServerSentEventsChunked) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, test_routes());
        connection c = co_await connection::open(s.port());
        co_await c.send(forma_test::raw_http::get("/events"));
        auto events = co_await c.read();
        co_await c.send(forma_test::raw_http::get("/echo")); // still usable after a stream
        auto after = co_await c.read();
        co_await s.finish();
        CO_ASSERT_TRUE(events && after);
        EXPECT_TRUE(events->chunked());
        EXPECT_EQ((*events)[http::field::content_type], "text/event-stream");
        EXPECT_EQ(events->body(), "event: tick\ndata: {\"n\":1}\n\nevent: tick\ndata: {\"n\":2}\n\nevent: tick\ndata: {\"n\":3}\n\n");
        EXPECT_EQ(after->result_int(), 200u);
    }());
}

// The server writes the head: a reply's fields cannot end it early, nor frame the body.
TEST(HttpServer, AReplysFieldsNeitherEndTheHeadNorFrameTheBody) {
    asio::io_context io;
    http_routes routes = test_routes();
    routes.add("GET", "/fields", [](server_request&, response_writer& writer) -> asio::awaitable<void> {
        co_await writer.send({.content_type = "text/plain",
                              .body = "ok",
                              .headers = {{"X-Note", "a\r\nX-Injected: 1"}, {"Content-Length", "999"},
                                          {"connection", "close"}, {"X-Kept", "yes"}}});
    });
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, std::move(routes));
        connection c = co_await connection::open(s.port());
        co_await c.send(forma_test::raw_http::get("/fields"));
        auto answer = co_await c.read();
        co_await c.send(forma_test::raw_http::get("/echo")); // the reply's "Connection: close" was not the server's
        auto after = co_await c.read();
        co_await s.finish();
        CO_ASSERT_TRUE(answer && after);
        EXPECT_EQ(answer->result_int(), 200u);
        EXPECT_EQ(answer->reason(), "OK");
        EXPECT_EQ((*answer)["X-Note"], "a  X-Injected: 1");
        EXPECT_EQ(answer->count("X-Injected"), 0u);
        EXPECT_EQ((*answer)[http::field::content_length], "2");
        EXPECT_EQ(answer->count(http::field::content_length), 1u);
        EXPECT_EQ((*answer)["X-Kept"], "yes");
        EXPECT_EQ(answer->body(), "ok");
        EXPECT_EQ(after->result_int(), 200u);
    }());
}

TEST(HttpServer, AHandlerThatThrowsGetsA500AndTheServerGoesOn) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, test_routes());
        connection c = co_await connection::open(s.port());
        co_await c.send(forma_test::raw_http::get("/throws"));
        auto failed = co_await c.read();
        co_await c.send(forma_test::raw_http::get("/echo"));
        auto after = co_await c.read();
        co_await s.finish();
        CO_ASSERT_TRUE(failed && after);
        EXPECT_EQ(failed->result_int(), 500u);
        EXPECT_EQ(body_of(*failed).at("error").at("message").as_string(), "the server failed to answer: the handler broke");
        EXPECT_EQ(after->result_int(), 200u);
    }());
}

TEST(HttpServer, RefusesAnOversizedBodyBeforeReadingIt) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, test_routes(), {.max_body_size = 100});
        connection told = co_await connection::open(s.port());
        // Only the head: the answer must come without the 1 MB the head announces.
        co_await told.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000000\r\n\r\n");
        auto refused = co_await told.read();
        const bool closed = co_await told.closed_by_server();
        connection chunked = co_await connection::open(s.port());
        co_await chunked.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n80\r\n" + std::string(128, 'x') + "\r\n0\r\n\r\n");
        auto refused_chunked = co_await chunked.read();
        co_await s.finish();
        CO_ASSERT_TRUE(refused && refused_chunked);
        EXPECT_EQ(refused->result_int(), 413u);
        EXPECT_EQ(body_of(*refused).at("error").at("message").as_string(),
                  "the request body of 1000000 bytes is longer than the server's limit of 100 bytes");
        EXPECT_TRUE(closed);
        EXPECT_EQ(refused_chunked->result_int(), 413u);
    }());
}

TEST(HttpServer, AnswersAnOversizedHeadWith431AndGarbageWith400) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, routes_with_rpc(), {.max_header_size = 512});
        connection big = co_await connection::open(s.port());
        co_await big.send(forma_test::raw_http::get("/echo", "X-Filler: " + std::string(1024, 'f') + "\r\n"));
        auto too_big = co_await big.read();
        connection big_rpc = co_await connection::open(s.port());
        co_await big_rpc.send(forma_test::raw_http::post("/rpc?x=1", "{}", "X-Filler: " + std::string(1024, 'f') + "\r\n"));
        auto too_big_rpc = co_await big_rpc.read();
        connection long_line_rpc = co_await connection::open(s.port()); // a request line that never ends
        co_await long_line_rpc.send("POST /rpc?q=" + std::string(2048, 'q'));
        auto too_long_rpc = co_await long_line_rpc.read();

        // After an answered JSON-RPC request on the same connection, a line that never ends is
        // shaped by its own route, not by the last request's.
        connection kept = co_await connection::open(s.port());
        co_await kept.send(forma_test::raw_http::post("/rpc", "{}"));
        auto answered_rpc = co_await kept.read();
        co_await kept.send("GET /echo?q=" + std::string(2048, 'q'));
        auto too_long_after_rpc = co_await kept.read();

        connection garbage = co_await connection::open(s.port());
        co_await garbage.send("\x16\x03\x01 this is not HTTP\r\n\r\n");
        auto bad = co_await garbage.read();
        co_await s.finish();
        CO_ASSERT_TRUE(too_big && bad && too_big_rpc && too_long_rpc && answered_rpc && too_long_after_rpc);
        EXPECT_EQ(answered_rpc->result_int(), 200u);
        EXPECT_EQ(too_long_after_rpc->result_int(), 431u);
        EXPECT_FALSE(body_of(*too_long_after_rpc).contains("jsonrpc")) << too_long_after_rpc->body();
        EXPECT_EQ(too_long_rpc->result_int(), 431u);
        EXPECT_EQ(body_of(*too_long_rpc).at("error").at("code").as_int64(), -32600) << too_long_rpc->body();
        EXPECT_EQ(too_big->result_int(), 431u);
        EXPECT_EQ(too_big_rpc->result_int(), 431u);
        EXPECT_EQ(body_of(*too_big_rpc).at("error").at("code").as_int64(), -32600) << "the shape of the route the head was for: " << too_big_rpc->body();
        EXPECT_EQ(bad->result_int(), 400u);
        EXPECT_NO_THROW((void)body_of(*bad)); // valid JSON, whatever bytes came
    }());
}

// Beast bounds neither a chunk's size line (with its extensions) nor the trailer: the server's
// read buffer does, at max_header_size, so that a line that never ends costs no more than that.
TEST(HttpServer, BoundsChunkLinesAndTrailersByTheHeadLimit) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, test_routes(), {.max_header_size = 2048});
        const std::string chunked_head = "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n";
        connection extension = co_await connection::open(s.port());
        co_await extension.send(chunked_head + "1;ext=" + std::string(256 * 1024, 'a'));
        auto long_line = co_await extension.read();
        const bool extension_closed = co_await extension.closed_by_server();
        connection trailer = co_await connection::open(s.port());
        co_await trailer.send(chunked_head + "2\r\nok\r\n0\r\nX-Trailer: " + std::string(256 * 1024, 't'));
        auto long_trailer = co_await trailer.read();
        connection fair = co_await connection::open(s.port());
        std::string body;
        for (int i = 0; i < 64; ++i) body += "400;name=value\r\n" + std::string(1024, char('a' + i % 26)) + "\r\n";
        co_await fair.send(chunked_head + body + "0\r\nX-Checksum: 1\r\n\r\n");
        auto accepted = co_await fair.read();
        co_await s.finish();
        CO_ASSERT_TRUE(long_line && long_trailer && accepted);
        EXPECT_EQ(long_line->result_int(), 400u);
        EXPECT_EQ(body_of(*long_line).at("error").at("message").as_string(),
                  "a chunk-size line or the trailer of the request body is longer than the server's limit of 2048 bytes");
        EXPECT_TRUE(extension_closed);
        EXPECT_EQ(long_trailer->result_int(), 400u);
        EXPECT_EQ(accepted->result_int(), 200u) << "a body of 64 KiB in chunks passes a buffer of 2 KiB";
        EXPECT_EQ(body_of(*accepted).at("body").as_string().size(), 64u * 1024);
    }());
}

TEST(HttpServer, AnswersHeadWithTheHeadOnly) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, test_routes());
        connection c = co_await connection::open(s.port());
        // Pipelined: the GET's answer must not be read as the HEAD's body.
        co_await c.send("HEAD /echo HTTP/1.1\r\nHost: localhost\r\n\r\n" + forma_test::raw_http::get("/echo?q=after"));
        auto head = co_await c.read_head_answer();
        auto get = co_await c.read();
        connection unknown = co_await connection::open(s.port());
        co_await unknown.send("HEAD /nowhere HTTP/1.1\r\nHost: localhost\r\n\r\n" + forma_test::raw_http::get("/echo?q=next"));
        auto missing = co_await unknown.read_head_answer();
        auto next = co_await unknown.read();
        connection stream = co_await connection::open(s.port());
        co_await stream.send("HEAD /events HTTP/1.1\r\nHost: localhost\r\n\r\n");
        auto stream_head = co_await stream.read_head_answer();
        const bool stream_closed = co_await stream.closed_by_server();
        co_await s.finish();
        CO_ASSERT_TRUE(head && get && missing && next && stream_head);
        EXPECT_EQ(head->result_int(), 200u);
        EXPECT_NE((*head)[http::field::content_length], "0") << "the length its GET would have";
        EXPECT_EQ(body_of(*get).at("method").as_string(), "GET");
        EXPECT_EQ(body_of(*get).at("query").as_string(), "after");
        EXPECT_EQ(missing->result_int(), 404u);
        EXPECT_EQ(body_of(*next).at("query").as_string(), "next");
        EXPECT_EQ(stream_head->result_int(), 200u);
        EXPECT_EQ((*stream_head)[http::field::content_type], "text/event-stream");
        EXPECT_TRUE(stream_closed) << "nothing of a stream follows its head; the connection closes";
    }());
}

TEST(HttpServer, ServesAnAbsoluteFormTargetAsItsPath) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, test_routes());
        connection c = co_await connection::open(s.port());
        co_await c.send("GET http://127.0.0.1:" + std::to_string(s.port()) + "/items/7?q=abs HTTP/1.1\r\nHost: localhost\r\n\r\n");
        auto absolute = co_await c.read();
        co_await c.send("GET HTTPS://example.com?q=root HTTP/1.1\r\nHost: localhost\r\n\r\n");
        auto root = co_await c.read();
        co_await s.finish();
        CO_ASSERT_TRUE(absolute && root);
        EXPECT_EQ(absolute->result_int(), 200u);
        EXPECT_EQ(body_of(*absolute).at("path").as_string(), "/items/7");
        EXPECT_EQ(body_of(*absolute).at("query").as_string(), "abs");
        EXPECT_EQ(root->result_int(), 404u) << "served as \"/?q=root\"";
        EXPECT_EQ(body_of(*root).at("error").at("message").as_string(), "nothing is served at /");
    }());
}

TEST(HttpServer, CutsOffASlowlorisClientWith408) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, routes_with_rpc(), {.header_timeout = 300ms});
        connection slow = co_await connection::open(s.port());
        co_await slow.send("GET /echo HTTP/1.1\r\nHost: localhost\r\nX-Slow: "); // and never the rest
        auto cut = co_await slow.read();
        connection slow_rpc = co_await connection::open(s.port());
        co_await slow_rpc.send("POST http://localhost/rpc HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
        auto cut_rpc = co_await slow_rpc.read();
        connection silent = co_await connection::open(s.port()); // sends nothing: closed, no answer
        const bool silent_closed = co_await silent.closed_by_server();
        connection slow_body = co_await connection::open(s.port());
        co_await slow_body.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\n12345");
        co_await s.finish();
        CO_ASSERT_TRUE(cut && cut_rpc);
        EXPECT_EQ(cut->result_int(), 408u);
        EXPECT_EQ(body_of(*cut_rpc).at("error").at("code").as_int64(), -32600) << "the shape of the route the head was for";
        EXPECT_TRUE(silent_closed);
    }());
}

TEST(HttpServer, SlowBodyGets408) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, test_routes(), {.body_timeout = 300ms});
        connection slow_body = co_await connection::open(s.port());
        co_await slow_body.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\n12345");
        auto cut = co_await slow_body.read();
        co_await s.finish();
        CO_ASSERT_TRUE(cut);
        EXPECT_EQ(cut->result_int(), 408u);
    }());
}

TEST(HttpServer, AuthenticatesOnTheHeadBeforeReadingTheBody) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        http_routes routes = test_routes();
        routes.add("GET", "/.well-known/agent-card.json", echo);
        running_server s(io, routes, {.authenticate = forma::net::bearer_token("s3cret")});
        connection anonymous = co_await connection::open(s.port());
        co_await anonymous.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000\r\n\r\n"); // no body sent
        auto refused = co_await anonymous.read();
        connection wrong = co_await connection::open(s.port());
        co_await wrong.send(forma_test::raw_http::post("/echo", "{}", "Authorization: Bearer s3cre\r\n"));
        auto refused_wrong = co_await wrong.read();
        connection right = co_await connection::open(s.port());
        co_await right.send(forma_test::raw_http::post("/echo", "{}", "Authorization: Bearer s3cret\r\n"));
        auto accepted = co_await right.read();
        co_await right.send(forma_test::raw_http::get("/.well-known/agent-card.json", ""));
        auto card = co_await right.read();
        connection public_path = co_await connection::open(s.port());
        co_await public_path.send(forma_test::raw_http::get("/.well-known/agent-card.json"));
        auto public_card = co_await public_path.read();
        co_await s.finish();
        CO_ASSERT_TRUE(refused && refused_wrong && accepted && card && public_card);
        EXPECT_EQ(refused->result_int(), 401u);
        EXPECT_EQ((*refused)[http::field::www_authenticate], "Bearer");
        EXPECT_EQ(refused_wrong->result_int(), 401u);
        EXPECT_EQ(accepted->result_int(), 200u);
        EXPECT_EQ(body_of(*accepted).at("caller").as_string(), "bearer") << "the caller the hook let in";
        EXPECT_EQ(public_card->result_int(), 200u);
        EXPECT_EQ(body_of(*public_card).at("caller").as_string(), "");
    }());
}

// A handler that holds its request until the test lets it go.
struct gate {
    explicit gate(asio::io_context& io) : timer(io, asio::steady_timer::time_point::max()) {}
    asio::steady_timer timer;
    int entered = 0;
    bool open = false;
    asio::awaitable<void> wait() {
        ++entered;
        while (!open) co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
    }
    void release() {
        open = true;
        timer.cancel();
    }
};

asio::awaitable<void> until_entered(asio::io_context& io, const gate& g, int n) {
    asio::steady_timer tick(io);
    while (g.entered < n) {
        tick.expires_after(5ms);
        co_await tick.async_wait(asio::use_awaitable);
    }
}

TEST(HttpServer, AnswersOverloadWith503) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        gate held(io);
        http_routes routes = test_routes();
        routes.add("GET", "/held", [&](server_request&, response_writer& w) -> asio::awaitable<void> {
            co_await held.wait();
            co_await w.send({.body = "{}"});
        });
        running_server s(io, routes, {.max_connections = 2, .max_requests = 1});
        connection first = co_await connection::open(s.port());
        co_await first.send(forma_test::raw_http::get("/held"));
        co_await until_entered(io, held, 1);
        connection second = co_await connection::open(s.port());
        co_await second.send(forma_test::raw_http::get("/echo"));
        auto busy = co_await second.read();
        connection third = co_await connection::open(s.port());
        connection fourth = co_await connection::open(s.port());
        auto too_many = co_await fourth.read();
        EXPECT_EQ(s.server().requests_in_flight(), 1u);
        held.release();
        auto released = co_await first.read();
        co_await s.finish();
        CO_ASSERT_TRUE(busy && too_many && released);
        EXPECT_EQ(busy->result_int(), 503u);
        EXPECT_EQ((*busy)[http::field::retry_after], "1");
        EXPECT_EQ(too_many->result_int(), 503u);
        EXPECT_EQ(released->result_int(), 200u);
        (void)third;
    }());
}

TEST(HttpServer, StopLetsRunningStreamsEndAndClosesIdleConnections) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        gate held(io);
        http_routes routes = test_routes();
        routes.add("GET", "/stream", [&](server_request&, response_writer& w) -> asio::awaitable<void> {
            co_await w.start({.content_type = "text/event-stream"});
            co_await w.write(forma::net::format_sse_event("first"));
            co_await held.wait();
            co_await w.write(forma::net::format_sse_event("last"));
            co_await w.finish();
        });
        running_server s(io, routes, {.shutdown_grace = 10s});
        connection idle = co_await connection::open(s.port());
        connection streaming = co_await connection::open(s.port());
        co_await streaming.send(forma_test::raw_http::get("/stream"));
        co_await until_entered(io, held, 1);
        s.server().stop();
        const bool idle_closed = co_await idle.closed_by_server();
        EXPECT_FALSE(s.done()); // the stream still runs
        held.release();
        auto whole = co_await streaming.read();
        const bool closed_after = co_await streaming.closed_by_server();
        co_await s.finish();
        EXPECT_TRUE(idle_closed);
        CO_ASSERT_TRUE(whole);
        EXPECT_EQ(whole->body(), "data: first\n\ndata: last\n\n");
        EXPECT_TRUE(closed_after);
    }());
}

// Once its last connection has closed, a stopped server leaves its io_context nothing to wait
// for: a loop run until it is out of work returns then, not after the grace.
TEST(HttpServer, AStoppedServerLeavesItsLoopNoTimer) {
    asio::io_context io;
    http_server server(io.get_executor(), test_routes(), {.shutdown_grace = 1h});
    server.listen({});
    asio::co_spawn(io, server.run(), asio::detached);
    asio::ip::tcp::socket idle(io);
    idle.connect({asio::ip::make_address("127.0.0.1"), server.port()});
    while (server.connections() == 0) io.run_one();
    server.stop();
    io.run_for(20s);
    EXPECT_TRUE(io.stopped()) << "the loop still had work after every connection closed";
    EXPECT_EQ(server.connections(), 0u);
}

TEST(HttpServer, StopCancelsStreamsPastTheGrace) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        bool saw_cancellation = false;
        gate started(io);
        http_routes routes;
        routes.add("GET", "/forever", [&](server_request&, response_writer& w) -> asio::awaitable<void> {
            co_await w.start({.content_type = "text/event-stream"});
            ++started.entered;
            asio::steady_timer never(co_await asio::this_coro::executor, asio::steady_timer::time_point::max());
            auto [ec] = co_await never.async_wait(asio::as_tuple(asio::use_awaitable));
            saw_cancellation = ec == asio::error::operation_aborted;
        });
        running_server s(io, routes, {.shutdown_grace = 100ms});
        connection c = co_await connection::open(s.port());
        co_await c.send(forma_test::raw_http::get("/forever"));
        co_await until_entered(io, started, 1);
        co_await s.finish(); // returns: the stream was canceled after 100 ms
        EXPECT_TRUE(saw_cancellation);
        EXPECT_EQ(s.server().connections(), 0u);
        // Its handler said nothing more: the server ended the stream with its terminator.
        auto whole = co_await c.read();
        CO_ASSERT_TRUE(whole);
        EXPECT_EQ(whole->body(), "");
    }());
}

// A handler that goes on writing after the stop canceled it is cut off: its connection closes a
// second after the grace, and run() returns.
TEST(HttpServer, StopClosesAStreamThatDoesNotEnd) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        gate started(io);
        bool told_stopped = false;
        http_routes routes;
        routes.add("GET", "/runaway", [&](server_request&, response_writer& w) -> asio::awaitable<void> {
            co_await w.start({.content_type = "text/event-stream"});
            ++started.entered;
            asio::steady_timer tick(co_await asio::this_coro::executor);
            for (;;) {
                tick.expires_after(10ms);
                auto [ec] = co_await tick.async_wait(asio::as_tuple(asio::use_awaitable));
                if (ec) {
                    told_stopped = w.server_stopped();
                    co_await asio::this_coro::reset_cancellation_state(); // and ignores it
                }
                co_await w.write(forma::net::format_sse_event("more"));
            }
        });
        running_server s(io, routes, {.shutdown_grace = 0ms});
        connection c = co_await connection::open(s.port());
        co_await c.send(forma_test::raw_http::get("/runaway"));
        co_await until_entered(io, started, 1);
        const auto stopping = std::chrono::steady_clock::now();
        co_await s.finish();
        EXPECT_TRUE(told_stopped);
        EXPECT_GE(std::chrono::steady_clock::now() - stopping, 900ms) << "the handler had its second";
        EXPECT_EQ(s.server().connections(), 0u);
    }());
}

TEST(HttpServer, ServesOverTls) {
    asio::io_context io;
    const auto certificate = forma::testing::make_self_signed_certificate();
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, test_routes(),
                         {.tls = forma::net::tls_identity{.certificate_chain = certificate.certificate,
                                                          .private_key = certificate.private_key}});
        asio::ssl::context client_context = trusting(certificate.certificate);
        asio::ssl::stream<asio::ip::tcp::socket> tls(io, client_context);
        co_await connect_tls(tls, s.port());
        http::request<http::string_body> request{http::verb::post, "/echo", 11};
        request.set(http::field::host, "localhost");
        request.body() = "over tls";
        request.prepare_payload();
        co_await http::async_write(tls, request, asio::use_awaitable);
        boost::beast::flat_buffer buffer;
        http::response<http::string_body> response;
        co_await http::async_read(tls, buffer, response, asio::use_awaitable);
        co_await s.finish();
        EXPECT_EQ(body_of(response).at("body").as_string(), "over tls");
    }());
}

// A handler that waits forever, counting its cancellation; `stream` starts a response first.
forma::net::route_handler waits_forever(gate& started, int& canceled, bool stream) {
    return [&started, &canceled, stream](server_request&, response_writer& w) -> asio::awaitable<void> {
        if (stream) co_await w.start({.content_type = "text/event-stream"});
        ++started.entered;
        asio::steady_timer never(co_await asio::this_coro::executor, asio::steady_timer::time_point::max());
        auto [ec] = co_await never.async_wait(asio::as_tuple(asio::use_awaitable));
        if (ec == asio::error::operation_aborted) ++canceled;
    };
}

// A client that leaves while its request runs (a silent stream, an answer still being worked
// out; plain and over TLS) is noticed at once, not at a next write that may never come: the
// handler is canceled and the connection freed.
TEST(HttpServer, AClientThatLeavesEndsItsRequestAtOnce) {
    asio::io_context io;
    const auto certificate = forma::testing::make_self_signed_certificate();
    run(io, [&]() -> asio::awaitable<void> {
        gate started(io);
        int canceled = 0;
        http_routes routes;
        routes.add("GET", "/silent-stream", waits_forever(started, canceled, true));
        routes.add("GET", "/thinking", waits_forever(started, canceled, false));
        running_server plain(io, routes);
        running_server secure(io, routes, {.tls = forma::net::tls_identity{.certificate_chain = certificate.certificate,
                                                                           .private_key = certificate.private_key}});
        connection streaming = co_await connection::open(plain.port());
        co_await streaming.send(forma_test::raw_http::get("/silent-stream"));
        connection waiting = co_await connection::open(plain.port());
        co_await waiting.send(forma_test::raw_http::get("/thinking"));
        asio::ssl::context client_context = trusting(certificate.certificate);
        asio::ssl::stream<asio::ip::tcp::socket> tls(io, client_context);
        co_await connect_tls(tls, secure.port());
        const std::string over_tls = forma_test::raw_http::get("/silent-stream");
        co_await asio::async_write(tls, asio::buffer(over_tls), asio::use_awaitable);
        co_await until_entered(io, started, 3);
        streaming.socket().close();
        waiting.socket().close();
        co_await tls.async_shutdown(asio::as_tuple(asio::use_awaitable)); // close_notify, then the socket goes
        tls.next_layer().close();
        asio::steady_timer tick(io);
        while (canceled < 3 || plain.server().connections() + secure.server().connections() > 0) {
            tick.expires_after(5ms);
            co_await tick.async_wait(asio::use_awaitable);
        }
        co_await plain.finish();
        co_await secure.finish();
        EXPECT_EQ(canceled, 3);
    }());
}

// A kept-alive client that closes once answered frees its connection at once, plain and over TLS
// (the server's idle timeout, a minute by default, would free it later): the peek that watched its
// request must not leave the read of the next head waiting after the end of input.
TEST(HttpServer, AClientThatClosesAfterItsAnswerFreesItsConnectionAtOnce) {
    asio::io_context io;
    const auto certificate = forma::testing::make_self_signed_certificate();
    run(io, [&]() -> asio::awaitable<void> {
        running_server plain(io, test_routes());
        running_server secure(io, test_routes(), {.tls = forma::net::tls_identity{.certificate_chain = certificate.certificate,
                                                                                  .private_key = certificate.private_key}});
        for (int i = 0; i < 3; ++i) {
            connection c = co_await connection::open(plain.port());
            co_await c.send(forma_test::raw_http::get("/echo"));
            auto answered = co_await c.read();
            CO_ASSERT_TRUE(answered);
            EXPECT_EQ(answered->result_int(), 200u);
            c.socket().close();
        }
        asio::ssl::context client_context = trusting(certificate.certificate);
        asio::ssl::stream<asio::ip::tcp::socket> tls(io, client_context);
        co_await connect_tls(tls, secure.port());
        const std::string request = forma_test::raw_http::get("/echo");
        co_await asio::async_write(tls, asio::buffer(request), asio::use_awaitable);
        boost::beast::flat_buffer buffer;
        http::response<http::string_body> response;
        co_await http::async_read(tls, buffer, response, asio::use_awaitable);
        EXPECT_EQ(response.result_int(), 200u);
        tls.next_layer().close();
        asio::steady_timer tick(io);
        while (plain.server().connections() + secure.server().connections() > 0) {
            tick.expires_after(5ms);
            co_await tick.async_wait(asio::use_awaitable);
        }
        co_await plain.finish();
        co_await secure.finish();
    }());
}

// What a client sends while its request runs (the next, pipelined) waits for it; a client that
// then closes its side of the connection still gets both answers.
TEST(HttpServer, ARequestSentDuringAnotherIsAnsweredAfterIt) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        gate held(io);
        http_routes routes = test_routes();
        routes.add("GET", "/slow", [&](server_request& r, response_writer& w) -> asio::awaitable<void> {
            co_await held.wait();
            asio::steady_timer a_while(co_await asio::this_coro::executor, 50ms); // each answer takes a while
            co_await a_while.async_wait(asio::use_awaitable);
            co_await w.send({.body = r.query});
        });
        running_server s(io, routes);
        connection c = co_await connection::open(s.port());
        co_await c.send(forma_test::raw_http::get("/slow?first"));
        co_await until_entered(io, held, 1);
        co_await c.send(forma_test::raw_http::get("/slow?second"));
        c.socket().shutdown(asio::ip::tcp::socket::shutdown_send);
        asio::steady_timer settle(io, 100ms); // the server reads the next request and the end of input while the first waits
        co_await settle.async_wait(asio::use_awaitable);
        held.release();
        auto first = co_await c.read();
        auto second = co_await c.read();
        co_await s.finish();
        CO_ASSERT_TRUE(first && second);
        EXPECT_EQ(first->body(), "first");
        EXPECT_EQ(second->body(), "second") << "answered though the client had closed its side";
    }());
}

TEST(HttpServer, ServeStopsWhenItsOperationIsCanceled) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        asio::cancellation_signal stop;
        unsigned short port = 0;
        bool ended = false;
        asio::steady_timer ended_signal(io, asio::steady_timer::time_point::max());
        asio::co_spawn(io, forma::net::serve(io.get_executor(), {}, test_routes(), {}, [&](unsigned short p) { port = p; }),
                       asio::bind_cancellation_slot(stop.slot(), [&](std::exception_ptr) {
                           ended = true;
                           ended_signal.cancel();
                       }));
        asio::steady_timer tick(io);
        while (port == 0) {
            tick.expires_after(1ms);
            co_await tick.async_wait(asio::use_awaitable);
        }
        connection c = co_await connection::open(port);
        co_await c.send(forma_test::raw_http::get("/echo"));
        auto answered = co_await c.read();
        stop.emit(asio::cancellation_type::terminal);
        while (!ended) co_await ended_signal.async_wait(asio::as_tuple(asio::use_awaitable));
        CO_ASSERT_TRUE(answered);
        EXPECT_EQ(answered->result_int(), 200u);
    }());
}

TEST(BeastRoutes, AnswersRequestsReadByTheUsersOwnServer) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        const http_routes routes = test_routes();
        asio::ip::tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), 0});
        // The user's server: Beast reads, forma answers.
        asio::co_spawn(io, [&]() -> asio::awaitable<void> {
            boost::beast::tcp_stream stream(co_await acceptor.async_accept(asio::use_awaitable));
            boost::beast::flat_buffer buffer;
            for (;;) {
                http::request<http::string_body> request;
                auto [ec, n] = co_await http::async_read(stream, buffer, request, asio::as_tuple(asio::use_awaitable));
                if (ec || !co_await forma::net::serve_request(routes, std::move(request), stream)) break;
            }
        }, asio::detached);
        connection c = co_await connection::open(acceptor.local_endpoint().port());
        co_await c.send(forma_test::raw_http::post("/echo", "mounted"));
        auto echoed = co_await c.read();
        co_await c.send(forma_test::raw_http::get("/events"));
        auto events = co_await c.read();
        co_await c.send(forma_test::raw_http::get("/none"));
        auto missing = co_await c.read();
        CO_ASSERT_TRUE(echoed && events && missing);
        EXPECT_EQ(body_of(*echoed).at("body").as_string(), "mounted");
        EXPECT_NE(events->body().find("data: {\"n\":3}"), std::string::npos);
        EXPECT_EQ(missing->result_int(), 404u);
    }());
}

} // namespace
