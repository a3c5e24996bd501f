// The provider's x-ratelimit-* headers, over real TLS: in a whole response's and a stream's
// first update's additional_properties, and followed by a concurrency_limiter.
#include <forma/chat/concurrency_limiter.hpp>
#include <forma/model/rate_limits.hpp>
#include <forma/openai/chat_client.hpp>
#include <forma/openai/responses_client.hpp>

#include "loopback.hpp"

using forma::testing::scripted_reply;
using std::chrono::milliseconds;

namespace {

class rate_limits_test : public loopback::fixture {
protected:
    static scripted_reply with_limits(scripted_reply reply, std::string remaining_requests, std::string reset) {
        return reply.with_header("x-ratelimit-limit-requests", "500")
            .with_header("x-ratelimit-remaining-requests", std::move(remaining_requests))
            .with_header("x-ratelimit-reset-requests", std::move(reset))
            .with_header("x-ratelimit-remaining-tokens", "149984")
            .with_header("x-ratelimit-reset-tokens", "6m0s");
    }
};

std::vector<forma::chat_message> ask(std::string text) {
    return {forma::chat_message(forma::chat_role::user(), std::move(text))};
}

} // namespace

TEST_F(rate_limits_test, whole_and_streamed_responses_carry_what_the_headers_said) {
    auto& s = server();
    s.enqueue(with_limits(scripted_reply::completion("whole"), "499", "120ms"));
    s.enqueue(with_limits(scripted_reply::stream("streamed"), "498", "1s"));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    const auto whole = run(client.get_response(ask("a"), {}));
    const auto& said = whole.rate_limits;
    ASSERT_TRUE(said);
    EXPECT_EQ(said->limit_requests, 500);
    EXPECT_EQ(said->remaining_requests, 499);
    EXPECT_EQ(said->reset_requests, milliseconds(120));
    EXPECT_EQ(said->remaining_tokens, 149984);
    EXPECT_EQ(said->reset_tokens, milliseconds(360000));

    const auto updates = run(loopback::drain(client.get_streaming_response(ask("b"), {})));
    ASSERT_FALSE(updates.empty());
    const auto& streamed = updates.front().rate_limits;
    ASSERT_TRUE(streamed) << "the first update carries them";
    EXPECT_EQ(streamed->remaining_requests, 498);
    EXPECT_EQ(forma::to_agent_response(updates).rate_limits, streamed);
    for (std::size_t i = 1; i < updates.size(); ++i) EXPECT_FALSE(updates[i].rate_limits) << "once, not per update";
    const auto saved = boost::json::value_to<forma::agent_response<>>(boost::json::value_from(whole));
    EXPECT_EQ(saved.rate_limits, said) << "a response written as JSON keeps them";
}

TEST_F(rate_limits_test, a_response_without_the_headers_has_no_rate_limits) {
    auto& s = server();
    s.enqueue(scripted_reply::completion("plain"));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    EXPECT_FALSE(run(client.get_response(ask("a"), {})).rate_limits);
}

TEST_F(rate_limits_test, a_limiter_holds_the_next_request_until_the_provider_says_requests_reset) {
    auto& s = server();
    s.enqueue(with_limits(scripted_reply::completion("first"), "0", "200ms"));
    s.enqueue(scripted_reply::completion("second"));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::concurrency_limiter limited(client, {.max_in_flight = 4});
    run(limited.get_response(ask("a"), {}));
    const auto started = std::chrono::steady_clock::now();
    EXPECT_EQ(run(limited.get_response(ask("b"), {})).text(), "second");
    EXPECT_GE(std::chrono::steady_clock::now() - started, milliseconds(190));
}
