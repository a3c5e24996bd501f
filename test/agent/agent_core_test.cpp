#include <forma/agent/chat_client_agent.hpp>
#include <forma/agent/delegating_agent.hpp>
#include <forma/chat/make_tool.hpp>
#include <forma/model/agent_response_builder.hpp>

#include "agent_test_support.hpp"

#include <boost/describe/class.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>
#include <gtest/gtest.h>

#include <future>
#include <map>

using namespace agent_test;
using forma::chat_client_agent;
using forma::chat_role;
using forma::testing::scripted_chat_client;

namespace {

struct one_home_args {
    std::string text;
};
BOOST_DESCRIBE_STRUCT(one_home_args, (), (text))

class agent_core : public ::testing::Test {
protected:
    boost::asio::io_context io;
    scripted_chat_client client{io.get_executor()};
};

} // namespace

TEST_F(agent_core, chat_client_agent_sends_instructions_and_names_itself) {
    chat_client_agent agent(client, {.name = "assistant", .instructions = "Be brief."});
    client.add_text_response("Hello!");
    auto response = run_to_completion(io, agent.run("Hi"));
    EXPECT_EQ(response.text(), "Hello!");
    EXPECT_EQ(response.agent_id, agent.id());
    EXPECT_EQ(agent.id().size(), 32u);
    EXPECT_EQ(response.messages.at(0).author_name, "assistant");
    const auto& request = client.requests().at(0);
    EXPECT_EQ(request.options.instructions, "Be brief.");
    ASSERT_EQ(request.messages.size(), 1u);
    EXPECT_EQ(request.messages[0].role, chat_role::user());
    EXPECT_EQ(request.messages[0].text(), "Hi");
}

TEST_F(agent_core, run_options_override_agent_options_and_join_instructions_agent_first) {
    forma::chat_options defaults;
    defaults.model = "small";
    defaults.temperature = 0.1;
    chat_client_agent agent(client, {.name = "a", .instructions = "Agent rules.", .chat_options = defaults});
    forma::chat_options per_run;
    per_run.temperature = 0.9;
    per_run.instructions = "Run rules.";
    client.add_text_response("ok");
    (void)run_to_completion(io, agent.run("x", nullptr, {.chat_options = per_run}));
    const auto& sent = client.requests().at(0).options;
    EXPECT_EQ(sent.model, "small");
    EXPECT_EQ(sent.temperature, 0.9);
    EXPECT_EQ(sent.instructions, "Agent rules.\n\nRun rules.");
}

TEST_F(agent_core, a_format_set_at_creation_reaches_the_client_and_a_run_format_overrides_it) {
    const auto at_creation = forma::response_format::json();
    chat_client_agent agent(client, {.name = "a", .response_format = at_creation});
    client.add_text_response("{}");
    client.add_text_response("plain");
    (void)run_to_completion(io, agent.run("x"));
    (void)run_to_completion(io, agent.run("y", nullptr, {.response_format = forma::response_format::text()}));
    EXPECT_EQ(client.requests().at(0).options.response_format, at_creation);
    EXPECT_EQ(client.requests().at(1).options.response_format, forma::response_format::text());
}

