#include <forma/testing/model_server.hpp>

#include "testing/server_client.hpp"

#include <forma/json/from_json.hpp>
#include <forma/json/json_schema.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/describe/class.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>
#include <openssl/ssl.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace server_client;
namespace json = boost::json;
using forma::testing::model_server_options;
using forma::testing::scripted_reply;

struct person {
    std::string name;
    int age = 0;
    std::vector<std::string> hobbies;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age, hobbies))

std::string chat(std::string_view text, std::string_view extra = "") {
    json::object body{{"model", "test"},
                      {"messages", json::array{json::object{{"role", "system"}, {"content", "be brief"}},
                                               json::object{{"role", "user"}, {"content", text}}}}};
    if (!extra.empty()) {
        const json::value more = json::parse(extra);
        for (const auto& [key, value] : more.as_object()) body[key] = value;
    }
    return json::serialize(body);
}

std::string content_of(const response& r) {
    return std::string(json::parse(r.body()).at("choices").at(0).at("message").at("content").as_string());
}

class model_server_test : public ::testing::Test {
protected:
    /// The TLS handshake of `c` must fail (a name, trust or version the server does not meet).
    void expect_connect_fails(client& c) {
        EXPECT_THROW(run(io, [&]() -> asio::awaitable<int> {
                         co_await c.connect();
                         co_return 0;
                     }()),
                     boost::system::system_error);
    }

    asio::io_context io;
};

