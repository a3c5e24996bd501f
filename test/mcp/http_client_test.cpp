// mcp::client over Streamable HTTP against the official MCP reference server (run on a free
// loopback port), and against a stand-in HTTP server that misbehaves.
#include <forma/mcp.hpp>

#include "client_runner.hpp"
#include "everything_server.hpp"
#include "support/scripted_http_server.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

namespace asio = boost::asio;
namespace json = boost::json;
using forma::mcp::client;
using mcp_test::thrown_by;
using request = forma_test::scripted_http_server::request;

namespace {

template <class T>
T run_over_http(asio::io_context& io, forma::mcp::http_server server, std::function<asio::awaitable<T>(client&)> body,
                forma::mcp::client_options options = {}) {
    return mcp_test::run_client<T>(
        io, [&](asio::any_io_executor ex) { return forma::mcp::make_http_transport(ex, server); }, std::move(body),
        std::move(options));
}

template <class T>
T run_over_http(const std::string& url, std::function<asio::awaitable<T>(client&)> body, forma::mcp::client_options options = {}) {
    asio::io_context io;
    return run_over_http<T>(io, {.url = url}, std::move(body), std::move(options));
}

// A stand-in that does the handshake right (session "s-1") and answers everything else with `rest`.
forma_test::scripted_http_server::answer_function handshake_then(std::function<std::string(const request&, const json::object&)> rest) {
    return [rest = std::move(rest)](const request& r) -> std::string {
        if (r.method != "POST") return forma_test::scripted_http_server::response(405, "text/plain", "");
        const json::object message = json::parse(r.body).as_object();
        if (message.at("method") == "initialize") {
            const json::object answer{{"jsonrpc", "2.0"},
                                      {"id", message.at("id")},
                                      {"result",
                                       {{"protocolVersion", "2025-06-18"},
                                        {"capabilities", {{"tools", json::object()}}},
                                        {"serverInfo", {{"name", "stand-in"}, {"version", "1"}}}}}};
            const std::string body = json::serialize(answer);
            return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: s-1\r\nContent-Length: " +
                   std::to_string(body.size()) + "\r\n\r\n" + body;
        }
        if (!message.contains("id")) return forma_test::scripted_http_server::response(202, "application/json", "");
        return rest(r, message);
    };
}

std::string call_echo(const std::string& url, std::function<std::string(const request&, const json::object&)> rest,
                      std::size_t max_message_size = 1024 * 1024) {
    asio::io_context io;
    forma_test::scripted_http_server server(io, handshake_then(std::move(rest)));
    return thrown_by([&] {
        (void)run_over_http<bool>(io, {.url = url.empty() ? server.url("/mcp") : url, .max_message_size = max_message_size},
                                  [](client& c) -> asio::awaitable<bool> {
                                      const json::object arguments{{"message", "hi"}};
                                      (void)co_await c.call_tool("echo", arguments);
                                      co_return true;
                                  });
    });
}

} // namespace

TEST(mcp_http, the_handshake_and_the_tool_list_over_streamable_http) {
    MCP_REQUIRE_EVERYTHING_SERVER();
    auto server = mcp_test::everything_http_server();
    struct seen {
        forma::mcp::server_info info;
        std::vector<forma::mcp::tool_info> tools;
    };
    const auto r = run_over_http<seen>(server.url("/mcp"), [](client& c) -> asio::awaitable<seen> {
        auto tools = co_await c.list_tools(); // (not inside braces: GCC 12 miscompiles that)
        co_return seen{c.server(), std::move(tools)};
    });
    EXPECT_EQ(r.info.protocol_version, forma::mcp::latest_protocol_version);
    EXPECT_TRUE(r.info.capabilities.contains("tools"));
    EXPECT_TRUE(std::any_of(r.tools.begin(), r.tools.end(), [](const auto& t) { return t.name == "get-sum"; }));
}

TEST(mcp_http, overlapping_calls_each_get_their_answer_and_progress_arrives_on_the_stream) {
    MCP_REQUIRE_EVERYTHING_SERVER();
    auto server = mcp_test::everything_http_server();
    int progress_seen = 0;
    forma::mcp::client_options options;
    options.on_progress = [&](const forma::mcp::progress& p) {
        EXPECT_EQ(p.tool, "trigger-long-running-operation");
        ++progress_seen;
    };
    struct results {
        forma::mcp::call_result slow, sum;
    };
    const auto r = run_over_http<results>(
        server.url("/mcp"),
        [](client& c) -> asio::awaitable<results> {
            const json::object slow_arguments{{"duration", 1}, {"steps", 4}};
            const json::object sum_arguments{{"a", 2}, {"b", 40}};
            auto [order, slow_error, slow, sum_error, sum] =
                co_await asio::experimental::make_parallel_group(
                    asio::co_spawn(c.get_executor(), c.call_tool("trigger-long-running-operation", slow_arguments), asio::deferred),
                    asio::co_spawn(c.get_executor(), c.call_tool("get-sum", sum_arguments), asio::deferred))
                    .async_wait(asio::experimental::wait_for_all(), asio::use_awaitable);
            if (slow_error) std::rethrow_exception(slow_error);
            if (sum_error) std::rethrow_exception(sum_error);
            EXPECT_EQ(order[0], 1u); // the sum is answered while the slow call runs
            co_return results{std::move(slow), std::move(sum)};
        },
        options);
    EXPECT_FALSE(r.slow.is_error);
    EXPECT_NE(r.slow.text().find("completed"), std::string::npos) << r.slow.text();
    EXPECT_NE(r.sum.text().find("42"), std::string::npos) << r.sum.text();
    EXPECT_EQ(progress_seen, 4);
}

