// What many server instances share through one Redis: conversations run by stored_agent,
// the rate limits of concurrency_limiter, and the responses of caching_chat_client.
#include <forma/agent/chat_client_agent.hpp>
#include <forma/agent/stored_agent.hpp>
#include <forma/chat/caching_chat_client.hpp>
#include <forma/chat/concurrency_limiter.hpp>
#include <forma/redis/rate_limit_store.hpp>
#include <forma/redis/response_cache.hpp>
#include <forma/redis/session_store.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include "net/http_client_stub.hpp"
#include "redis_test_support.hpp"
#include "support/server_process.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

namespace asio = boost::asio;
using namespace std::chrono_literals;
using forma::agent_session;
using forma::chat_role;
using namespace forma::redis;

namespace {
using fleet_test = forma_test::redis_test;
} // namespace

TEST_F(fleet_test, agents_on_two_instances_share_a_conversation_through_redis) {
    // Two instances: each its own Redis connection, model client and agent.
    struct instance {
        instance(asio::io_context& io, std::shared_ptr<client> redis)
            : model(io.get_executor()),
              conversations(std::make_shared<forma::chat_client_agent>(model), std::make_shared<session_store>(std::move(redis))) {}
        forma::testing::scripted_chat_client model;
        forma::stored_agent conversations;
    };
    instance a(io, connect(server())), b(io, connect(server()));
    for (int turn = 0; turn < 6; ++turn) {
        instance& on = turn % 2 ? b : a;
        on.model.add_text_response("answer " + std::to_string(turn));
        EXPECT_EQ(run(on.conversations.run("question " + std::to_string(turn), forma::session_id("fleet"))).text(), "answer " + std::to_string(turn));
    }
    const agent_session stored = *run(session_store(connect(server())).load(forma::session_id("fleet")));
    ASSERT_EQ(stored.history.size(), 12u);
    for (int turn = 0; turn < 6; ++turn) {
        EXPECT_EQ(stored.history[2 * turn].text(), "question " + std::to_string(turn));
        EXPECT_EQ(stored.history[2 * turn + 1].text(), "answer " + std::to_string(turn));
    }
    EXPECT_EQ(stored.version, 6u);
    EXPECT_EQ(b.model.requests().back().messages.size(), 11u) << "the last turn sent the whole conversation";
}

TEST_F(fleet_test, limiters_on_two_instances_share_one_token_bucket_through_redis) {
    forma::testing::scripted_chat_client model_a(io.get_executor()), model_b(io.get_executor());
    model_a.add_text_response("a");
    model_b.add_text_response("b");
    // 6000 tokens a minute between them: a takes all; b's request (14 tokens) waits for refill.
    const forma::concurrency_limiter_options shared{
        .max_in_flight = 0, .tokens_per_minute = 6000,
        .shared_store = std::make_shared<forma::redis::rate_limit_store>(connect(server()), "fleet:limit")};
    forma::concurrency_limiter instance_a(model_a, shared);
    auto options_b = shared;
    options_b.shared_store = std::make_shared<forma::redis::rate_limit_store>(connect(server()), "fleet:limit");
    forma::concurrency_limiter instance_b(model_b, options_b);
    forma::chat_options greedy;
    greedy.max_output_tokens = 6000;
    run(instance_a.get_response({forma::chat_message(chat_role::user(), "x")}, greedy));
    const auto started = std::chrono::steady_clock::now();
    run(instance_b.get_response({forma::chat_message(chat_role::user(), std::string(40, 'y'))}, {}));
    EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(100)) << "b waited for a's tokens";
    const auto bucket = run(connect(server())->execute(command("HGET", "fleet:limit", "tokens_level"))).text;
    EXPECT_FALSE(bucket.empty()) << "the bucket lives in Redis";
}