TEST_F(model_server_test, answers_a_text_request_over_verified_tls) {
    model_server server(io.get_executor(), {.model = "local-model"});
    EXPECT_TRUE(server.base_url().starts_with("https://127.0.0.1:")) << server.base_url();
    EXPECT_TRUE(server.base_url().ends_with(":" + std::to_string(server.port()) + "/v1"));
    const response r = ask(io, server, chat("hello there model"));
    EXPECT_EQ(r.result_int(), 200);
    EXPECT_EQ(r[http::field::content_type], "application/json");
    const json::value body = json::parse(r.body());
    EXPECT_EQ(body.at("object"), "chat.completion");
    EXPECT_EQ(body.at("id"), "chatcmpl-local-0");
    EXPECT_EQ(body.at("model"), "local-model");
    EXPECT_GT(body.at("created").as_int64(), 1'700'000'000);
    EXPECT_EQ(content_of(r), "You said: hello there model");
    EXPECT_EQ(body.at("choices").at(0).at("finish_reason"), "stop");
    EXPECT_EQ(body.at("usage").at("prompt_tokens"), 3);
    EXPECT_EQ(body.at("usage").at("completion_tokens"), 5);
    EXPECT_EQ(body.at("usage").at("total_tokens"), 8);
}

TEST_F(model_server_test, the_certificate_also_names_localhost_and_an_untrusting_client_fails) {
    model_server server(io.get_executor());
    client by_name(server, "localhost");
    EXPECT_NO_THROW(run(io, [&]() -> asio::awaitable<int> {
        co_await by_name.connect();
        co_return 0;
    }()));

    client wrong_name(server, "example.com");
    expect_connect_fails(wrong_name);

    client untrusting(server);
    untrusting.trust_server = false;
    expect_connect_fails(untrusting);
}

TEST_F(model_server_test, streams_a_generated_answer_one_event_per_chunk) {
    model_server server(io.get_executor(), {.delta_size = 5, .chunk_delay = 2ms});
    const std::string said = "stream me this, café au lait ☕ please";
    client c(server);
    std::vector<std::size_t> chunk_sizes;
    const response r = run(io, [&]() -> asio::awaitable<response> {
        co_await c.connect();
        co_await c.send(http::verb::post, "/v1/chat/completions",
                        chat(said, R"({"stream":true,"stream_options":{"include_usage":true}})"));
        error_code ec;
        response out = co_await c.read(ec, &chunk_sizes);
        EXPECT_FALSE(ec) << ec.message();
        co_return out;
    }());
    EXPECT_EQ(r.result_int(), 200);
    EXPECT_EQ(r[http::field::content_type], "text/event-stream");
    EXPECT_TRUE(r.chunked());

    const std::vector<std::string> data = sse_data(r.body());
    ASSERT_GE(data.size(), 4u);
    ASSERT_EQ(chunk_sizes.size(), data.size()) << "one HTTP chunk per event";
    for (std::size_t i = 0; i < data.size(); ++i) EXPECT_EQ(chunk_sizes[i], data[i].size() + 8); // "data: " "\n\n"
    EXPECT_EQ(data.back(), "[DONE]");

    std::string text;
    std::optional<std::string> finish;
    std::optional<json::value> usage;
    for (std::size_t i = 0; i + 1 < data.size(); ++i) {
        const json::value chunk = json::parse(data[i]);
        EXPECT_EQ(chunk.at("object"), "chat.completion.chunk");
        EXPECT_EQ(chunk.at("id"), "chatcmpl-local-0");
        const json::array& choices = chunk.at("choices").as_array();
        if (choices.empty()) {
            usage = chunk.at("usage");
            continue;
        }
        const json::object& delta = choices.at(0).at("delta").as_object();
        if (i == 0) {
            EXPECT_EQ(delta.at("role"), "assistant");
        }
        if (const json::value* content = delta.if_contains("content")) {
            const std::string piece(content->as_string());
            EXPECT_LE(piece.size(), 5u + 3u) << "a delta is delta_size bytes, stretched only to end a sequence";
            // never a cut UTF-8 sequence: each piece starts on a lead byte
            if (!piece.empty()) {
                EXPECT_NE(static_cast<unsigned char>(piece[0]) & 0xC0, 0x80u);
            }
            text += piece;
        }
        if (!choices.at(0).at("finish_reason").is_null()) finish = std::string(choices.at(0).at("finish_reason").as_string());
    }
    EXPECT_EQ(text, "You said: " + said);
    EXPECT_EQ(finish, "stop");
    ASSERT_TRUE(usage);
    EXPECT_EQ(usage->at("completion_tokens"), 10);
    EXPECT_TRUE(json::parse(data[data.size() - 2]).at("choices").as_array().empty()) << "usage comes last";
}

TEST_F(model_server_test, a_stream_without_include_usage_has_no_usage_chunk) {
    model_server server(io.get_executor());
    const response r = ask(io, server, chat("short", R"({"stream":true})"));
    for (const std::string& d : sse_data(r.body()))
        if (d != "[DONE]") {
            EXPECT_FALSE(json::parse(d).at("choices").as_array().empty()) << d;
        }
}

TEST_F(model_server_test, a_json_schema_answer_parses_into_the_described_type) {
    model_server server(io.get_executor(), {.seed = 3});
    const json::object& schema = forma::json_schema<person>();
    json::object format{{"type", "json_schema"},
                        {"json_schema", json::object{{"name", "person"}, {"schema", schema}, {"strict", true}}}};
    const std::string extra = json::serialize(json::object{{"response_format", format}});
    const response r = ask(io, server, chat("Alice likes chess", extra));
    ASSERT_EQ(r.result_int(), 200) << r.body();
    const std::string content = content_of(r);
    const person p = forma::from_json<person>(content);
    EXPECT_TRUE(p.name == "Alice" || p.name == "likes chess") << content; // the prompt's phrases
    EXPECT_FALSE(p.hobbies.empty()) << content;
}

TEST_F(model_server_test, a_schema_it_cannot_satisfy_is_a_400_naming_the_problem) {
    model_server server(io.get_executor());
    const response r = ask(io, server,
                           chat("x", R"({"response_format":{"type":"json_schema","json_schema":{"name":"n",
                                  "schema":{"type":"object","properties":{"a":{"oneOf":[{"type":"string"}]}}}}}})"));
    EXPECT_EQ(r.result_int(), 400);
    const json::value body = json::parse(r.body());
    EXPECT_EQ(body.at("error").at("type"), "invalid_request_error");
    EXPECT_NE(std::string(body.at("error").at("message").as_string()).find("oneOf"), std::string::npos) << r.body();
}

