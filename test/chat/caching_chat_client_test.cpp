// caching_chat_client over an in_memory_response_cache: a repeated request answered from the
// cache (whole or replayed as a stream, equal either way), keys that follow what shapes the
// answer and ignore ids and times, nothing cached for errors, background runs or sampled
// requests (unless asked), LRU and TTL limits, a failing cache skipped.
#include <forma/chat/caching_chat_client.hpp>
#include <forma/model/rate_limits.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include "support/bounded_run.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <gtest/gtest.h>

namespace asio = boost::asio;
using forma::caching_chat_client;
using forma::chat_message;
using forma::chat_options;
using forma::chat_role;

namespace {

class caching_test : public ::testing::Test {
protected:
    template <class T>
    T run(asio::awaitable<T> operation) {
        return forma_test::run_bounded(io, std::move(operation), std::chrono::seconds(10));
    }
    std::vector<forma::agent_response_update> drain(forma::update_stream stream) {
        return run([](forma::update_stream s) -> asio::awaitable<std::vector<forma::agent_response_update>> {
            std::vector<forma::agent_response_update> out;
            while (auto u = co_await s.next()) out.push_back(std::move(*u));
            co_return out;
        }(std::move(stream)));
    }
    static std::vector<chat_message> ask(std::string text) { return {chat_message(chat_role::user(), std::move(text))}; }
    static chat_options deterministic() {
        chat_options o;
        o.temperature = 0.0;
        return o;
    }

    asio::io_context io;
    forma::testing::scripted_chat_client model{io.get_executor()};
    std::shared_ptr<forma::in_memory_response_cache> cache = std::make_shared<forma::in_memory_response_cache>();
};

// A cache that always fails, as a Redis that is down would.
class broken_cache : public forma::response_cache {
public:
    asio::awaitable<std::optional<std::string>> get(std::string) override { throw forma::error("cache down"); }
    asio::awaitable<void> put(std::string, std::string, std::chrono::milliseconds) override { throw forma::error("cache down"); }
};

} // namespace

TEST_F(caching_test, a_repeated_request_is_answered_from_the_cache_whole_or_streamed) {
    forma::agent_response<> answer(chat_message(chat_role::assistant(), "cached answer"));
    answer.usage = forma::usage_details{.input_token_count = 12, .output_token_count = 3};
    model.add_response(answer);
    caching_chat_client cached(model, cache);
    const auto first = run(cached.get_response(ask("q"), deterministic()));
    const auto second = run(cached.get_response(ask("q"), deterministic()));
    EXPECT_EQ(model.requests().size(), 1u) << "the second came from the cache";
    EXPECT_EQ(second.messages, first.messages);
    EXPECT_FALSE(second.usage) << "no tokens were spent on a hit";
    EXPECT_EQ(second.additional_properties.at(caching_chat_client::cache_hit_property), true);
    EXPECT_FALSE(first.additional_properties.contains(caching_chat_client::cache_hit_property));
    const auto replayed = drain(cached.get_streaming_response(ask("q"), deterministic()));
    EXPECT_EQ(forma::to_agent_response(replayed), second) << "a replay merges to the same response";
    EXPECT_EQ(cached.hits(), 2u);
    EXPECT_EQ(cached.misses(), 1u);
}

TEST_F(caching_test, a_streamed_answer_is_cached_once_it_has_ended) {
    model.add_updates({forma::agent_response_update(chat_role::assistant(), "stre"),
                       forma::agent_response_update(std::nullopt, "amed")});
    caching_chat_client cached(model, cache);
    const auto live = drain(cached.get_streaming_response(ask("s"), deterministic()));
    const auto whole = run(cached.get_response(ask("s"), deterministic()));
    EXPECT_EQ(whole.text(), "streamed");
    EXPECT_EQ(whole.messages, forma::to_agent_response(live).messages);
    EXPECT_EQ(model.requests().size(), 1u);
}

TEST_F(caching_test, the_key_follows_what_shapes_the_answer_and_ignores_ids_and_times) {
    const auto key = caching_chat_client::cache_key;
    chat_message with_id(chat_role::user(), "q");
    with_id.message_id = "msg_1";
    with_id.created_at = std::chrono::system_clock::now();
    EXPECT_EQ(key({with_id}, deterministic()), key(ask("q"), deterministic()));
    EXPECT_EQ(key(ask("q"), deterministic()).size(), 64u);
    EXPECT_NE(key(ask("q"), deterministic()), key(ask("Q"), deterministic()));
    chat_options other_model = deterministic();
    other_model.model = "gpt-other";
    EXPECT_NE(key(ask("q"), deterministic()), key(ask("q"), other_model));
    chat_options with_format = deterministic();
    with_format.response_format = forma::response_format::json();
    EXPECT_NE(key(ask("q"), deterministic()), key(ask("q"), with_format));
    chat_options with_instructions = deterministic();
    with_instructions.instructions = "Be brief.";
    EXPECT_NE(key(ask("q"), deterministic()), key(ask("q"), with_instructions));
    chat_options described = deterministic();
    described.response_format = forma::response_format::json_schema("answer", boost::json::object{{"type", "object"}});
    chat_options described_otherwise = described;
    described_otherwise.response_format =
        forma::response_format::json_schema("answer", boost::json::object{{"type", "object"}}, "Another description");
    EXPECT_NE(key(ask("q"), described), key(ask("q"), described_otherwise)) << "the description is sent too";
}

