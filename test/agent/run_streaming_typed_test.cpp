// agent.run_streaming<T>: partial snapshots as the answer streams, then the validated T
// or its typed error; through decorators; leaving early cancels.

#include <forma/agent/chat_client_agent.hpp>
#include <forma/middleware/agent_builder.hpp>
#include <forma/model/output_truncated_error.hpp>
#include <forma/model/refusal_error.hpp>

#include "agent_test_support.hpp"

#include <gtest/gtest.h>

using namespace agent_test;
using forma::chat_client_agent;
using forma::testing::scripted_chat_client;

namespace {

class run_streaming_typed : public ::testing::Test {
protected:
    boost::asio::io_context io;
    scripted_chat_client client{io.get_executor()};
    // Reading answers is tested here, without validation retries (see output_retry_test).
    chat_client_agent agent{client, {.name = "extractor", .max_output_retries = 0}};

    // The answer streamed in pieces of `size` bytes.
    void script(const std::string& answer, std::size_t size, std::optional<forma::finish_reason> finish = {}) {
        std::vector<forma::agent_response_update> updates;
        for (std::size_t i = 0; i < answer.size(); i += size) updates.push_back(text_update(answer.substr(i, size)));
        if (finish) updates.back().finish_reason = finish;
        client.add_updates(std::move(updates));
    }

    // What each event showed of the name, and the final person.
    struct seen {
        std::vector<std::string> names;
        std::vector<bool> ages_known;
        std::optional<person> result;
        std::size_t events = 0;
    };
    seen read_all(forma::agent& a) {
        return run_to_completion(io, [&a]() -> boost::asio::awaitable<seen> {
            seen out;
            auto stream = a.run_streaming<person>("John Smith is 42.");
            while (auto event = co_await stream.next()) {
                ++out.events;
                out.names.push_back(event->snapshot()[&person::name].value());
                out.ages_known.push_back(event->snapshot()[&person::age].has_value());
                if (event->is_final()) out.result = event->result();
            }
            co_return out;
        }());
    }
};

const std::string answer = R"({"name": "John Smith", "age": 42, "occupation": null})";

} // namespace

TEST_F(run_streaming_typed, snapshots_fill_in_and_the_final_event_has_the_value) {
    script(answer, 4);
    const seen s = read_all(agent);
    ASSERT_TRUE(s.result);
    EXPECT_EQ(*s.result, (person{"John Smith", 42, std::nullopt}));
    EXPECT_EQ(s.events, (answer.size() + 3) / 4 + 1); // one per update, then the final one
    // The name grew piece by piece ({"na, me":, "Jo, hn S, ...) and never shrank.
    EXPECT_EQ(s.names[2], "Jo");
    EXPECT_EQ(s.names[3], "John S");
    for (std::size_t i = 1; i < s.names.size(); ++i) EXPECT_EQ(s.names[i].rfind(s.names[i - 1], 0), 0u);
    EXPECT_FALSE(s.ages_known[7]); // the text ends in `"age": 42`: 42 may become 421
    EXPECT_TRUE(s.ages_known[8]);
    EXPECT_TRUE(s.ages_known.back());
    // The request asked for the person's schema, streaming.
    ASSERT_EQ(client.requests().size(), 1u);
    EXPECT_TRUE(client.requests()[0].streaming);
    ASSERT_TRUE(client.requests()[0].options.response_format);
}

TEST_F(run_streaming_typed, works_through_decorators) {
    script(answer, 1);
    auto decorated = forma::agent_builder(agent)
                         .use([](std::shared_ptr<forma::agent> inner) {
                             return std::make_shared<forma::delegating_agent>(std::move(inner));
                         })
                         .build();
    const seen s = read_all(*decorated);
    ASSERT_TRUE(s.result);
    EXPECT_EQ(s.result->name, "John Smith");
    EXPECT_EQ(s.events, answer.size() + 1);
}