TEST_F(model_server_test, json_object_answers_and_content_parts_are_read) {
    model_server server(io.get_executor());
    const std::string body = R"({"model":"m","response_format":{"type":"json_object"},"messages":[
        {"role":"user","content":"first"},
        {"role":"user","content":[{"type":"text","text":"second"},{"type":"image_url","image_url":{"url":"x"}},
                                  {"type":"text","text":"part"}]}]})";
    const response r = ask(io, server, body);
    EXPECT_EQ(json::parse(content_of(r)), json::parse(R"({"answer":"second part"})"));
    EXPECT_EQ(json::parse(r.body()).at("usage").at("prompt_tokens"), 3);
}

TEST_F(model_server_test, the_handler_comes_before_the_queue_and_the_queue_before_the_generator) {
    model_server server(io.get_executor());
    server.enqueue(scripted_reply::completion("queued one"));
    server.set_handler([](const forma::testing::received_request& r) -> std::optional<scripted_reply> {
        if (r.body.find("handle me") != std::string::npos) return scripted_reply::completion("handled");
        return std::nullopt;
    });
    client c(server);
    const auto contents = run(io, [&]() -> asio::awaitable<std::vector<std::string>> {
        co_await c.connect();
        std::vector<std::string> out;
        for (std::string_view text : {"handle me", "next", "handle me", "last"})
            out.push_back(content_of(co_await c.exchange(chat(text))));
        co_return out;
    }());
    EXPECT_EQ(contents, (std::vector<std::string>{"handled", "queued one", "handled", "You said: last"}));
}

TEST_F(model_server_test, an_error_reply_carries_its_status_headers_and_body) {
    model_server server(io.get_executor());
    server.enqueue(scripted_reply::error(429, "rate_limit_error", "Slow down.", "rate_limit_exceeded")
                       .with_header("Retry-After", "2"));
    const response r = ask(io, server, chat("hi"));
    EXPECT_EQ(r.result_int(), 429);
    EXPECT_EQ(r["Retry-After"], "2");
    EXPECT_EQ(json::parse(r.body()), json::parse(R"({"error":{"message":"Slow down.","type":"rate_limit_error",
                                                    "param":null,"code":"rate_limit_exceeded"}})"));
}

TEST_F(model_server_test, drop_after_closes_the_connection_without_ending_the_body) {
    model_server server(io.get_executor());
    server.enqueue(scripted_reply::stream("abcdefghijkl", 4).drop_after(2));
    client c(server);
    error_code ec;
    const response r = run(io, [&]() -> asio::awaitable<response> {
        co_await c.connect();
        co_await c.send(http::verb::post, "/v1/chat/completions", chat("x"));
        co_return co_await c.read(ec);
    }());
    EXPECT_TRUE(ec) << "the body never ended";
    const std::vector<std::string> data = sse_data(r.body());
    ASSERT_EQ(data.size(), 2u) << r.body();
    EXPECT_NE(data[1].find(R"("content":"abcd")"), std::string::npos) << data[1];
    EXPECT_EQ(server.open_connections(), 0u);
}

TEST_F(model_server_test, a_dropped_whole_body_is_shorter_than_its_content_length) {
    model_server server(io.get_executor());
    server.enqueue(scripted_reply::completion("cut").drop_after(10));
    client c(server);
    error_code ec;
    const response r = run(io, [&]() -> asio::awaitable<response> {
        co_await c.connect();
        co_await c.send(http::verb::post, "/v1/chat/completions", chat("x"));
        co_return co_await c.read(ec);
    }());
    EXPECT_TRUE(ec);
    EXPECT_EQ(r.body().size(), 10u);
}

