// A secret the client was configured with (an API key, a bearer token, a password) never
// reaches an error, in any field, whole or in part: planted by a hostile server in every field
// of every error it can make forma throw, and in every error type constructed directly.
#include <forma/a2a.hpp>
#include <forma/agent/stored_agent.hpp>
#include <forma/chat/concurrency_limiter.hpp>
#include <forma/mcp.hpp>
#include <forma/openai.hpp>
#include <forma/registered_secret.hpp>
#include <forma/telemetry/otlp_http_exporter.hpp>

#include "support/bounded_run.hpp"
#include "support/scripted_http_server.hpp"

#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using forma_test::scripted_http_server;
using request = scripted_http_server::request;
using namespace std::chrono_literals;

const std::string key = "sk-planted-0123456789abcdefghijklmnopqrstuv";

// No 8 bytes of the key in a row: neither the key, nor a prefix or suffix a cut left.
::testing::AssertionResult keeps_no_part_of_the_key(std::string_view text) {
    for (std::size_t at = 0; at + 8 <= key.size(); ++at)
        if (text.find(key.substr(at, 8)) != std::string_view::npos)
            return ::testing::AssertionFailure() << "holds \"" << key.substr(at, 8) << "\" of the key: " << text;
    return ::testing::AssertionSuccess();
}

// 290 bytes and then the key: a cut at 300 bytes would keep its first 10.
std::string key_across_the_cut() { return std::string(290, 'x') + key + " and more"; }

std::string json_response(int status, const json::value& body) {
    return scripted_http_server::response(status, "application/json", json::serialize(body));
}

json::object error_object() { return {{"message", "Incorrect API key provided: " + key}, {"type", key}, {"code", key}, {"param", key}}; }

template <class Error, class Operation>
Error thrown_by(asio::io_context& io, Operation operation) {
    try {
        forma_test::run_bounded(io, operation(), 10s);
    } catch (const Error& e) {
        return e;
    }
    throw std::logic_error("the operation did not throw the expected error");
}

void expect_clean(const forma::http_error& e) {
    EXPECT_TRUE(keeps_no_part_of_the_key(e.what()));
    EXPECT_TRUE(keeps_no_part_of_the_key(e.message()));
    EXPECT_TRUE(keeps_no_part_of_the_key(e.type()));
    EXPECT_TRUE(keeps_no_part_of_the_key(e.code()));
    EXPECT_TRUE(keeps_no_part_of_the_key(e.param()));
}

class openai_server : public ::testing::Test {
protected:
    forma::openai::client_options options() {
        forma::openai::client_options o{.base_url = server_.url("/v1"), .api_key = key, .model = "m"};
        o.retry.max_retries = 0;
        return o;
    }

    // The error of a whole chat request, and of a streamed one.
    template <class Client>
    forma::http_error error_of(bool streamed) {
        Client client(io_.get_executor(), options());
        return thrown_by<forma::http_error>(io_, [&]() -> asio::awaitable<bool> {
            std::vector<forma::chat_message> messages{forma::chat_message(forma::chat_role::user(), "q")};
            forma::chat_options chat;
            if (!streamed) {
                (void)co_await client.get_response(std::move(messages), std::move(chat));
                co_return true;
            }
            forma::update_stream stream = client.get_streaming_response(std::move(messages), std::move(chat));
            while (co_await stream.next()) {
            }
            co_return true;
        });
    }

    asio::io_context io_;
    std::string answer_;
    scripted_http_server server_{io_, [this](const request&) { return answer_; }};
};

TEST_F(openai_server, an_error_object_echoing_the_key_in_every_field) {
    answer_ = json_response(401, {{"error", error_object()}});
    expect_clean(error_of<forma::openai::chat_client>(false));
    expect_clean(error_of<forma::openai::chat_client>(true));
    expect_clean(error_of<forma::openai::responses_client>(false));
    expect_clean(error_of<forma::openai::responses_client>(true));
}

