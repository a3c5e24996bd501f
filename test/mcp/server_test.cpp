// forma::mcp::server reached by forma's own MCP client over Streamable HTTP (in process) and
// stdio (test_tool_server spawned), and by raw HTTP requests a client no one wrote may send.
#include <forma/mcp.hpp>

#include "net/http_client_stub.hpp"
#include "conformance_fixture.hpp"
#include "served_tools.hpp"
#include "support/bounded_run.hpp"
#include "support/running_server.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;
using forma_test::running_server;

void run(asio::io_context& io, asio::awaitable<void> test) { forma_test::run_bounded(io, std::move(test), 30s); }

forma::mcp::server_options test_options() {
    return {.name = "forma-test-tools", .version = "1.2.3", .instructions = "Tools for tests", .page_size = 2};
}

// What every transport must show: the handshake, every page of tools, calls and their errors.
asio::awaitable<void> check_tools(forma::mcp::client& client, std::vector<forma::mcp::progress>& progress) {
    co_await client.connect();
    EXPECT_EQ(client.server().name, "forma-test-tools");
    EXPECT_EQ(client.server().version, "1.2.3");
    EXPECT_EQ(client.server().protocol_version, forma::mcp::latest_protocol_version);
    EXPECT_EQ(client.server().instructions, "Tools for tests");
    const auto tools = co_await client.list_tools(); // three pages of two
    std::vector<std::string> names;
    for (const auto& t : tools) names.push_back(t.name);
    EXPECT_EQ(names, (std::vector<std::string>{"add", "echo", "fail", "slow", "forever"}));
    EXPECT_TRUE(tools[0].output_schema.has_value()) << "a described result has a schema";
    EXPECT_FALSE(tools[1].output_schema.has_value());
    EXPECT_EQ(tools[0].input_schema.at("required"), json::parse(R"(["a","b"])"));

    const auto added = co_await client.call_tool("add", {{"a", 2}, {"b", 40}});
    EXPECT_FALSE(added.is_error);
    EXPECT_EQ(added.structured_content, json::value(json::object{{"sum", 42}}));
    EXPECT_EQ(added.text(), R"({"sum":42})");
    const auto echoed = co_await client.call_tool("echo", {{"text", "caf\xC3\xA9"}});
    EXPECT_EQ(echoed.text(), "caf\xC3\xA9");
    const auto failed = co_await client.call_tool("fail", {});
    EXPECT_TRUE(failed.is_error);
    EXPECT_EQ(failed.text(), "the tool failed: failed on purpose");
    const auto wrong = co_await client.call_tool("add", {{"a", "two"}});
    EXPECT_TRUE(wrong.is_error) << "arguments the model can fix are a failed call, not a protocol error";
    EXPECT_NE(wrong.text().find("/a"), std::string::npos) << wrong.text();
    std::string unknown;
    try {
        (void)co_await client.call_tool("no_such_tool", {});
    } catch (const forma::mcp::mcp_error& e) {
        unknown = e.what();
    }
    EXPECT_NE(unknown.find("no tool named \"no_such_tool\""), std::string::npos) << unknown;
    const auto slow = co_await client.call_tool("slow", {{"steps", 3}});
    EXPECT_EQ(slow.text(), "done after 3 steps");
    EXPECT_EQ(progress.size(), 3u);
    if (!progress.empty()) {
        EXPECT_EQ(progress.back().tool, "slow");
        EXPECT_EQ(progress.back().value, 3);
        EXPECT_EQ(progress.back().total, 3);
        EXPECT_EQ(progress.back().message, "step 3");
    }
    co_await client.ping();
}

TEST(McpServer, ServesToolsOverStreamableHttp) {
    asio::io_context io;
    forma::mcp::server mcp(io.get_executor(), forma_test::mcp_tools::all(), test_options());
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, mcp.routes());
        std::vector<forma::mcp::progress> progress;
        forma::mcp::client client(io.get_executor(), forma::mcp::make_http_transport(io.get_executor(), {.url = s.base_url() + "/mcp"}),
                                  {.on_progress = [&](const forma::mcp::progress& p) { progress.push_back(p); }});
        co_await check_tools(client, progress);
        EXPECT_EQ(mcp.sessions(), 1u);
        co_await client.close(); // ends the session (DELETE)
        EXPECT_EQ(mcp.sessions(), 0u);
        co_await s.finish();
    }());
}

TEST(McpServer, ServesToolsOverStdio) {
    asio::io_context io;
    run(io, [&]() -> asio::awaitable<void> {
        std::vector<forma::mcp::progress> progress;
        forma::mcp::client client(io.get_executor(),
                                  forma::mcp::make_stdio_transport(io.get_executor(), {.command = FORMA_MCP_TEST_TOOL_SERVER}),
                                  {.on_progress = [&](const forma::mcp::progress& p) { progress.push_back(p); }});
        co_await check_tools(client, progress);
        co_await client.close();
    }());
}