TEST_F(run_streaming_typed, a_wrapped_root_streams_its_elements) {
    const std::string numbers = R"({"data": [1, 22, 333]})";
    script(numbers, 3);
    auto sizes = run_to_completion(io, [&]() -> boost::asio::awaitable<std::vector<std::size_t>> {
        std::vector<std::size_t> out;
        auto stream = agent.run_streaming<std::vector<int>>("numbers");
        while (auto event = co_await stream.next()) {
            out.push_back(event->snapshot().size());
            if (event->is_final()) {
                EXPECT_EQ(event->result(), (std::vector<int>{1, 22, 333}));
            }
        }
        co_return out;
    }());
    EXPECT_EQ(sizes.back(), 3u);
    EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
}

TEST_F(run_streaming_typed, the_stream_asks_the_provider_as_the_whole_run_does_and_reads_the_same_value) {
    tool_only_provider provider(client);
    chat_client_agent on_provider(provider, {.name = "extractor", .max_output_retries = 0});
    client.add_text_response(answer);
    const person whole = run_to_completion(io, on_provider.run<person>("John Smith is 42.")).result();
    const forma::chat_options whole_options = client.requests().back().options;
    script(answer, 7);
    const seen streamed = read_all(on_provider);
    const forma::chat_options& streamed_options = client.requests().back().options;
    EXPECT_TRUE(client.requests().back().streaming);
    EXPECT_EQ(streamed_options.response_format, whole_options.response_format);
    EXPECT_EQ(streamed_options.response_format->strict(), false);
    EXPECT_EQ(streamed_options.structured_output_mode, forma::structured_output_mode::tool);
    EXPECT_EQ(whole_options.structured_output_mode, forma::structured_output_mode::tool);
    ASSERT_TRUE(streamed.result.has_value());
    EXPECT_EQ(*streamed.result, whole);
}

TEST_F(run_streaming_typed, text_that_cannot_be_the_type_fails_as_soon_as_it_shows) {
    script(R"({"name": "x", "age": "forty", "occupation": null})", 8);
    try {
        read_all(agent);
        FAIL() << "expected a json_error";
    } catch (const forma::json_error& e) {
        EXPECT_EQ(e.path(), "/age");
    }
    EXPECT_EQ(client.live_streams(), 0);
    EXPECT_LT(client.updates_yielded(), 7u) << "the stream was read past the error";
}

TEST_F(run_streaming_typed, an_invalid_final_value_is_a_json_error_with_its_path) {
    script(R"({"name": "x"})", 5);
    try {
        read_all(agent);
        FAIL() << "expected a json_error";
    } catch (const forma::json_error& e) {
        EXPECT_NE(std::string(e.what()).find("missing required member \"age\""), std::string::npos) << e.what();
    }
}

TEST_F(run_streaming_typed, truncation_mid_stream_is_an_output_truncated_error) {
    script(R"({"name": "John Sm)", 4, forma::finish_reason::length());
    EXPECT_THROW(read_all(agent), forma::output_truncated_error);
}

TEST_F(run_streaming_typed, a_refusal_is_a_refusal_error) {
    forma::agent_response_update refusal(forma::chat_role::assistant(), std::vector<forma::content>{
                                                                            forma::refusal_content("I can't.")});
    client.add_updates({refusal});
    try {
        read_all(agent);
        FAIL() << "expected a refusal_error";
    } catch (const forma::refusal_error& e) {
        EXPECT_EQ(e.refusal(), "I can't.");
    }
}

TEST_F(run_streaming_typed, leaving_early_cancels_the_stream) {
    script(answer, 2);
    run_to_completion(io, [&]() -> boost::asio::awaitable<void> {
        auto stream = agent.run_streaming<person>("x");
        while (auto event = co_await stream.next())
            if (event->snapshot()[&person::name].complete()) break;
        EXPECT_EQ(client.live_streams(), 1);
    }());
    EXPECT_EQ(client.live_streams(), 0);
    EXPECT_LT(client.updates_yielded(), answer.size() / 2);
}