TEST_F(fleet_test, a_shared_bucket_that_cannot_be_reached_fails_the_request_typed) {
    forma::testing::scripted_chat_client model(io.get_executor());
    forma::redis::client_options nowhere;
    nowhere.port = forma_test::free_port();
    forma::concurrency_limiter limited(
        model, {.requests_per_minute = 60,
                .shared_store = std::make_shared<forma::redis::rate_limit_store>(
                    std::make_shared<client>(io.get_executor(), nowhere))});
    try {
        run(limited.get_response({forma::chat_message(chat_role::user(), "x")}, {}));
        FAIL() << "went past a limit it could not ask";
    } catch (const redis_error& e) {
        EXPECT_EQ(e.kind(), redis_error_kind::connect);
    }
    EXPECT_EQ(model.requests().size(), 0u);
    EXPECT_EQ(limited.in_flight(), 0u);
}

TEST_F(fleet_test, a_response_cached_by_one_instance_answers_the_same_request_on_another) {
    forma::testing::scripted_chat_client model_a(io.get_executor()), model_b(io.get_executor());
    model_a.add_text_response("computed once");
    const forma::caching_chat_client_options options{.ttl = std::chrono::minutes(10)};
    forma::caching_chat_client instance_a(model_a, std::make_shared<response_cache>(connect(server())), options);
    forma::caching_chat_client instance_b(model_b, std::make_shared<response_cache>(connect(server())), options);
    std::vector<forma::chat_message> question{forma::chat_message(chat_role::user(), "What is 6 x 7?")};
    forma::chat_options deterministic;
    deterministic.temperature = 0.0;
    const auto first = run(instance_a.get_response(question, deterministic));
    const auto second = run(instance_b.get_response(question, deterministic));
    EXPECT_EQ(second.messages, first.messages);
    EXPECT_EQ(second.additional_properties.at(forma::caching_chat_client::cache_hit_property), true);
    EXPECT_EQ(model_b.requests().size(), 0u) << "b never asked its model";
    EXPECT_EQ(instance_b.hits(), 1u);
    const std::string key = "forma:cache:" + forma::caching_chat_client::cache_key(question, deterministic);
    const auto ttl = run(connect(server())->execute(command("PTTL", key))).integer;
    EXPECT_GT(ttl, 590000);
    EXPECT_LE(ttl, 600000);
}

// ---- Served tasks: two server processes on one Redis --------------------------------------

namespace {

namespace raw_http = forma_test::raw_http;
namespace json = boost::json;

// A fleet_server process (test/redis/fleet_server.cpp) with its tasks and sessions in `redis`.
struct fleet_server {
    fleet_server(const forma_test::redis_server& redis, std::chrono::milliseconds lease)
        : process(FORMA_FLEET_SERVER, {std::to_string(redis.port()), std::to_string(lease.count())}, "listening on"),
          port(forma_test::reported_port(process.output(), "listening on ")) {}
    forma_test::server_process process;
    unsigned short port;
};

// The last event of an SSE body, as JSON.
json::value last_event(const raw_http::response& r) {
    const std::vector<std::string> data = raw_http::sse_data(r.body());
    return data.empty() ? json::value() : json::parse(data.back());
}

class served_fleet_test : public forma_test::redis_test {
protected:
    // The id of a background response to `input` started on the server at `port`.
    std::string background_response(unsigned short port, const std::string& input) {
        const auto started = run(raw_http::posted(port, "/v1/responses", R"({"model":"m","background":true,"input":")" + input + "\"}"));
        return std::string(json::parse(started.body()).at("id").as_string());
    }
};

} // namespace

TEST_F(served_fleet_test, a_response_started_on_one_server_is_read_and_streamed_on_the_other) {
    fleet_server a(server(), 30s), b(server(), 30s);
    const std::string id = background_response(a.port, "slow 300");
    const json::value read_on_b = json::parse(run(raw_http::exchange(b.port, raw_http::get("/v1/responses/" + id))).body());
    const auto streamed_on_b = run(raw_http::exchange(b.port, raw_http::get("/v1/responses/" + id + "?stream=true")));
    const json::value done = last_event(streamed_on_b);
    EXPECT_NE(read_on_b.at("status"), "completed") << "read while it runs on a";
    EXPECT_EQ(done.at("type"), "response.completed") << streamed_on_b.body();
    EXPECT_EQ(done.at("response").at("output").at(0).at("content").at(0).at("text"), "finished after 300 ms");
}