TEST(McpServer, ACanceledCallIsCanceledOnTheServer) {
    asio::io_context io;
    forma::mcp::server mcp(io.get_executor(), forma_test::mcp_tools::all(), test_options());
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, mcp.routes());
        forma::mcp::client client(io.get_executor(), forma::mcp::make_http_transport(io.get_executor(), {.url = s.base_url() + "/mcp"}));
        co_await client.connect();
        const int before = forma_test::mcp_tools::canceled_calls;
        asio::cancellation_signal stop;
        bool ended = false;
        asio::steady_timer ended_signal(io, asio::steady_timer::time_point::max());
        asio::co_spawn(io, client.call_tool("forever", {}), asio::bind_cancellation_slot(stop.slot(), [&](std::exception_ptr, forma::mcp::call_result) {
                           ended = true;
                           ended_signal.cancel();
                       }));
        asio::steady_timer tick(io);
        tick.expires_after(100ms);
        co_await tick.async_wait(asio::use_awaitable);
        stop.emit(asio::cancellation_type::terminal);
        while (!ended) co_await ended_signal.async_wait(asio::as_tuple(asio::use_awaitable));
        while (forma_test::mcp_tools::canceled_calls == before) { // the notification travels on its own request
            tick.expires_after(5ms);
            co_await tick.async_wait(asio::use_awaitable);
        }
        const auto after = co_await client.call_tool("echo", {{"text", "still here"}});
        co_await client.close();
        co_await s.finish();
        EXPECT_EQ(forma_test::mcp_tools::canceled_calls, before + 1);
        EXPECT_EQ(after.text(), "still here");
    }());
}

// Raw Streamable HTTP: what a client no one wrote may send.
struct http_answer {
    unsigned status = 0;
    std::string session;
    std::string content_type;
    json::value body; // null when the body is not JSON
    std::string raw;
};

asio::awaitable<http_answer> exchange(unsigned short port, std::string method, std::string body,
                                      std::string headers = "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n",
                                      std::string host = "localhost") {
    auto c = co_await forma_test::raw_http::connection::open(port);
    co_await c.send(method + " /mcp HTTP/1.1\r\nHost: " + host + "\r\n" + headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
    auto response = co_await c.read();
    http_answer out;
    if (!response) co_return out;
    out.status = response->result_int();
    out.session = std::string((*response)["Mcp-Session-Id"]);
    out.content_type = std::string((*response)[boost::beast::http::field::content_type]);
    boost::system::error_code ec;
    out.raw = response->body();
    out.body = json::parse(out.raw, ec);
    co_return out;
}

std::int64_t code_of(const http_answer& a) { return a.body.at("error").at("code").as_int64(); }

TEST(McpServer, AnswersMalformedRequestsInJsonRpcShape) {
    asio::io_context io;
    forma::mcp::server mcp(io.get_executor(), forma_test::mcp_tools::all(), test_options());
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, mcp.routes());
        const unsigned short port = s.port();
        const http_answer init = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}})");
        const std::string session_header = "Content-Type: application/json\r\nMcp-Session-Id: " + init.session + "\r\n";
        const http_answer no_session = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})");
        const http_answer unknown_session = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})",
                                                              "Content-Type: application/json\r\nMcp-Session-Id: nope\r\n");
        const http_answer listed = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"4"}})", session_header);
        const http_answer bad_cursor = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":"x"}})", session_header);
        const http_answer unknown_method = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":5,"method":"sampling/createMessage"})", session_header);
        const http_answer notified = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","method":"notifications/initialized"})", session_header);
        const http_answer not_json = co_await exchange(port, "POST", "{", session_header);
        const http_answer batch = co_await exchange(port, "POST", "[]", session_header);
        const http_answer wrong_type = co_await exchange(port, "POST", "{}", "Content-Type: text/plain\r\n");
        const http_answer stream = co_await exchange(port, "GET", "", "Accept: text/event-stream\r\n");
        const http_answer ended = co_await exchange(port, "DELETE", "", "Mcp-Session-Id: " + init.session + "\r\n");
        const http_answer after_end = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":6,"method":"ping"})", session_header);
        co_await s.finish();
        EXPECT_EQ(init.status, 200u);
        EXPECT_EQ(init.body.at("result").at("protocolVersion").as_string(), "2024-11-05") << "the client's version, spoken";
        EXPECT_EQ(init.session.size(), 32u);
        EXPECT_EQ(no_session.status, 400u);
        EXPECT_EQ(code_of(no_session), -32600);
        EXPECT_EQ(no_session.body.at("id"), 2) << "the request's id, which could be told";
        EXPECT_EQ(unknown_session.body.at("id"), 2);
        EXPECT_EQ(unknown_session.status, 404u);
        EXPECT_EQ(listed.body.at("result").at("tools").as_array().size(), 1u) << "the last page";
        EXPECT_FALSE(listed.body.at("result").as_object().contains("nextCursor"));
        EXPECT_EQ(code_of(bad_cursor), -32602);
        EXPECT_EQ(code_of(unknown_method), -32601);
        EXPECT_EQ(notified.status, 202u);
        EXPECT_EQ(not_json.status, 400u);
        EXPECT_EQ(code_of(not_json), -32700);
        EXPECT_EQ(batch.status, 400u);
        EXPECT_EQ(wrong_type.status, 415u);
        EXPECT_EQ(stream.status, 400u) << "a stream of the server's own messages belongs to a session";
        EXPECT_EQ(ended.status, 200u);
        EXPECT_EQ(after_end.status, 404u);
    }());
}