TEST_F(openai_server, a_body_that_is_not_json_with_the_key_across_the_cut) {
    answer_ = scripted_http_server::response(502, "text/html", key_across_the_cut());
    const forma::http_error e = error_of<forma::openai::chat_client>(false);
    EXPECT_NE(std::string(e.what()).find("[redac"), std::string::npos) << e.what();
    expect_clean(e);
    expect_clean(error_of<forma::openai::responses_client>(true));
}

TEST_F(openai_server, an_error_object_in_a_successful_answer) {
    answer_ = json_response(200, {{"error", error_object()}});
    expect_clean(error_of<forma::openai::chat_client>(false));
}

TEST_F(openai_server, an_error_chunk_in_a_chat_stream) {
    answer_ = scripted_http_server::response(200, "text/event-stream",
                                             "data: " + json::serialize(json::object{{"error", error_object()}}) + "\n\n");
    expect_clean(error_of<forma::openai::chat_client>(true));
}

TEST_F(openai_server, a_failed_response_and_a_stream_error_event) {
    json::object failed{{"id", "resp_1"}, {"object", "response"}, {"status", "failed"}, {"output", json::array()},
                        {"error", {{"code", key}, {"message", "the key " + key + " is not valid"}}}};
    answer_ = json_response(200, failed);
    expect_clean(error_of<forma::openai::responses_client>(false));

    json::object event = error_object();
    event["type"] = "error";
    event["sequence_number"] = 0;
    answer_ = scripted_http_server::response(200, "text/event-stream", "data: " + json::serialize(event) + "\n\n");
    expect_clean(error_of<forma::openai::responses_client>(true));
}

TEST_F(openai_server, a_stream_event_quoting_the_key_past_the_cut_of_its_value) {
    // "choices" is not an array: the error quotes the string, cut at 40 bytes, 30 bytes before the key.
    const json::object chunk{{"id", "c"}, {"choices", std::string(30, 'x') + key}};
    answer_ = scripted_http_server::response(200, "text/event-stream", "data: " + json::serialize(chunk) + "\n\n");
    forma::openai::chat_client client(io_.get_executor(), options());
    const auto e = thrown_by<forma::json_error>(io_, [&]() -> asio::awaitable<bool> {
        std::vector<forma::chat_message> messages{forma::chat_message(forma::chat_role::user(), "q")};
        forma::chat_options chat;
        forma::update_stream stream = client.get_streaming_response(std::move(messages), std::move(chat));
        while (co_await stream.next()) {
        }
        co_return true;
    });
    EXPECT_NE(std::string(e.what()).find("xxxxxxxxxx[redac"), std::string::npos) << e.what();
    EXPECT_TRUE(keeps_no_part_of_the_key(e.what()));
}

// MCP over HTTP with the key as a bearer token: a JSON-RPC error and an HTTP error echo it.
TEST(mcp_server, errors_echoing_the_bearer_token) {
    for (const bool as_http_error : {false, true}) {
        asio::io_context io;
        scripted_http_server server(io, [&](const request& r) -> std::string {
            const json::object message = json::parse(r.body).as_object();
            if (message.at("method") == "initialize")
                return json_response(200, {{"jsonrpc", "2.0"}, {"id", message.at("id")},
                                           {"result", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()},
                                                       {"serverInfo", {{"name", key}, {"version", "1"}}}}}});
            if (!message.contains("id")) return scripted_http_server::response(202, "application/json", "");
            if (as_http_error) return scripted_http_server::response(500, "text/plain", key_across_the_cut());
            return json_response(200, {{"jsonrpc", "2.0"}, {"id", message.at("id")},
                                       {"error", {{"code", -32000}, {"message", "bad token " + key}, {"data", key}}}});
        });
        forma::mcp::http_server options{.url = server.url("/mcp"), .headers = {{"Authorization", "Bearer " + key}}};
        options.listen = false;
        forma::mcp::client client(io.get_executor(), forma::mcp::make_http_transport(io.get_executor(), options));
        const auto e = thrown_by<forma::mcp::mcp_error>(io, [&]() -> asio::awaitable<bool> {
            co_await client.connect();
            json::object arguments;
            (void)co_await client.call_tool("echo", std::move(arguments));
            co_return true;
        });
        EXPECT_TRUE(keeps_no_part_of_the_key(e.what()));
        EXPECT_TRUE(keeps_no_part_of_the_key(e.server()));
        forma_test::run_bounded(io, client.close(), 10s);
    }
}