TEST_F(model_server_test, stall_after_keeps_the_connection_open_until_stop) {
    model_server server(io.get_executor());
    server.enqueue(scripted_reply::stream("abcdefghijkl", 4).stall_after(2));
    client c(server);
    error_code ec;
    bool read_ended = false, stopped = false;
    const response r = run(io, [&]() -> asio::awaitable<response> {
        co_await c.connect();
        co_await c.send(http::verb::post, "/v1/chat/completions", chat("x"));
        asio::steady_timer later(co_await asio::this_coro::executor, 300ms);
        later.async_wait([&](error_code) {
            EXPECT_FALSE(read_ended) << "the stalled reply must not end by itself";
            EXPECT_EQ(server.open_connections(), 1u);
            server.stop();
            stopped = true;
        });
        response out = co_await c.read(ec);
        read_ended = true;
        co_return out;
    }());
    EXPECT_TRUE(stopped);
    EXPECT_TRUE(ec);
    EXPECT_EQ(sse_data(r.body()).size(), 2u);
    EXPECT_EQ(server.open_connections(), 0u);
    server.stop(); // idempotent
}

TEST_F(model_server_test, keeps_the_connection_alive_and_honours_connection_close) {
    model_server server(io.get_executor());
    client c(server);
    error_code second_ec;
    const response last = run(io, [&]() -> asio::awaitable<response> {
        co_await c.connect();
        EXPECT_EQ(content_of(co_await c.exchange(chat("one"))), "You said: one");
        EXPECT_EQ(content_of(co_await c.exchange(chat("two"))), "You said: two");
        co_await c.send(http::verb::post, "/v1/chat/completions", chat("three"), false);
        error_code ec;
        response third = co_await c.read(ec);
        EXPECT_FALSE(ec);
        co_await c.read(second_ec); // the server closed after "three"
        co_return third;
    }());
    EXPECT_EQ(content_of(last), "You said: three");
    EXPECT_EQ(last[http::field::connection], "close");
    EXPECT_TRUE(second_ec);
    EXPECT_EQ(server.connections_accepted(), 1u);
    EXPECT_EQ(server.requests().size(), 3u);
}

TEST_F(model_server_test, rejects_wrong_paths_methods_and_bodies) {
    model_server server(io.get_executor());
    auto type_of = [](const response& r) { return std::string(json::parse(r.body()).at("error").at("type").as_string()); };

    const response not_found = ask(io, server, chat("x"), http::verb::post, "/v1/models");
    EXPECT_EQ(not_found.result_int(), 404);
    EXPECT_EQ(type_of(not_found), "invalid_request_error");

    const response wrong_method = ask(io, server, "", http::verb::get);
    EXPECT_EQ(wrong_method.result_int(), 405);
    EXPECT_EQ(wrong_method[http::field::allow], "POST");

    for (std::string body : {"[1,2]", "{}", "not json", R"({"messages":"hi"})"}) {
        const response bad = ask(io, server, body);
        EXPECT_EQ(bad.result_int(), 400) << body;
        EXPECT_EQ(type_of(bad), "invalid_request_error") << body;
    }
}

TEST_F(model_server_test, a_request_over_max_request_size_is_a_413) {
    model_server server(io.get_executor(), {.max_request_size = 1024});
    const response ok = ask(io, server, chat(std::string(500, 'a')));
    EXPECT_EQ(ok.result_int(), 200);
    const response big = ask(io, server, chat(std::string(4096, 'a')));
    EXPECT_EQ(big.result_int(), 413);
    EXPECT_EQ(big[http::field::connection], "close");
    EXPECT_EQ(server.requests().size(), 1u) << "a request whose body was not read is not recorded";
}

TEST_F(model_server_test, serves_plain_http) {
    model_server server(io.get_executor(), {.tls = false});
    EXPECT_TRUE(server.certificate_pem().empty());
    EXPECT_TRUE(server.base_url().starts_with("http://127.0.0.1:")) << server.base_url();
    EXPECT_EQ(content_of(ask(io, server, chat("plain"))), "You said: plain");
}