// JSON-RPC 2.0 read as it is written: a version other than "2.0", an id neither a string nor an
// integer (MCP: never null) or params neither an object nor an array is -32600, answered 400 over
// HTTP with the id when it can be told, and as an answer on stdio's one session alike.
TEST(McpServer, RefusesMessagesThatAreNotJsonRpcTwo) {
    asio::io_context io;
    forma::mcp::server mcp(io.get_executor(), forma_test::mcp_tools::all(), test_options());
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, mcp.routes());
        const unsigned short port = s.port();
        const http_answer init = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}})");
        const std::string session_header = "Content-Type: application/json\r\nMcp-Session-Id: " + init.session + "\r\n";
        const http_answer old_version = co_await exchange(port, "POST", R"({"jsonrpc":"1.0","id":2,"method":"tools/list"})", session_header);
        const http_answer no_version = co_await exchange(port, "POST", R"({"id":"v","method":"tools/list"})", session_header);
        const http_answer object_id = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"})", session_header);
        const http_answer null_id = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":null,"method":"tools/list"})", session_header);
        const http_answer fractional_id = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":1.5,"method":"tools/list"})", session_header);
        const http_answer number_params = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":3,"method":"tools/list","params":7})", session_header);
        const http_answer number_method = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":4,"method":7})", session_header);
        const http_answer listed = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":5,"method":"tools/list"})", session_header);
        co_await s.finish();
        for (const http_answer* refused : {&old_version, &no_version, &object_id, &null_id, &fractional_id, &number_params, &number_method}) {
            EXPECT_EQ(refused->status, 400u);
            EXPECT_EQ(code_of(*refused), -32600);
        }
        EXPECT_EQ(old_version.body.at("id"), 2) << "an id that can be told is kept";
        EXPECT_EQ(no_version.body.at("id"), "v");
        EXPECT_TRUE(object_id.body.at("id").is_null()) << "never an object echoed";
        EXPECT_NE(old_version.body.at("error").at("message").as_string().find("\"2.0\""), json::string::npos);
        EXPECT_NE(object_id.body.at("error").at("message").as_string().find("string or an integer"), json::string::npos);
        EXPECT_EQ(listed.status, 200u) << "the session goes on";
        EXPECT_TRUE(listed.body.at("result").at("tools").is_array());
    }());
}

// A request is answered with JSON unless the server sends something while it runs: then an event
// stream, those messages first and the answer last.
TEST(McpServer, StreamsAnAnswerOnlyWhenItSendsSomethingFirst) {
    asio::io_context io;
    forma::mcp::server mcp(io.get_executor(), {}, test_options());
    forma_test::conformance::serve(mcp);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, mcp.routes());
        const unsigned short port = s.port();
        const http_answer init = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}})");
        const std::string session_header = "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: " + init.session + "\r\n";
        const http_answer plain = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_simple_text"}})", session_header);
        const http_answer logged = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"test_tool_with_logging"}})", session_header);
        co_await s.finish();
        EXPECT_EQ(plain.content_type, "application/json");
        EXPECT_EQ(plain.body.at("result").at("content").at(0).at("text"), "This is a simple text response for testing.");
        EXPECT_EQ(logged.content_type, "text/event-stream");
        const std::vector<std::string> events = forma_test::raw_http::sse_data(logged.raw);
        EXPECT_EQ(events.size(), 4u) << logged.raw;
        for (std::size_t i = 0; i + 1 < events.size(); ++i) EXPECT_EQ(json::parse(events[i]).at("method"), "notifications/message");
        if (!events.empty()) EXPECT_EQ(json::parse(events.back()).at("id"), 3) << "the answer comes last";
    }());
}

