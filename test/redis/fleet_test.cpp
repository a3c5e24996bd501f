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

#include "redis_test_support.hpp"

#include <gtest/gtest.h>

namespace asio = boost::asio;
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