TEST_F(model_server_test, negotiates_only_the_versions_it_allows) {
    for (auto [versions, expected] : {std::pair{forma::testing::tls_versions::tls12_only, TLS1_2_VERSION},
                                      std::pair{forma::testing::tls_versions::tls13_only, TLS1_3_VERSION},
                                      std::pair{forma::testing::tls_versions::tls12_and_13, TLS1_3_VERSION}}) {
        model_server server(io.get_executor(), {.versions = versions});
        client c(server);
        const int version = run(io, [&]() -> asio::awaitable<int> {
            co_await c.connect();
            co_await c.exchange(chat("v"));
            co_return c.tls_version();
        }());
        EXPECT_EQ(version, expected);
    }
    // A client that insists on the other version fails.
    model_server only13(io.get_executor(), {.versions = forma::testing::tls_versions::tls13_only});
    client old(only13);
    old.max_version = TLS1_2_VERSION;
    expect_connect_fails(old);
    model_server only12(io.get_executor(), {.versions = forma::testing::tls_versions::tls12_only});
    client modern(only12);
    modern.min_version = TLS1_3_VERSION;
    expect_connect_fails(modern);
}

TEST_F(model_server_test, records_requests_with_their_headers_and_bodies) {
    model_server server(io.get_executor());
    client c(server);
    run(io, [&]() -> asio::awaitable<int> {
        co_await c.connect();
        std::vector<std::pair<std::string, std::string>> tag{{"X-Request-Tag", "tag-7"}};
        co_await c.send(http::verb::post, "/v1/chat/completions?x=1", chat("recorded"), true, std::move(tag));
        error_code ec;
        co_await c.read(ec);
        co_return 0;
    }());
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].method, "POST");
    EXPECT_EQ(requests[0].target, "/v1/chat/completions?x=1");
    EXPECT_EQ(requests[0].body, chat("recorded"));
    EXPECT_EQ(requests[0].header("authorization"), "Bearer test-key");
    EXPECT_EQ(requests[0].header("x-request-tag"), "tag-7");
    EXPECT_EQ(requests[0].header("Content-Type"), "application/json");
    EXPECT_EQ(requests[0].header("x-absent"), "");
}

TEST_F(model_server_test, clear_requests_forgets_the_record_but_not_the_numbering) {
    model_server server(io.get_executor());
    EXPECT_EQ(content_of(ask(io, server, chat("one"))), "You said: one");
    ASSERT_EQ(server.requests().size(), 1u);
    server.clear_requests();
    EXPECT_TRUE(server.requests().empty());
    const response r = ask(io, server, chat("two"));
    ASSERT_EQ(server.requests().size(), 1u);
    EXPECT_EQ(server.requests()[0].body, chat("two"));
    EXPECT_EQ(json::parse(r.body()).at("id"), "chatcmpl-local-1") << "answers keep their numbers";
}

TEST_F(model_server_test, the_seed_varies_schema_answers_per_request) {
    model_server server(io.get_executor());
    const std::string extra = R"({"response_format":{"type":"json_schema","json_schema":{"name":"w",
        "schema":{"type":"object","properties":{"w":{"type":"string"}},"required":["w"]}}}})";
    // Commas keep the words three phrases (together, "alpha beta gamma" would be one).
    const std::string a = content_of(ask(io, server, chat("alpha, beta, gamma", extra)));
    const std::string b = content_of(ask(io, server, chat("alpha, beta, gamma", extra)));
    EXPECT_EQ(a, R"({"w":"alpha"})");
    EXPECT_EQ(b, R"({"w":"beta"})");
}

TEST_F(model_server_test, reports_an_address_it_cannot_listen_on_and_keeps_its_port_after_stop) {
    EXPECT_THROW(model_server(io.get_executor(), {.address = "not-an-address"}), boost::system::system_error);
    model_server first(io.get_executor(), {.tls = false});
    EXPECT_THROW(model_server(io.get_executor(), {.tls = false, .port = first.port()}), boost::system::system_error);
    const std::string url = first.base_url();
    first.stop();
    EXPECT_EQ(first.base_url(), url);
    EXPECT_NE(first.port(), 0);
}

