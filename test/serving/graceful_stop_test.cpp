// A server that stops while streams are open: after shutdown_grace, each protocol's stream ends
// with that protocol's last event and the chunked terminator (a whole HTTP response a client
// can read), and an answer not yet begun is a 503 in the protocol's error shape.
#include <forma/a2a/server.hpp>
#include <forma/mcp/server.hpp>
#include <forma/serving/ag_ui_endpoint.hpp>
#include <forma/serving/openai_endpoints.hpp>

#include "mcp/served_tools.hpp"
#include "net/http_client_stub.hpp"
#include "support/bounded_run.hpp"
#include "support/co_assert.hpp"
#include "support/poll_until.hpp"
#include "support/running_server.hpp"
#include "support/trigger_agent.hpp"

#include <boost/beast/http/parser.hpp>
#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

namespace graceful_stop_test {

namespace asio = boost::asio;
namespace json = boost::json;
namespace http = boost::beast::http;
namespace raw_http = forma_test::raw_http;
using namespace std::chrono_literals;
using forma_test::running_server;

void run(asio::io_context& io, asio::awaitable<void> test) { forma_test::run_bounded(io, std::move(test), 30s); }

/// A stream read as it comes: the raw bytes of a response, until a marker, then to the end.
class raw_stream {
public:
    static asio::awaitable<raw_stream> open(unsigned short port, std::string request) {
        raw_stream s(co_await raw_http::connection::open(port));
        co_await s.c_.send(request);
        co_return s;
    }

    /// Reads until `marker` has come (false: the connection ended first).
    asio::awaitable<bool> until(std::string_view marker) {
        while (raw_.find(marker) == std::string::npos)
            if (!co_await read_some()) co_return false;
        co_return true;
    }

    /// Reads until the server closes the connection; the whole response, or nullopt when it was cut.
    asio::awaitable<std::optional<raw_http::response>> to_the_end() {
        while (co_await read_some()) {
        }
        c_.socket().close(); // read to the end: the server's close need not wait for this side
        http::response_parser<http::string_body> parser;
        parser.eager(true);
        boost::system::error_code ec;
        std::string_view left = raw_;
        while (!parser.is_done() && !left.empty()) {
            const std::size_t used = parser.put(asio::buffer(left.data(), left.size()), ec);
            if (ec || used == 0) break;
            left.remove_prefix(used);
        }
        if (!parser.is_done()) co_return std::nullopt;
        co_return parser.release();
    }

private:
    explicit raw_stream(raw_http::connection c) : c_(std::move(c)) {}

    asio::awaitable<bool> read_some() {
        char bytes[4096];
        boost::system::error_code ec;
        const std::size_t n = co_await c_.socket().async_read_some(asio::buffer(bytes), asio::redirect_error(asio::use_awaitable, ec));
        raw_.append(bytes, n);
        co_return !ec;
    }

    raw_http::connection c_;
    std::string raw_;
};

/// The JSON of each event's data; "[DONE]" as the string it is.
std::vector<json::value> events_of(const raw_http::response& r) {
    std::vector<json::value> out;
    for (const std::string& d : raw_http::sse_data(r.body())) out.push_back(d == "[DONE]" ? json::value(d) : json::parse(d));
    return out;
}

bool says_shutting_down(const json::value& message) {
    return message.is_string() && message.as_string().find("shutting down") != json::string::npos;
}

/** Streams `request` (its agent says "working", then waits), stops the server once "working"
    has come, and gives the response read to the end (nullopt: it was cut). The server's run()
    has returned by then.
*/
asio::awaitable<std::optional<raw_http::response>> stopped_mid_stream(running_server& s, std::string request) {
    raw_stream stream = co_await raw_stream::open(s.port(), std::move(request));
    const bool working = co_await stream.until("working");
    EXPECT_TRUE(working);
    s.server().stop();
    std::optional<raw_http::response> whole = co_await stream.to_the_end();
    co_await s.finish();
    co_return whole;
}

const forma::net::server_options stop_at_once{.shutdown_grace = 0ms};

TEST(GracefulStop, ChatCompletionsStreamEndsWithAnErrorChunkAndDone) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::openai_endpoints endpoints(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes(), stop_at_once);
        const auto whole = co_await stopped_mid_stream(
            s, raw_http::post("/v1/chat/completions", R"({"model":"forma","stream":true,"messages":[{"role":"user","content":"forever"}]})"));
        CO_ASSERT_TRUE(whole);
        const std::vector<json::value> events = events_of(*whole);
        EXPECT_GE(events.size(), 3u) << whole->body();
        CO_ASSERT_TRUE(events.size() >= 3);
        EXPECT_EQ(events.back(), json::value("[DONE]"));
        const json::value& last = events[events.size() - 2];
        CO_ASSERT_TRUE(last.is_object() && last.as_object().contains("error"));
        EXPECT_TRUE(says_shutting_down(last.at("error").at("message"))) << last;
        EXPECT_EQ(last.at("error").at("type"), "server_error");
        EXPECT_EQ(served.canceled(), 1) << "the completion's run ends with its stream";
    }());
}

