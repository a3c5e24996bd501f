// concurrency_limiter: requests in flight at most N, admitted in FIFO order, cancellable while
// queued, a full queue refused; token buckets per minute, corrected by reported usage; the
// provider's rate-limit word followed; streams holding their slot until they end or go.
#include <forma/chat/concurrency_limiter.hpp>
#include <forma/model/rate_limits.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include "support/bounded_run.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>

#include <gtest/gtest.h>

namespace asio = boost::asio;
using forma::chat_message;
using forma::chat_role;
using forma::concurrency_limiter;
using std::chrono::milliseconds;

namespace {

// A model that answers each request only when the test lets it: what is in flight is visible.
class held_chat_client : public forma::chat_client {
public:
    explicit held_chat_client(executor_type ex) : executor_(std::move(ex)) {}
    executor_type get_executor() const override { return executor_; }

    /// Lets the oldest request still held answer.
    void release_one() {
        gates_.front()->cancel();
        gates_.pop_front();
    }

    std::vector<std::string> started;
    std::optional<forma::rate_limits> next_limits;

protected:
    asio::awaitable<forma::agent_response<>> get_response_core(forma::chat_request request) override {
        const std::string asked = request.messages.back().text();
        started.push_back(asked);
        auto gate = std::make_shared<asio::steady_timer>(executor_, std::chrono::steady_clock::time_point::max());
        gates_.push_back(gate);
        boost::system::error_code ignored;
        co_await gate->async_wait(asio::redirect_error(asio::use_awaitable, ignored));
        forma::agent_response<> r(chat_message(chat_role::assistant(), "re: " + asked));
        r.rate_limits = next_limits;
        co_return r;
    }
    forma::update_stream get_streaming_response_core(forma::chat_request request) override {
        started.push_back(request.messages.back().text());
        return forma::make_update_stream(executor_, {forma::agent_response_update(chat_role::assistant(), "streamed")});
    }

private:
    executor_type executor_;
    std::deque<std::shared_ptr<asio::steady_timer>> gates_;
};

asio::awaitable<void> yield() { co_await asio::post(co_await asio::this_coro::executor, asio::use_awaitable); }

class limiter_test : public ::testing::Test {
protected:
    template <class T>
    T run(asio::awaitable<T> operation) {
        return forma_test::run_bounded(io, std::move(operation), std::chrono::seconds(10));
    }
    asio::awaitable<bool> settle() {
        for (int i = 0; i < 20; ++i) co_await yield();
        co_return true;
    }
    static std::vector<chat_message> ask(std::string text) { return {chat_message(chat_role::user(), std::move(text))}; }

    asio::io_context io;
};

} // namespace

TEST_F(limiter_test, at_most_n_requests_are_in_flight_and_the_rest_start_in_fifo_order) {
    held_chat_client model(io.get_executor());
    concurrency_limiter limited(model, {.max_in_flight = 2});
    std::vector<std::string> answered;
    run([&]() -> asio::awaitable<bool> {
        for (int i = 0; i < 5; ++i)
            asio::co_spawn(io, limited.get_response(ask("q" + std::to_string(i)), {}),
                           [&](std::exception_ptr e, forma::agent_response<> r) {
                               EXPECT_FALSE(e);
                               answered.push_back(r.text());
                           });
        co_await settle();
        EXPECT_EQ(limited.in_flight(), 2u);
        EXPECT_EQ(limited.queued(), 3u);
        EXPECT_EQ(model.started, (std::vector<std::string>{"q0", "q1"}));
        for (int i = 0; i < 5; ++i) {
            model.release_one();
            co_await settle();
        }
        co_return true;
    }());
    EXPECT_EQ(model.started, (std::vector<std::string>{"q0", "q1", "q2", "q3", "q4"}));
    EXPECT_EQ(answered.size(), 5u);
    EXPECT_EQ(limited.in_flight(), 0u);
    EXPECT_EQ(limited.queued(), 0u);
}