// One precedence for a response format: the run's over the agent's, and at each level the
// response_format member (what run<T> sets) over the one in chat_options.
TEST_F(agent_core, a_response_format_set_in_several_places_follows_one_precedence) {
    const auto schema = [](const char* name) {
        return forma::response_format::json_schema(name, R"({"type":"object","properties":{},"required":[],"additionalProperties":false})");
    };
    const forma::response_format agent_chat_options = schema("agent_chat_options");
    const forma::response_format agent_member = forma::response_format::json();
    const forma::response_format run_chat_options = forma::response_format::text();
    const forma::response_format run_member = schema("run_member");
    forma::chat_options agent_options;
    agent_options.response_format = agent_chat_options;
    chat_client_agent agent(client, {.name = "a", .chat_options = agent_options, .response_format = agent_member});
    forma::chat_options per_run;
    per_run.response_format = run_chat_options;
    for (int i = 0; i < 5; ++i) client.add_text_response("{}");
    (void)run_to_completion(io, agent.run("x"));
    (void)run_to_completion(io, agent.run("y", nullptr, {.chat_options = per_run}));
    (void)run_to_completion(io, agent.run("z", nullptr, {.response_format = run_member, .chat_options = per_run}));
    EXPECT_EQ(client.requests().at(0).options.response_format, agent_member);
    EXPECT_EQ(client.requests().at(1).options.response_format, run_chat_options);
    EXPECT_EQ(client.requests().at(2).options.response_format, run_member);
    // A streamed run follows the same precedence.
    (void)run_to_completion(io, drain(agent.run_streaming("w")));
    (void)run_to_completion(io, drain(agent.run_streaming("v", nullptr, {.chat_options = per_run})));
    EXPECT_EQ(client.requests().at(3).options.response_format, agent_member);
    EXPECT_EQ(client.requests().at(4).options.response_format, run_chat_options);
}

TEST_F(agent_core, the_agents_instructions_tools_and_format_have_one_home_its_chat_options) {
    forma::chat_options asked;
    asked.instructions = "Be brief.";
    asked.tools.push_back(forma::make_tool("ping", "Answers pong.", [](const one_home_args&) { return std::string("pong"); }));
    chat_client_agent agent(client, {.name = "a",
                                     .instructions = "You are a.",
                                     .chat_options = asked,
                                     .response_format = forma::response_format::json(),
                                     .tools = {forma::make_tool("echo", "Echoes.", [](const one_home_args&) { return std::string("echo"); })}});
    const auto& options = agent.options();
    EXPECT_TRUE(options.instructions.empty());
    EXPECT_FALSE(options.response_format);
    EXPECT_TRUE(options.tools.empty());
    EXPECT_EQ(options.chat_options.instructions, "You are a.\n\nBe brief.");
    EXPECT_EQ(options.chat_options.response_format, forma::response_format::json());
    ASSERT_EQ(options.chat_options.tools.size(), 2u);
    EXPECT_EQ(options.chat_options.tools[0].name(), "ping");
    EXPECT_EQ(options.chat_options.tools[1].name(), "echo");
}

TEST_F(agent_core, the_session_keeps_the_conversation_and_survives_json) {
    chat_client_agent agent(client, {.name = "a"});
    auto session = agent.create_session();
    client.add_text_response("first answer");
    (void)run_to_completion(io, agent.run("first question", session));
    ASSERT_EQ(session->history.size(), 2u);

    // Store the session as JSON, as a server would between requests, and restore it.
    const auto stored = boost::json::value_from(*session);
    auto restored = std::make_shared<forma::agent_session>(boost::json::value_to<forma::agent_session>(stored));
    EXPECT_EQ(*restored, *session);

    client.add_text_response("second answer");
    (void)run_to_completion(io, agent.run("second question", restored));
    const auto& sent = client.requests().at(1).messages;
    ASSERT_EQ(sent.size(), 3u);
    EXPECT_EQ(sent[0].text(), "first question");
    EXPECT_EQ(sent[1].text(), "first answer");
    EXPECT_EQ(sent[1].author_name, "a");
    EXPECT_EQ(sent[2].text(), "second question");
    EXPECT_EQ(restored->history.size(), 4u);
}

TEST_F(agent_core, a_run_without_a_session_starts_fresh_each_time) {
    chat_client_agent agent(client, {.name = "a"});
    client.add_text_response("1");
    client.add_text_response("2");
    (void)run_to_completion(io, agent.run("x"));
    (void)run_to_completion(io, agent.run("y"));
    EXPECT_EQ(client.requests().at(1).messages.size(), 1u);
}