TEST_F(model_server_test, destroying_the_server_closes_what_is_open) {
    auto server = std::make_unique<model_server>(io.get_executor());
    server->enqueue(scripted_reply::stream("abc").stall_after(1));
    client c(*server);
    error_code ec;
    run(io, [&]() -> asio::awaitable<int> {
        co_await c.connect();
        co_await c.send(http::verb::post, "/v1/chat/completions", chat("x"));
        asio::steady_timer later(co_await asio::this_coro::executor, 100ms);
        later.async_wait([&](error_code) { server.reset(); });
        co_await c.read(ec);
        co_return 0;
    }());
    EXPECT_TRUE(ec);
    EXPECT_FALSE(server);
}

// Tool calls: scripted and generated, whole and streamed, and the faults.

struct sent_call {
    std::string id, name, arguments;
    bool operator==(const sent_call&) const = default;
};

std::vector<sent_call> calls_of(const response& r) {
    std::vector<sent_call> out;
    const json::value body = json::parse(r.body());
    const json::object& choice = body.at("choices").at(0).as_object();
    EXPECT_EQ(choice.at("finish_reason"), "tool_calls");
    for (const json::value& call : choice.at("message").at("tool_calls").as_array()) {
        EXPECT_EQ(call.at("type"), "function");
        out.push_back({std::string(call.at("id").as_string()), std::string(call.at("function").at("name").as_string()),
                       std::string(call.at("function").at("arguments").as_string())});
    }
    return out;
}

/// A streamed reply's calls, put together by index as a client does; `interleaved` tells
/// whether pieces of different calls alternate.
std::vector<sent_call> streamed_calls_of(const response& r, bool* interleaved = nullptr) {
    std::vector<sent_call> out;
    std::optional<std::int64_t> last_index;
    bool alternated = false;
    std::string finish;
    for (const std::string& d : sse_data(r.body())) {
        if (d == "[DONE]") continue;
        const json::value chunk = json::parse(d);
        const json::array& choices = chunk.at("choices").as_array();
        if (choices.empty()) continue;
        if (!choices[0].at("finish_reason").is_null()) finish = std::string(choices[0].at("finish_reason").as_string());
        const json::value* calls = choices[0].at("delta").as_object().if_contains("tool_calls");
        if (!calls) continue;
        for (const json::value& call : calls->as_array()) {
            const std::int64_t index = call.at("index").as_int64();
            if (out.size() <= static_cast<std::size_t>(index)) out.resize(static_cast<std::size_t>(index) + 1);
            sent_call& c = out[static_cast<std::size_t>(index)];
            if (const json::value* id = call.as_object().if_contains("id")) {
                EXPECT_TRUE(c.id.empty()) << "the id comes once";
                c.id = std::string(id->as_string());
                c.name = std::string(call.at("function").at("name").as_string());
            }
            const std::string piece(call.at("function").at("arguments").as_string());
            if (!piece.empty()) {
                if (last_index && *last_index != index) alternated = true;
                last_index = index;
            }
            c.arguments += piece;
        }
    }
    EXPECT_EQ(finish, "tool_calls");
    if (interleaved) *interleaved = alternated;
    return out;
}

const std::vector<sent_call> two_calls{{"call_a", "get_weather", R"({"city":"Oslo","units":"celsius"})"},
                                       {"call_b", "get_time", R"({"zone":"Europe/Oslo"})"}};

std::vector<forma::testing::scripted_tool_call> scripted(const std::vector<sent_call>& calls) {
    std::vector<forma::testing::scripted_tool_call> out;
    for (const sent_call& c : calls) out.push_back({c.id, c.name, c.arguments});
    return out;
}