TEST(GracefulStop, ResponsesStreamEndsWithAnErrorEventNumberedInTurn) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::openai_endpoints endpoints(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes(), stop_at_once);
        const auto whole = co_await stopped_mid_stream(
            s, raw_http::post("/v1/responses", R"({"model":"forma","stream":true,"store":false,"input":"forever"})"));
        CO_ASSERT_TRUE(whole);
        const std::vector<json::value> events = events_of(*whole);
        CO_ASSERT_TRUE(events.size() >= 3);
        const json::value& last = events.back();
        EXPECT_EQ(last.at("type"), "error") << whole->body();
        EXPECT_EQ(last.at("code"), "server_shutting_down");
        EXPECT_TRUE(says_shutting_down(last.at("message"))) << last;
        EXPECT_EQ(last.at("sequence_number").as_int64(), events[events.size() - 2].at("sequence_number").as_int64() + 1);
        EXPECT_NE(whole->body().find("event: error\n"), std::string::npos);
        // Neither stored nor background, the response was its caller's alone: its run ends too.
        co_await forma_test::until([&] { return served.canceled() == 1; });
        EXPECT_EQ(served.canceled(), 1);
    }());
}

TEST(GracefulStop, AgUiStreamEndsWithRunError) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::ag_ui_endpoint endpoint(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoint.routes(), stop_at_once);
        const auto whole = co_await stopped_mid_stream(
            s, raw_http::post("/ag-ui", R"({"threadId":"t1","runId":"r1","messages":[{"id":"m1","role":"user","content":"forever"}]})"));
        CO_ASSERT_TRUE(whole);
        const std::vector<json::value> events = events_of(*whole);
        CO_ASSERT_TRUE(events.size() >= 2);
        EXPECT_EQ(events.front().at("type"), "RUN_STARTED");
        const json::value& last = events.back();
        EXPECT_EQ(last.at("type"), "RUN_ERROR");
        EXPECT_EQ(last.at("code"), "server_shutting_down");
        EXPECT_TRUE(says_shutting_down(last.at("message"))) << last;
        co_await forma_test::until([&] { return served.canceled() == 1; });
        EXPECT_EQ(served.canceled(), 1);
    }());
}

TEST(GracefulStop, A2aStreamEndsWithAJsonRpcErrorForItsRequest) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes(), stop_at_once);
        const auto whole = co_await stopped_mid_stream(
            s, raw_http::post("/a2a", R"({"jsonrpc":"2.0","id":"s-1","method":"message/stream","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"forever"}]}}})"));
        CO_ASSERT_TRUE(whole);
        const std::vector<json::value> events = events_of(*whole);
        CO_ASSERT_TRUE(events.size() >= 2);
        const json::value& last = events.back();
        EXPECT_EQ(last.at("jsonrpc"), "2.0");
        EXPECT_EQ(last.at("id"), "s-1");
        EXPECT_EQ(last.at("error").at("code"), -32603);
        EXPECT_TRUE(says_shutting_down(last.at("error").at("message"))) << last;
    }());
}

TEST(GracefulStop, McpCallStreamEndsWithItsErrorAnswer) {
    asio::io_context io;
    forma::mcp::server mcp(io.get_executor(), forma_test::mcp_tools::all());
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, mcp.routes(), stop_at_once);
        const raw_http::response init = co_await raw_http::exchange(
            s.port(), raw_http::post("/mcp", R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}})",
                                     "Accept: application/json, text/event-stream\r\n"));
        const std::string session = std::string(init["Mcp-Session-Id"]);
        CO_ASSERT_TRUE(!session.empty());
        const std::string headers = "Accept: application/json, text/event-stream\r\nMcp-Session-Id: " + session + "\r\n";
        const int calls_before = forma_test::mcp_tools::forever_calls;
        // Asked for progress, the call's answer is a stream, opened at once.
        raw_stream stream = co_await raw_stream::open(
            s.port(), raw_http::post("/mcp", R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"forever","arguments":{},"_meta":{"progressToken":"p"}}})", headers));
        const bool opened = co_await stream.until("\r\n\r\n");
        EXPECT_TRUE(opened);
        co_await forma_test::until([&] { return forma_test::mcp_tools::forever_calls > calls_before; });
        const int canceled_before = forma_test::mcp_tools::canceled_calls;
        s.server().stop();
        const auto whole = co_await stream.to_the_end();
        co_await s.finish();
        CO_ASSERT_TRUE(whole);
        const std::vector<json::value> events = events_of(*whole);
        CO_ASSERT_TRUE(!events.empty());
        const json::value& last = events.back();
        EXPECT_EQ(last.at("id"), 7);
        EXPECT_EQ(last.at("error").at("code"), -32603);
        EXPECT_TRUE(says_shutting_down(last.at("error").at("message"))) << last;
        EXPECT_EQ(forma_test::mcp_tools::canceled_calls, canceled_before + 1) << "the tool's call is canceled";
    }());
}

// A request still being worked out when the server stops gets a 503 in its protocol's shape,
// with Retry-After, instead of a connection closed unanswered.
TEST(GracefulStop, AnAnswerNotBegunIsA503InTheProtocolsShape) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::openai_endpoints endpoints(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes(), stop_at_once);
        raw_stream stream = co_await raw_stream::open(
            s.port(), raw_http::post("/v1/chat/completions", R"({"model":"forma","messages":[{"role":"user","content":"forever"}]})"));
        co_await forma_test::until([&] { return served.runs == 1; });
        s.server().stop();
        const auto whole = co_await stream.to_the_end();
        co_await s.finish();
        CO_ASSERT_TRUE(whole);
        EXPECT_EQ(whole->result_int(), 503u);
        EXPECT_EQ((*whole)[http::field::retry_after], "1");
        const json::value body = json::parse(whole->body());
        EXPECT_TRUE(says_shutting_down(body.at("error").at("message"))) << body;
        EXPECT_EQ(served.canceled(), 1);
    }());
}

} // namespace graceful_stop_test