// A2A with the key in an X-API-Key header: a JSON-RPC error, an HTTP error and a card that is not JSON.
TEST(a2a_agent, errors_echoing_the_api_key_header) {
    for (const std::string answer : {"rpc", "http", "card"}) {
        asio::io_context io;
        std::string base;
        scripted_http_server server(io, [&](const request& r) -> std::string {
            if (r.method == "GET") {
                if (answer == "card") return scripted_http_server::response(200, "application/json", key_across_the_cut());
                return json_response(200, {{"name", "stand-in"}, {"url", base + "/rpc"}, {"protocolVersion", "0.3.0"}});
            }
            if (answer == "http") return scripted_http_server::response(401, "text/plain", key_across_the_cut());
            return json_response(200, {{"jsonrpc", "2.0"}, {"id", json::parse(r.body).at("id")},
                                       {"error", {{"code", -32001}, {"message", "unknown key " + key}}}});
        });
        base = server.url();
        forma::a2a::agent remote(io.get_executor(), {.base_url = base, .headers = {{"X-API-Key", key}}});
        const auto e = thrown_by<forma::a2a::a2a_error>(io, [&]() -> asio::awaitable<bool> {
            (void)co_await remote.run("hi");
            co_return true;
        });
        EXPECT_TRUE(keeps_no_part_of_the_key(e.what())) << answer;
    }
}

// A stdio MCP server given the key in its environment prints it to the stderr its error quotes.
TEST(mcp_stdio_server, a_server_printing_its_token_to_stderr) {
    asio::io_context io;
    const forma::mcp::stdio_server server{.command = "/bin/sh",
                                          .args = {"-c", "echo \"token: $SERVICE_TOKEN\" >&2; exit 3"},
                                          .env = {{"SERVICE_TOKEN", key}}};
    forma::mcp::client client(io.get_executor(), forma::mcp::make_stdio_transport(io.get_executor(), server));
    const auto e = thrown_by<forma::mcp::mcp_error>(io, [&]() -> asio::awaitable<bool> {
        co_await client.connect();
        co_return true;
    });
    EXPECT_NE(std::string(e.what()).find("token: [redacted]"), std::string::npos) << e.what();
    EXPECT_TRUE(keeps_no_part_of_the_key(e.what()));
    forma_test::run_bounded(io, client.close(), 10s);
}

TEST(otlp_exporter, a_collector_echoing_the_authorization_header) {
    asio::io_context io;
    scripted_http_server server(io, [](const request&) -> std::string {
        return scripted_http_server::response(401, "text/plain", std::string(190, 'x') + key); // quoted up to 200 bytes
    });
    forma::telemetry::otlp_http_exporter exporter(io.get_executor(),
                                                  {.base_url = server.url(), .headers = {{"Authorization", "Bearer " + key}}});
    forma::telemetry::span_data span{.name = "span"};
    exporter.export_span(std::move(span));
    forma_test::run_bounded(io, exporter.flush(), 10s);
    EXPECT_EQ(exporter.failed_exports(), 1u);
    EXPECT_NE(exporter.last_error().find("401"), std::string::npos) << exporter.last_error();
    EXPECT_TRUE(keeps_no_part_of_the_key(exporter.last_error()));
}