TEST_F(agent_core, streaming_yields_claimed_updates_and_stores_the_merged_answer) {
    chat_client_agent agent(client, {.name = "streamer"});
    client.add_updates({text_update("Hel", "m1"), text_update("lo", "m1")});
    auto session = agent.create_session();
    auto updates = run_to_completion(io, drain(agent.run_streaming("hi", session)));
    ASSERT_EQ(updates.size(), 2u);
    EXPECT_EQ(updates[0].author_name, "streamer");
    EXPECT_EQ(updates[1].agent_id, agent.id());
    EXPECT_EQ(forma::to_agent_response(updates).text(), "Hello");
    ASSERT_EQ(session->history.size(), 2u);
    EXPECT_EQ(session->history[1].text(), "Hello");
    EXPECT_TRUE(client.requests().at(0).streaming);
}

TEST_F(agent_core, a_streamed_run_merges_into_what_the_whole_run_returns) {
    // A response with a time on the response only, a trailing tool message and usage: the
    // stream's header and trailer updates carry no contents and must not become (or name the
    // author of) a message.
    forma::agent_response<> script(std::vector<forma::chat_message>{
        forma::chat_message(chat_role::assistant(), std::vector<forma::content>{forma::function_call_content("c", "f")}),
        forma::chat_message(chat_role::tool(), std::vector<forma::content>{forma::function_result_content("c", 1)})});
    script.response_id = "r1";
    script.created_at = std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));
    script.finish_reason = forma::finish_reason::stop();
    script.usage = forma::usage_details{.input_token_count = 3};
    chat_client_agent agent(client, {.name = "streamer"});
    client.add_response(script);
    client.add_response(script);
    const auto whole = run_to_completion(io, agent.run("hi"));
    const auto streamed = forma::to_agent_response(run_to_completion(io, drain(agent.run_streaming("hi"))));
    EXPECT_EQ(streamed, whole) << boost::json::serialize(boost::json::value_from(streamed)) << "\n"
                               << boost::json::serialize(boost::json::value_from(whole));
    ASSERT_EQ(whole.messages.size(), 2u);
    EXPECT_EQ(whole.messages[0].author_name, "streamer");
    EXPECT_EQ(whole.messages[1].author_name, "");
    EXPECT_FALSE(whole.messages[0].created_at);
}

TEST_F(agent_core, leaving_a_stream_early_cancels_its_producer) {
    chat_client_agent agent(client, {.name = "a"});
    std::vector<forma::agent_response_update> many;
    for (int i = 0; i < 1000; ++i) many.push_back(text_update("x"));
    client.add_updates(std::move(many));
    const auto first_two = [&]() -> boost::asio::awaitable<int> {
        auto stream = agent.run_streaming("go");
        int seen = 0;
        while (auto u = co_await stream.next())
            if (++seen == 2) break; // the stream is destroyed here
        co_return seen;
    };
    EXPECT_EQ(run_to_completion(io, first_two()), 2);
    EXPECT_EQ(client.live_streams(), 0);
    EXPECT_EQ(client.updates_yielded(), 2u) << "nothing is produced after the consumer leaves";
}

TEST_F(agent_core, a_stream_error_reaches_the_consumer_after_the_updates_before_it) {
    chat_client_agent agent(client, {.name = "a"});
    client.add_updates({text_update("partial")}, std::make_exception_ptr(forma::error("connection lost")));
    std::vector<std::string> seen;
    const auto consume = [&]() -> boost::asio::awaitable<void> {
        auto stream = agent.run_streaming("go");
        while (auto u = co_await stream.next()) seen.push_back(u->text());
    };
    EXPECT_THROW(run_to_completion(io, consume()), forma::error);
    EXPECT_EQ(seen, (std::vector<std::string>{"partial"}));
}