// GET opens a session's one stream of the server's own messages: a second is refused (409) while
// the first is open, and the first ends, properly terminated, when the session does.
TEST(McpServer, KeepsOneStreamASessionAndEndsItWithTheSession) {
    asio::io_context io;
    forma::mcp::server mcp(io.get_executor(), forma_test::mcp_tools::all(), test_options());
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, mcp.routes());
        const unsigned short port = s.port();
        const http_answer init = co_await exchange(port, "POST", R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}})");
        const std::string get = "GET /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\nMcp-Session-Id: " + init.session + "\r\n\r\n";
        auto first = co_await forma_test::raw_http::connection::open(port);
        co_await first.send(get);
        const auto opened = co_await first.read_head_answer();
        const http_answer second = co_await exchange(port, "GET", "", "Accept: text/event-stream\r\nMcp-Session-Id: " + init.session + "\r\n");
        const http_answer other_session = co_await exchange(port, "GET", "", "Accept: text/event-stream\r\nMcp-Session-Id: nope\r\n");
        const http_answer ended = co_await exchange(port, "DELETE", "", "Mcp-Session-Id: " + init.session + "\r\n");
        // The first stream's last chunk comes once the session has ended.
        std::string rest;
        char chunk[256];
        while (rest.find("0\r\n\r\n") == std::string::npos) {
            boost::system::error_code ec;
            const std::size_t n = co_await first.socket().async_read_some(asio::buffer(chunk), asio::redirect_error(asio::use_awaitable, ec));
            rest.append(chunk, n);
            if (ec) break;
        }
        co_await s.finish();
        EXPECT_TRUE(opened && opened->result_int() == 200 && (*opened)[boost::beast::http::field::content_type] == "text/event-stream");
        EXPECT_EQ(second.status, 409u);
        EXPECT_EQ(code_of(second), -32600);
        EXPECT_EQ(other_session.status, 404u);
        EXPECT_EQ(ended.status, 200u);
        EXPECT_NE(rest.find("0\r\n\r\n"), std::string::npos) << "the stream ends with the chunked terminator: " << rest;
    }());
}

// The Streamable HTTP transport's rule against DNS rebinding: a page of another site, its name
// made to resolve to this machine, gets 403 before any session; the server's own names go on.
TEST(McpServer, RefusesTheHostAndOriginOfAnotherSite) {
    asio::io_context io;
    forma::mcp::server mcp(io.get_executor(), forma_test::mcp_tools::all(), test_options());
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, mcp.routes());
        const unsigned short port = s.port();
        const std::string initialize = R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}})";
        const std::string json_headers = "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n";
        const http_answer rebound = co_await exchange(port, "POST", initialize, json_headers + "Origin: http://evil.example.com\r\n", "evil.example.com");
        const http_answer other_origin = co_await exchange(port, "POST", initialize, json_headers + "Origin: http://evil.example.com\r\n");
        const http_answer own = co_await exchange(port, "POST", initialize, json_headers + "Origin: http://localhost:" + std::to_string(port) + "\r\n",
                                                  "localhost:" + std::to_string(port));
        co_await s.finish();
        EXPECT_EQ(rebound.status, 403u);
        EXPECT_EQ(code_of(rebound), -32600);
        EXPECT_TRUE(rebound.session.empty()) << "no session is made";
        EXPECT_EQ(other_origin.status, 403u);
        EXPECT_EQ(own.status, 200u);
        EXPECT_EQ(own.session.size(), 32u);
    }());
}

// A session unused past session_idle_timeout ends; a used one goes on.
TEST(McpServer, AnIdleSessionEnds) {
    asio::io_context io;
    forma::mcp::server_options options = test_options();
    options.session_idle_timeout = 400ms;
    forma::mcp::server mcp(io.get_executor(), forma_test::mcp_tools::all(), options);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, mcp.routes());
        const unsigned short port = s.port();
        const std::string initialize = R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}})";
        const http_answer idle = co_await exchange(port, "POST", initialize);
        const http_answer used = co_await exchange(port, "POST", initialize);
        const auto ping = [&](const http_answer& session) {
            return exchange(port, "POST", R"({"jsonrpc":"2.0","id":2,"method":"ping"})",
                            "Content-Type: application/json\r\nMcp-Session-Id: " + session.session + "\r\n");
        };
        asio::steady_timer pause(io);
        for (int i = 0; i < 6; ++i) { // 600 ms in all, the used session pinged every 100 ms
            pause.expires_after(100ms);
            co_await pause.async_wait(asio::use_awaitable);
            (void)co_await ping(used);
        }
        const http_answer idle_after = co_await ping(idle);
        const http_answer used_after = co_await ping(used);
        co_await s.finish();
        EXPECT_EQ(idle_after.status, 404u) << "unused for 600 ms, past its 400";
        EXPECT_EQ(used_after.status, 200u);
        EXPECT_EQ(mcp.sessions(), 1u);
    }());
}

} // namespace