TEST_F(model_server_test, scripted_tool_calls_go_out_whole_and_streamed_in_interleaved_pieces) {
    model_server server(io.get_executor());
    server.enqueue(scripted_reply::tool_calls(scripted(two_calls)));
    server.enqueue(scripted_reply::stream_tool_calls(scripted(two_calls), 5));
    server.enqueue(scripted_reply::tool_calls({{"c", "f", "{not json"}}, "Let me check."));
    const response whole = ask(io, server, chat("x"));
    EXPECT_EQ(calls_of(whole), two_calls);
    EXPECT_TRUE(json::parse(whole.body()).at("choices").at(0).at("message").at("content").is_null());
    bool interleaved = false;
    EXPECT_EQ(streamed_calls_of(ask(io, server, chat("x")), &interleaved), two_calls);
    EXPECT_TRUE(interleaved);
    const response with_text = ask(io, server, chat("x"));
    EXPECT_EQ(content_of(with_text), "Let me check.");
    EXPECT_EQ(calls_of(with_text).at(0).arguments, "{not json");
}

std::string weather_tools(std::string_view extra = "") {
    std::string tools = R"({"tools":[)"
                        R"({"type":"function","function":{"name":"get_weather","parameters":{"type":"object",)"
                        R"("properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1,"maximum":7}},)"
                        R"("required":["city","days"],"additionalProperties":false}}},)"
                        R"({"type":"function","function":{"name":"get_time","parameters":{"type":"object",)"
                        R"("properties":{"zone":{"type":"string"}},"required":["zone"],"additionalProperties":false}}},)"
                        R"({"type":"function","function":{"name":"ping"}}])";
    if (!extra.empty()) tools.append(",").append(extra);
    return tools + "}";
}

TEST_F(model_server_test, generated_calls_follow_the_tool_schema_with_words_of_the_prompt) {
    model_server server(io.get_executor());
    const std::string prompt = "Weather in Oslo tomorrow";
    const auto calls = calls_of(ask(io, server, chat(prompt, weather_tools())));
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].id, "call_0_0");
    EXPECT_EQ(calls[0].name, "get_weather");
    const json::value arguments = json::parse(calls[0].arguments);
    EXPECT_NE(prompt.find(std::string(arguments.at("city").as_string())), std::string::npos) << calls[0].arguments;
    const std::int64_t days = arguments.at("days").as_int64();
    EXPECT_TRUE(days >= 1 && days <= 7) << days;

    bool interleaved = false;
    const auto streamed = streamed_calls_of(ask(io, server, chat(prompt, weather_tools(R"("stream":true)"))), &interleaved);
    ASSERT_EQ(streamed.size(), 1u);
    EXPECT_EQ(streamed[0].id, "call_1_0");
    EXPECT_TRUE(json::parse(streamed[0].arguments).at("city").is_string());
}

TEST_F(model_server_test, generated_turns_call_several_tools_when_configured_and_allowed) {
    model_server server(io.get_executor(), {.tool_calls_per_turn = 5});
    const auto all = calls_of(ask(io, server, chat("x", weather_tools())));
    ASSERT_EQ(all.size(), 3u) << "the first five offered: all three";
    EXPECT_EQ(all[1].name, "get_time");
    EXPECT_EQ(all[2].name, "ping");
    EXPECT_EQ(all[2].arguments, "{}");
    EXPECT_EQ(calls_of(ask(io, server, chat("x", weather_tools(R"("parallel_tool_calls":false)")))).size(), 1u);
    bool interleaved = false;
    EXPECT_EQ(streamed_calls_of(ask(io, server, chat("x", weather_tools(R"("stream":true)"))), &interleaved).size(), 3u);
    EXPECT_TRUE(interleaved);
}