TEST(mcp_http, a_server_killed_mid_call_is_an_error_naming_it_at_once) {
    MCP_REQUIRE_EVERYTHING_SERVER();
    auto server = mcp_test::everything_http_server();
    forma::mcp::client_options options;
    options.on_progress = [&](const forma::mcp::progress&) { server.kill(); };
    const auto started = std::chrono::steady_clock::now();
    const std::string what = thrown_by([&] {
        (void)run_over_http<bool>(
            server.url("/mcp"),
            [](client& c) -> asio::awaitable<bool> {
                const json::object arguments{{"duration", 30}, {"steps", 30}};
                (void)co_await c.call_tool("trigger-long-running-operation", arguments);
                co_return true;
            },
            options);
    });
    EXPECT_NE(what.find("MCP server at " + server.url("/mcp")), std::string::npos) << what;
    EXPECT_NE(what.find("broke while an answer was streamed"), std::string::npos) << what;
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20)) << "waited for the call's own end";
}

TEST(mcp_http_faults, nothing_listening_is_an_error_naming_the_server) {
    const std::string url = "http://127.0.0.1:" + std::to_string(forma_test::free_port()) + "/mcp";
    const std::string what = thrown_by([&] { (void)run_over_http<bool>(url, [](client&) -> asio::awaitable<bool> { co_return true; }); });
    EXPECT_NE(what.find("MCP server at " + url + ": the request failed"), std::string::npos) << what;
}

TEST(mcp_http_faults, each_request_carries_the_session_and_version_and_close_ends_the_session) {
    asio::io_context io;
    std::vector<request> seen;
    forma_test::scripted_http_server server(io, [&, handshake = handshake_then([](const request&, const json::object& m) {
                                                   const json::object answer{{"jsonrpc", "2.0"}, {"id", m.at("id")}, {"result", json::object()}};
                                                   return forma_test::scripted_http_server::response(200, "application/json", json::serialize(answer));
                                               })](const request& r) -> forma_test::scripted_http_server::reply {
        seen.push_back(r);
        if (r.method == "DELETE") return forma_test::scripted_http_server::response(200, "application/json", "");
        return handshake(r);
    });
    (void)run_over_http<bool>(io, {.url = server.url("/mcp"), .headers = {{"Authorization", "Bearer k"}}}, [](client& c) -> asio::awaitable<bool> {
        co_await c.ping();
        co_return true;
    });
    // initialize, initialized, the listening GET (refused: 405), ping, DELETE.
    ASSERT_GE(seen.size(), 4u);
    EXPECT_FALSE(seen.front().has_header("Mcp-Session-Id: s-1")) << "no session before the server gives one";
    for (const request& r : seen) EXPECT_TRUE(r.has_header("Authorization: Bearer k")) << r.head;
    for (std::size_t i = 1; i < seen.size(); ++i) {
        EXPECT_TRUE(seen[i].has_header("Mcp-Session-Id: s-1")) << seen[i].head;
        EXPECT_TRUE(seen[i].has_header("MCP-Protocol-Version: 2025-06-18")) << seen[i].head;
    }
    EXPECT_EQ(seen.back().method, "DELETE");
}

TEST(mcp_http_faults, an_http_error_status_is_an_error_with_the_servers_words) {
    const std::string what = call_echo("", [](const request&, const json::object&) {
        return forma_test::scripted_http_server::response(500, "text/plain", "database unavailable");
    });
    EXPECT_NE(what.find("MCP server at http://127.0.0.1:"), std::string::npos) << what;
    EXPECT_NE(what.find("answered HTTP 500: database unavailable"), std::string::npos) << what;
}

TEST(mcp_http_faults, a_session_the_server_forgot_is_an_error_that_says_so) {
    const std::string what = call_echo("", [](const request&, const json::object&) {
        return forma_test::scripted_http_server::response(404, "text/plain", "");
    });
    EXPECT_NE(what.find("ended the session (HTTP 404)"), std::string::npos) << what;
}