TEST_F(agent_core, async_forms_take_callbacks_and_futures) {
    chat_client_agent agent(client, {.name = "a"});
    client.add_text_response(R"({"name":"Cy","age":5})");
    client.add_text_response("plain");
    std::optional<person> from_callback;
    agent.async_run<person>("x", [&](std::exception_ptr e, forma::agent_response<person> r) {
        ASSERT_FALSE(e);
        from_callback = r.result();
    });
    std::future<forma::agent_response<>> future = agent.async_run("y", boost::asio::use_future);
    io.run();
    ASSERT_TRUE(from_callback);
    EXPECT_EQ(from_callback->name, "Cy");
    EXPECT_EQ(future.get().text(), "plain");

    // A chat client, likewise.
    client.add_text_response("from the client");
    std::future<forma::agent_response<>> direct =
        client.async_get_response({forma::chat_message(chat_role::user(), "z")}, {}, boost::asio::use_future);
    io.restart();
    io.run();
    EXPECT_EQ(direct.get().text(), "from the client");
}

TEST_F(agent_core, a_client_error_propagates_from_run) {
    chat_client_agent agent(client, {.name = "a"});
    client.add_error(std::make_exception_ptr(forma::error("rate limited")));
    EXPECT_THROW(run_to_completion(io, agent.run("x")), forma::error);
}

TEST_F(agent_core, a_stream_is_read_with_completion_handlers_too) {
    chat_client_agent agent(client, {.name = "a"});
    client.add_updates({text_update("a"), text_update("b")});
    auto stream = agent.run_streaming("go");
    std::string seen;
    std::function<void(std::exception_ptr, std::optional<forma::agent_response_update>)> on_update =
        [&](std::exception_ptr e, std::optional<forma::agent_response_update> u) {
            ASSERT_FALSE(e);
            if (!u) return;
            seen += u->text();
            stream.async_next(on_update);
        };
    stream.async_next(on_update);
    io.run();
    EXPECT_EQ(seen, "ab");
    EXPECT_EQ(client.live_streams(), 0) << "the source is released at the end of the stream";
}

TEST_F(agent_core, scripted_client_forgets_requests_but_keeps_counting_calls) {
    chat_client_agent agent(client, {.name = "assistant"});
    client.add_text_response("one");
    run_to_completion(io, agent.run("first"));
    ASSERT_EQ(client.requests().size(), 1u);
    client.clear_requests();
    EXPECT_TRUE(client.requests().empty());
    try {
        run_to_completion(io, agent.run("second")); // nothing scripted
        FAIL() << "expected an error";
    } catch (const forma::error& e) {
        EXPECT_NE(std::string(e.what()).find("for request 2"), std::string::npos) << e.what();
    }
    EXPECT_EQ(client.requests().size(), 1u);
}

TEST(unique_id, is_32_hex_digits_after_its_prefix_and_new_each_time) {
    const std::string plain = forma::make_unique_id();
    const std::string prefixed = forma::make_unique_id("chatcmpl-");
    EXPECT_EQ(plain.size(), 32u);
    ASSERT_EQ(prefixed.size(), 9u + 32u);
    EXPECT_EQ(prefixed.substr(0, 9), "chatcmpl-");
    EXPECT_EQ(prefixed.find_first_not_of("0123456789abcdef", 9), std::string::npos);
    EXPECT_EQ(plain.find_first_not_of("0123456789abcdef"), std::string::npos);
    EXPECT_NE(prefixed.substr(9), plain);
    EXPECT_NE(forma::make_unique_id("chatcmpl-"), prefixed);
}

TEST(unique_id, uses_every_hex_digit_about_equally) {
    std::map<char, int> counts;
    for (int i = 0; i < 1000; ++i)
        for (const char c : forma::make_unique_id()) ++counts[c];
    ASSERT_EQ(counts.size(), 16u); // 32,000 digits: 2,000 of each expected, a standard deviation of 43
    for (const auto& [digit, count] : counts) {
        EXPECT_GT(count, 1700) << digit;
        EXPECT_LT(count, 2300) << digit;
    }
}