TEST_F(limiter_test, a_request_cancelled_while_queued_leaves_the_queue_and_is_never_sent) {
    held_chat_client model(io.get_executor());
    concurrency_limiter limited(model, {.max_in_flight = 1});
    asio::cancellation_signal cancel;
    bool aborted = false;
    run([&]() -> asio::awaitable<bool> {
        asio::co_spawn(io, limited.get_response(ask("first"), {}), asio::detached);
        asio::co_spawn(io, limited.get_response(ask("cancelled"), {}),
                       asio::bind_cancellation_slot(cancel.slot(), [&](std::exception_ptr e, forma::agent_response<>) {
                           aborted = e != nullptr;
                       }));
        asio::co_spawn(io, limited.get_response(ask("third"), {}), asio::detached);
        co_await settle();
        EXPECT_EQ(limited.queued(), 2u);
        cancel.emit(asio::cancellation_type::terminal);
        co_await settle();
        EXPECT_TRUE(aborted);
        EXPECT_EQ(limited.queued(), 1u);
        model.release_one();
        co_await settle();
        model.release_one();
        co_await settle();
        co_return true;
    }());
    EXPECT_EQ(model.started, (std::vector<std::string>{"first", "third"}));
}

TEST_F(limiter_test, past_max_queued_a_request_is_refused_at_once) {
    held_chat_client model(io.get_executor());
    concurrency_limiter limited(model, {.max_in_flight = 1, .max_queued = 1});
    run([&]() -> asio::awaitable<bool> {
        asio::co_spawn(io, limited.get_response(ask("a"), {}), asio::detached);
        asio::co_spawn(io, limited.get_response(ask("b"), {}), asio::detached);
        co_await settle();
        try {
            forma::chat_options none; // named: GCC 12 mishandles braced temporaries in co_await
            co_await limited.get_response(ask("c"), std::move(none));
            ADD_FAILURE() << "queued past the limit";
        } catch (const forma::concurrency_limit_error& e) {
            EXPECT_NE(std::string(e.what()).find("queue is full: 1 waiting (max_queued), 1 in flight"),
                      std::string::npos)
                << e.what();
        }
        model.release_one();
        co_await settle();
        model.release_one();
        co_await settle();
        co_return true;
    }());
    EXPECT_EQ(model.started, (std::vector<std::string>{"a", "b"}));
}

TEST_F(limiter_test, the_token_bucket_holds_a_request_back_until_it_has_refilled_enough) {
    forma::testing::scripted_chat_client model(io.get_executor());
    model.add_text_response("one");
    model.add_text_response("two");
    // 6000 tokens a minute is 100 a second; the first request takes all of them.
    concurrency_limiter limited(model, {.max_in_flight = 0, .tokens_per_minute = 6000});
    forma::chat_options greedy;
    greedy.max_output_tokens = 6000;
    run(limited.get_response(ask("first"), greedy));
    const auto started = std::chrono::steady_clock::now();
    run(limited.get_response(ask(std::string(40, 'x')), {})); // 14 tokens: 140 ms of refill
    EXPECT_GE(std::chrono::steady_clock::now() - started, milliseconds(130));
}

TEST_F(limiter_test, reported_input_tokens_give_back_what_the_estimate_took_too_much) {
    forma::testing::scripted_chat_client model(io.get_executor());
    forma::agent_response<> counted(chat_message(chat_role::assistant(), "ok"));
    counted.usage = forma::usage_details{.input_token_count = 10};
    model.add_response(counted);
    model.add_text_response("second");
    concurrency_limiter limited(model, {.max_in_flight = 0, .tokens_per_minute = 1000});
    // 2000 bytes: estimated at 504 tokens, counted at 10: 494 come back.
    run(limited.get_response(ask(std::string(2000, 'y')), {}));
    const auto started = std::chrono::steady_clock::now();
    run(limited.get_response(ask(std::string(2000, 'y')), {}));
    EXPECT_LT(std::chrono::steady_clock::now() - started, milliseconds(100))
        << "without the refund it would wait about 0.5 s for 504 - 496 tokens";
}