TEST_F(model_server_test, tool_choice_and_a_tool_result_decide_whether_tools_are_called) {
    model_server server(io.get_executor());
    const auto named = calls_of(
        ask(io, server, chat("x", weather_tools(R"("tool_choice":{"type":"function","function":{"name":"get_time"}})"))));
    ASSERT_EQ(named.size(), 1u);
    EXPECT_EQ(named[0].name, "get_time");
    EXPECT_EQ(content_of(ask(io, server, chat("hello", weather_tools(R"("tool_choice":"none")")))), "You said: hello");
    const response unknown = ask(io, server, chat("x", weather_tools(R"("tool_choice":{"type":"function","function":{"name":"nope"}})")));
    EXPECT_EQ(unknown.result_int(), 400);

    // After the tools' results the model answers, in the response format when there is one.
    json::value body = json::parse(chat("Weather in Oslo", weather_tools(
        R"("response_format":{"type":"json_schema","json_schema":{"name":"w","schema":{"type":"object",)"
        R"("properties":{"summary":{"type":"string"}},"required":["summary"],"additionalProperties":false}}})")));
    json::array& messages = body.at("messages").as_array();
    messages.push_back(json::object{{"role", "assistant"}, {"content", nullptr},
                                    {"tool_calls", json::array{json::object{
                                        {"id", "c1"}, {"type", "function"},
                                        {"function", json::object{{"name", "get_weather"}, {"arguments", "{}"}}}}}}});
    messages.push_back(json::object{{"role", "tool"}, {"tool_call_id", "c1"}, {"content", "5 degrees"}});
    const response answer = ask(io, server, json::serialize(body));
    EXPECT_EQ(json::parse(answer.body()).at("choices").at(0).at("finish_reason"), "stop");
    EXPECT_TRUE(json::parse(content_of(answer)).at("summary").is_string());
}

TEST_F(model_server_test, a_called_tool_whose_parameters_it_cannot_satisfy_is_a_400_naming_the_problem) {
    model_server server(io.get_executor());
    const std::string tools = R"({"tools":[{"type":"function","function":{"name":"get_weather",)"
                              R"("parameters":{"type":"object","properties":{"city":{"type":"string"}}}}},)"
                              R"({"type":"function","function":{"name":"odd","parameters":{"type":"object",)"
                              R"("properties":{"a":{"oneOf":[{"type":"string"}]}},"required":["a"]}}}])";
    // Only the tools called are generated: the first one here is fine.
    const auto first = calls_of(ask(io, server, chat("x", tools + "}")));
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(first[0].name, "get_weather");

    for (const std::string extra : {R"(,"tool_choice":{"type":"function","function":{"name":"odd"}}})",
                                    R"(,"tool_choice":{"type":"function","function":{"name":"odd"}},"stream":true})"}) {
        const response r = ask(io, server, chat("x", tools + extra));
        EXPECT_EQ(r.result_int(), 400) << extra;
        const json::value body = json::parse(r.body());
        EXPECT_EQ(body.at("error").at("type"), "invalid_request_error");
        EXPECT_NE(std::string(body.at("error").at("message").as_string()).find("oneOf"), std::string::npos) << r.body();
    }
}

TEST_F(model_server_test, generated_calls_can_carry_malformed_arguments_or_an_unknown_tool) {
    model_server malformed(io.get_executor(), {.tool_fault = forma::testing::tool_call_fault::malformed_arguments});
    const auto bad = calls_of(ask(io, malformed, chat("Weather in Oslo", weather_tools())));
    ASSERT_EQ(bad.size(), 1u);
    error_code ec;
    (void)json::parse(bad[0].arguments, ec);
    EXPECT_TRUE(ec) << "not JSON: " << bad[0].arguments;
    EXPECT_EQ(bad[0].name, "get_weather");

    model_server unknown(io.get_executor(), {.tool_fault = forma::testing::tool_call_fault::unknown_tool});
    const auto stray = calls_of(ask(io, unknown, chat("x", weather_tools())));
    ASSERT_EQ(stray.size(), 1u);
    EXPECT_EQ(stray[0].name, "no_such_tool");
    EXPECT_NO_THROW((void)json::parse(stray[0].arguments));
}

} // namespace