TEST_F(served_fleet_test, an_a2a_task_sent_to_one_server_is_got_and_canceled_on_the_other) {
    fleet_server a(server(), 30s), b(server(), 30s);
    const auto sent = run(raw_http::posted(a.port, "/a2a", R"({"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":)"
                                                            R"({"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"forever"}]},)"
                                                            R"("configuration":{"blocking":false}}})"));
    const std::string task_id(json::parse(sent.body()).at("result").at("id").as_string());
    const auto got = run(raw_http::posted(b.port, "/a2a", R"({"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"id":")" + task_id + "\"}}"));
    const auto canceled = run(raw_http::posted(b.port, "/a2a", R"({"jsonrpc":"2.0","id":3,"method":"tasks/cancel","params":{"id":")" + task_id + "\"}}"));
    EXPECT_EQ(json::parse(got.body()).at("result").at("status").at("state"), "working") << got.body();
    EXPECT_EQ(json::parse(canceled.body()).at("result").at("status").at("state"), "canceled") << canceled.body();
}

TEST_F(served_fleet_test, a_response_canceled_through_one_server_stops_on_the_one_that_runs_it) {
    fleet_server a(server(), 30s), b(server(), 30s);
    const std::string id = background_response(a.port, "forever");
    const auto canceled = run(raw_http::posted(b.port, "/v1/responses/" + id + "/cancel", "{}"));
    EXPECT_EQ(json::parse(canceled.body()).at("status"), "cancelled") << canceled.body();
    const auto read_on_a = run(raw_http::exchange(a.port, raw_http::get("/v1/responses/" + id)));
    EXPECT_EQ(json::parse(read_on_a.body()).at("status"), "cancelled");
}

TEST_F(served_fleet_test, a_server_killed_mid_response_leaves_it_failed_not_lost) {
    fleet_server a(server(), 300ms), b(server(), 300ms);
    const std::string id = background_response(a.port, "forever");
    // Killed once it has said "working" (its partial answer, stored).
    const auto partial_answer = [&] {
        const json::value read = json::parse(run(raw_http::exchange(a.port, raw_http::get("/v1/responses/" + id))).body());
        const json::array& output = read.at("output").as_array();
        return output.empty() ? std::string() : std::string(output[0].at("content").at(0).at("text").as_string());
    };
    for (int look = 0; look < 1000 && partial_answer() != "working"; ++look) std::this_thread::sleep_for(5ms);
    a.process.kill();
    // b follows it: once a's claim has lapsed (300 ms without renewal) it reads as failed.
    const auto streamed_on_b = run(raw_http::exchange(b.port, raw_http::get("/v1/responses/" + id + "?stream=true")));
    const json::value read_on_b = json::parse(run(raw_http::exchange(b.port, raw_http::get("/v1/responses/" + id))).body());
    const json::value failed = last_event(streamed_on_b);
    EXPECT_EQ(failed.at("type"), "response.failed") << streamed_on_b.body();
    EXPECT_EQ(failed.at("response").at("error").at("message"), "the server running this task stopped before it ended");
    // Its partial answer is kept, and never said whole.
    EXPECT_EQ(failed.at("response").at("output").at(0).at("content").at(0).at("text"), "working");
    EXPECT_EQ(failed.at("response").at("output").at(0).at("status"), "incomplete");
    EXPECT_EQ(read_on_b.at("output").at(0).at("status"), "incomplete") << read_on_b;
    const std::vector<std::string> events = raw_http::sse_data(streamed_on_b.body());
    const auto item_done = std::find_if(events.begin(), events.end(), [](const std::string& e) { return e.find("response.output_item.done") != std::string::npos; });
    ASSERT_NE(item_done, events.end()) << streamed_on_b.body();
    EXPECT_EQ(json::parse(*item_done).at("item").at("status"), "incomplete");
}