TEST_F(caching_test, the_providers_rate_limits_are_not_kept_in_the_cache) {
    forma::agent_response<> with_limits(chat_message(chat_role::assistant(), "limited"));
    forma::rate_limits said;
    said.remaining_requests = 0;
    with_limits.rate_limits = said;
    model.add_response(with_limits);
    caching_chat_client cached(model, cache);
    EXPECT_TRUE(run(cached.get_response(ask("r"), deterministic())).rate_limits);
    EXPECT_FALSE(run(cached.get_response(ask("r"), deterministic())).rate_limits)
        << "a hit would make a limiter wait on what the provider said long ago";
}

TEST_F(caching_test, errors_error_contents_background_runs_and_sampled_requests_are_not_cached) {
    caching_chat_client cached(model, cache);
    model.add_error(std::make_exception_ptr(forma::error("provider down")));
    EXPECT_THROW(run(cached.get_response(ask("e"), deterministic())), forma::error);
    model.add_response(forma::agent_response<>(chat_message(chat_role::assistant(), std::vector<forma::content>{
                                                                                     forma::error_content("overloaded")})));
    run(cached.get_response(ask("e"), deterministic()));
    forma::agent_response<> background;
    background.continuation_token = forma::continuation_token("resp_1");
    model.add_response(background);
    run(cached.get_response(ask("b"), deterministic()));
    model.add_text_response("sampled");
    run(cached.get_response(ask("t"), {})); // no temperature: the provider samples
    EXPECT_EQ(cache->size(), 0u);
    EXPECT_TRUE(caching_chat_client::is_sampled({}));
    EXPECT_FALSE(caching_chat_client::is_sampled(deterministic()));
    chat_options seeded;
    seeded.seed = 7;
    EXPECT_FALSE(caching_chat_client::is_sampled(seeded));

    caching_chat_client asked(model, cache, {.cache_sampled_requests = true});
    model.add_text_response("sampled, kept");
    run(asked.get_response(ask("t"), {}));
    EXPECT_EQ(run(asked.get_response(ask("t"), {})).text(), "sampled, kept");
}

TEST_F(caching_test, a_failing_cache_is_skipped_and_counted) {
    caching_chat_client cached(model, std::make_shared<broken_cache>());
    model.add_text_response("from the model");
    EXPECT_EQ(run(cached.get_response(ask("q"), deterministic())).text(), "from the model");
    EXPECT_EQ(cached.cache_errors(), 2u) << "the read and the write";
}

TEST_F(caching_test, a_cache_entry_that_is_not_a_response_is_a_miss) {
    caching_chat_client cached(model, cache);
    run([&]() -> asio::awaitable<bool> {
        co_await cache->put(caching_chat_client::cache_key(ask("q"), deterministic()), "{\"not\":\"ours\"}",
                            std::chrono::milliseconds(0));
        co_return true;
    }());
    model.add_text_response("fresh");
    EXPECT_EQ(run(cached.get_response(ask("q"), deterministic())).text(), "fresh");
    EXPECT_EQ(cached.cache_errors(), 1u);
}

TEST(in_memory_response_cache, evicts_the_least_recently_used_and_honours_the_ttl) {
    asio::io_context io;
    forma::in_memory_response_cache cache({.max_entries = 2, .max_bytes = 10});
    const auto get = [&](std::string key) { return forma_test::run_bounded(io, cache.get(std::move(key)), std::chrono::seconds(5)); };
    const auto put = [&](std::string key, std::string value, std::chrono::milliseconds ttl = {}) {
        forma_test::run_bounded(io, cache.put(std::move(key), std::move(value), ttl), std::chrono::seconds(5));
    };
    put("a", "1");
    put("b", "2");
    EXPECT_EQ(get("a"), "1"); // a is now the most recent
    put("c", "3");
    EXPECT_FALSE(get("b")) << "the least recently used went";
    EXPECT_EQ(get("a"), "1");
    put("big", std::string(11, 'x'));
    EXPECT_FALSE(get("big")) << "larger than max_bytes: not kept";
    put("d", "123456789");
    EXPECT_EQ(cache.bytes(), 10u);
    EXPECT_EQ(cache.size(), 2u);
    put("short", "s", std::chrono::milliseconds(1));
    asio::steady_timer pause(io, std::chrono::milliseconds(5)); // a TTL is a time: only waiting shows it
    pause.wait();
    EXPECT_FALSE(get("short"));
}