// Every error type, built with the key in each string it takes.
TEST(error_types, no_field_of_any_error_keeps_a_registered_secret) {
    const forma::registered_secret secret(key);
    const std::string planted = "before " + key + " after";
    const forma::error base(planted);
    EXPECT_TRUE(keeps_no_part_of_the_key(base.what()));
    const forma::http_error http(401, planted, planted, planted, planted);
    expect_clean(http);
    const forma::json_error json_failure("/" + key, planted);
    EXPECT_TRUE(keeps_no_part_of_the_key(json_failure.what()));
    EXPECT_TRUE(keeps_no_part_of_the_key(json_failure.path()));
    EXPECT_TRUE(keeps_no_part_of_the_key(json_failure.reason()));
    const forma::tool_arguments_error arguments(json_failure);
    EXPECT_TRUE(keeps_no_part_of_the_key(arguments.what()));
    EXPECT_TRUE(keeps_no_part_of_the_key(forma::schema_error(planted).what()));
    const forma::refusal_error refusal(planted);
    EXPECT_TRUE(keeps_no_part_of_the_key(refusal.what()));
    EXPECT_TRUE(keeps_no_part_of_the_key(refusal.refusal()));
    const forma::output_truncated_error truncated(planted);
    EXPECT_TRUE(keeps_no_part_of_the_key(truncated.partial_text()));
    EXPECT_TRUE(keeps_no_part_of_the_key(forma::stream_error(forma::stream_error_kind::protocol, planted).what()));
    EXPECT_TRUE(keeps_no_part_of_the_key(
        forma::transport_error(forma::transport_error_kind::closed, planted, {}, false).what()));
    EXPECT_TRUE(keeps_no_part_of_the_key(forma::redis::redis_error(forma::redis::redis_error_kind::server, planted).what()));
    EXPECT_TRUE(keeps_no_part_of_the_key(forma::concurrency_limit_error(planted).what()));
    const forma::tool_error tool(planted, planted, planted);
    EXPECT_TRUE(keeps_no_part_of_the_key(tool.what()));
    EXPECT_TRUE(keeps_no_part_of_the_key(tool.tool_name()));
    EXPECT_TRUE(keeps_no_part_of_the_key(tool.call_id()));
    const forma::mcp::request_error mcp(planted, planted, 7);
    EXPECT_TRUE(keeps_no_part_of_the_key(mcp.what()));
    EXPECT_TRUE(keeps_no_part_of_the_key(mcp.server()));
    const forma::a2a::a2a_error a2a(planted, planted);
    EXPECT_TRUE(keeps_no_part_of_the_key(a2a.what()));
    EXPECT_TRUE(keeps_no_part_of_the_key(a2a.agent_url()));
    const forma::session_conflict_error conflict(forma::session_id(planted), 1, 2);
    EXPECT_TRUE(keeps_no_part_of_the_key(conflict.what()));
    EXPECT_TRUE(keeps_no_part_of_the_key(forma::stored_run_conflict_error(conflict, {}, std::nullopt).what()));
}

TEST(registered_secret, lives_as_long_as_its_handle_and_counts_registrations) {
    const std::string secret = "a-secret-only-this-test-knows";
    EXPECT_EQ(forma::redact_secrets("say " + secret), "say " + secret);
    {
        forma::registered_secret first(secret);
        forma::registered_secret moved = std::move(first);
        {
            const forma::registered_secret second(secret);
            EXPECT_EQ(forma::redact_secrets("say " + secret + secret), "say [redacted][redacted]");
        }
        EXPECT_EQ(forma::redact_secrets("say " + secret), "say [redacted]") << "the other handle keeps it";
        EXPECT_FALSE(first.active());
        EXPECT_TRUE(moved.active());
    }
    EXPECT_EQ(forma::redact_secrets("say " + secret), "say " + secret);
    EXPECT_FALSE(forma::registered_secret("abc").active()) << "too short to be redacted everywhere";
}

TEST(registered_secret, a_secret_inside_another_goes_whole) {
    const forma::registered_secret token("0123456789");
    const forma::registered_secret bearer("Bearer 0123456789");
    EXPECT_EQ(forma::redact_secrets("Authorization: Bearer 0123456789."), "Authorization: [redacted].");
}

} // namespace