TEST(mcp_http_faults, a_body_that_is_not_json_rpc_is_an_error) {
    const std::string what = call_echo("", [](const request&, const json::object&) {
        return forma_test::scripted_http_server::response(200, "application/json", "<html>proxy error</html>");
    });
    EXPECT_NE(what.find("not a JSON-RPC object: \"<html>proxy error</html>\""), std::string::npos) << what;
}

TEST(mcp_http_faults, a_connection_dropped_before_the_answer_is_an_error) {
    const std::string what = call_echo("", [](const request&, const json::object&) { return std::string(); });
    EXPECT_NE(what.find("the request failed"), std::string::npos) << what;
}

TEST(mcp_http_faults, a_stream_cut_short_is_an_error) {
    const std::string what = call_echo("", [](const request&, const json::object&) {
        // Chunked SSE that ends without its last chunk: the connection then closes.
        return std::string("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
                           "Connection: close\r\n\r\n10\r\nevent: message\r\n\r\n");
    });
    EXPECT_NE(what.find("broke while an answer was streamed"), std::string::npos) << what;
}

TEST(mcp_http_faults, a_stream_whose_body_ends_inside_the_answers_event_fails_that_request) {
    const std::string what = call_echo("", [](const request&, const json::object& m) {
        const json::object answer{{"jsonrpc", "2.0"}, {"id", m.at("id")}, {"result", {{"content", json::array()}}}};
        // Framed whole, but the event's closing blank line never comes: the answer was cut.
        return forma_test::scripted_http_server::response(200, "text/event-stream", "data: " + json::serialize(answer) + "\n");
    });
    EXPECT_NE(what.find("ended in the middle of an event"), std::string::npos) << what;
}

TEST(mcp_http_faults, an_event_stream_media_type_is_recognised_in_any_case_and_with_parameters) {
    asio::io_context io;
    forma_test::scripted_http_server server(io, handshake_then([](const request&, const json::object& m) {
        const json::object answer{{"jsonrpc", "2.0"},
                                  {"id", m.at("id")},
                                  {"result", {{"content", {{{"type", "text"}, {"text", "streamed"}}}}}}};
        return forma_test::scripted_http_server::response(200, "Text/Event-Stream; charset=utf-8",
                                                          "data: " + json::serialize(answer) + "\n\n");
    }));
    const auto result = run_over_http<forma::mcp::call_result>(
        io, {.url = server.url("/mcp")}, [](client& c) { return c.call_tool("anything", json::object()); });
    EXPECT_EQ(result.text(), "streamed");
}

TEST(mcp_http_faults, an_answer_past_the_size_limit_is_an_error) {
    const std::string what = call_echo(
        "",
        [](const request&, const json::object& m) {
            const json::object answer{{"jsonrpc", "2.0"}, {"id", m.at("id")}, {"result", {{"padding", std::string(4096, 'x')}}}};
            return forma_test::scripted_http_server::response(200, "application/json", json::serialize(answer));
        },
        1024);
    EXPECT_NE(what.find("the answer could not be read"), std::string::npos) << what;
}

namespace {

// A call answered with a progress notification and the result, together: as an SSE stream,
// or as a JSON batch.
int progress_seen_with_answer(bool as_stream) {
    asio::io_context io;
    forma_test::scripted_http_server server(io, handshake_then([as_stream](const request&, const json::object& m) {
        const json::object progress{{"jsonrpc", "2.0"},
                                    {"method", "notifications/progress"},
                                    {"params", {{"progressToken", m.at("id")}, {"progress", 1}}}};
        const json::object answer{{"jsonrpc", "2.0"},
                                  {"id", m.at("id")},
                                  {"result", {{"content", {{{"type", "text"}, {"text", "answered"}}}}}}};
        if (!as_stream) {
            return forma_test::scripted_http_server::response(200, "application/json", json::serialize(json::array{progress, answer}));
        }
        const std::string events = "event: message\ndata: " + json::serialize(progress) + "\n\n" + "data: " +
                                   json::serialize(answer) + "\n\n";
        return forma_test::scripted_http_server::response(200, "text/event-stream", events);
    }));
    int progress_seen = 0;
    forma::mcp::client_options options;
    options.on_progress = [&](const forma::mcp::progress&) { ++progress_seen; };
    const auto result = run_over_http<forma::mcp::call_result>(
        io, {.url = server.url("/mcp")}, [](client& c) { return c.call_tool("anything", json::object()); }, options);
    EXPECT_EQ(result.text(), "answered");
    return progress_seen;
}

} // namespace

TEST(mcp_http_faults, an_answer_in_an_sse_stream_reaches_its_request) { EXPECT_EQ(progress_seen_with_answer(true), 1); }

TEST(mcp_http_faults, an_answer_in_a_json_batch_reaches_its_request) { EXPECT_EQ(progress_seen_with_answer(false), 1); }