TEST_F(limiter_test, the_providers_word_that_no_requests_remain_holds_the_next_until_its_reset) {
    held_chat_client model(io.get_executor());
    forma::rate_limits exhausted;
    exhausted.remaining_requests = 0;
    exhausted.reset_requests = milliseconds(150);
    model.next_limits = exhausted;
    concurrency_limiter limited(model, {.max_in_flight = 0});
    std::chrono::steady_clock::time_point second_started{};
    const auto started = std::chrono::steady_clock::now();
    run([&]() -> asio::awaitable<bool> {
        asio::co_spawn(io, limited.get_response(ask("a"), {}), asio::detached);
        co_await settle();
        model.release_one();
        co_await settle();
        asio::co_spawn(io, limited.get_response(ask("b"), {}), asio::detached);
        while (model.started.size() < 2) co_await yield();
        second_started = std::chrono::steady_clock::now();
        model.release_one();
        co_await settle();
        co_return true;
    }());
    EXPECT_GE(second_started - started, milliseconds(140));
}

TEST_F(limiter_test, a_stream_holds_its_slot_until_it_ends_or_is_destroyed) {
    held_chat_client model(io.get_executor());
    concurrency_limiter limited(model, {.max_in_flight = 1});
    {
        auto stream = limited.get_streaming_response(ask("s1"), {});
        EXPECT_EQ(limited.in_flight(), 0u) << "nothing is sent before the first next()";
        ASSERT_TRUE(run(stream.next()));
        EXPECT_EQ(limited.in_flight(), 1u);
    }
    EXPECT_EQ(limited.in_flight(), 0u) << "a stream left early gives its slot back";
    auto stream = limited.get_streaming_response(ask("s2"), {});
    ASSERT_TRUE(run(stream.next()));
    EXPECT_FALSE(run(stream.next()));
    EXPECT_EQ(limited.in_flight(), 0u);
}

TEST(rate_limits, header_values_parse_as_openai_sends_them) {
    using forma::rate_limits;
    EXPECT_EQ(rate_limits::parse_reset("1s"), milliseconds(1000));
    EXPECT_EQ(rate_limits::parse_reset("6m0s"), milliseconds(360000));
    EXPECT_EQ(rate_limits::parse_reset("20ms"), milliseconds(20));
    EXPECT_EQ(rate_limits::parse_reset("1h2m3.5s"), milliseconds(3723500));
    EXPECT_EQ(rate_limits::parse_reset("0.0001s"), milliseconds(1)) << "rounded up";
    for (const char* bad : {"", "s", "5", "5x", "-1s", "1s2", "9999999h"}) EXPECT_FALSE(rate_limits::parse_reset(bad)) << bad;
    EXPECT_EQ(rate_limits::parse_count("4999"), 4999);
    EXPECT_FALSE(rate_limits::parse_count("-3"));
    EXPECT_FALSE(rate_limits::parse_count("12a"));
    rate_limits r;
    r.remaining_tokens = 10;
    r.reset_tokens = milliseconds(250);
    EXPECT_EQ(rate_limits::from_json(r.to_json()), r);
    EXPECT_TRUE(rate_limits::from_json({{"remaining_tokens", -1}, {"limit_requests", "5"}}).empty())
        << "what is not a count is left unset";
    const auto header = [](std::string_view name) { return name == "x-ratelimit-remaining-tokens" ? "10" : ""; };
    EXPECT_EQ(rate_limits::from_headers(header, forma::x_ratelimit_headers).remaining_tokens, 10);
    EXPECT_TRUE(rate_limits::from_headers(header, {}).empty()) << "a provider that names no header reads none";
}
