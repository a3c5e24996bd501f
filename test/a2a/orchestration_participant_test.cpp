// A remote A2A agent as a participant of orchestrations: a local chat agent (over the local model
// server on TLS) hands the conversation to it, and it answers in a sequence, whole or streamed.
#include <forma/a2a.hpp>
#include <forma/agent/chat_client_agent.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/model/awaits_input.hpp>
#include <forma/openai/chat_client.hpp>
#include <forma/orchestration.hpp>
#include <forma/testing/model_server.hpp>

#include "a2a_test_agent.hpp"
#include "openai/loopback.hpp"
#include "support/bounded_run.hpp"

#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
using forma::testing::scripted_reply;

class a2a_participant : public ::testing::Test {
protected:
    void SetUp() override {
        A2A_REQUIRE_TEST_AGENT();
        start_test_agent(server);
        remote = std::make_shared<forma::a2a::agent>(io.get_executor(),
                                                     forma::a2a::agent_options{.base_url = server->url()});
        // A remote agent is named by its card: read it before the orchestration is made.
        run(remote->connect());
        client = std::make_shared<forma::openai::chat_client>(io.get_executor(), loopback::client_options_for(model));
        triage = std::make_shared<forma::chat_client_agent>(*client, forma::chat_client_agent_options{.name = "triage"});
    }

    template <class T>
    T run(asio::awaitable<T> operation) {
        return forma_test::run_bounded(io, std::move(operation), std::chrono::seconds(60));
    }

    asio::io_context io;
    std::optional<forma_test::node_server> server;
    forma::testing::model_server model{io.get_executor()};
    std::shared_ptr<forma::a2a::agent> remote;
    std::shared_ptr<forma::openai::chat_client> client;
    std::shared_ptr<forma::chat_client_agent> triage;
};

TEST_F(a2a_participant, a_chat_agent_hands_off_to_a_remote_agent_by_its_cards_name) {
    ASSERT_EQ(remote->name(), "forma test agent");
    forma::handoff_orchestration desk({triage, remote});
    const std::string tool = forma::handoff_orchestration::tool_name(remote->name());
    EXPECT_EQ(tool, "handoff_to_forma_test_agent");
    for (const bool streamed : {false, true}) {
        SCOPED_TRACE(streamed ? "streamed" : "whole");
        if (streamed)
            model.enqueue(scripted_reply::stream_tool_calls({{"c1", tool, R"({"reason":"it greets"})"}}));
        else
            model.enqueue(scripted_reply::tool_calls({{"c1", tool, R"({"reason":"it greets"})"}}));
        auto session = desk.create_session();
        forma::agent_response<> r;
        if (streamed) {
            auto stream = desk.run_streaming("hello desk", session);
            r = run([&]() -> asio::awaitable<forma::agent_response<>> {
                forma::agent_response_builder merged;
                while (auto update = co_await stream.next()) merged.add(std::move(*update));
                co_return merged.take();
            }());
        } else {
            r = run(desk.run("hello desk", session));
        }
        // The remote agent read the question, not the handoff, and its answer carries its name.
        EXPECT_EQ(r.text(), "Hello! You said: hello desk");
        EXPECT_EQ(r.messages.back().author_name, "forma test agent");
        EXPECT_EQ(desk.state_of(*session).speakers, (std::vector<std::string>{"forma test agent"}));
    }
}

TEST_F(a2a_participant, a_remote_agent_answers_in_a_sequence_after_a_local_one) {
    forma::sequential_orchestration line({triage, remote});
    model.enqueue(scripted_reply::completion("hello from triage"));
    const forma::agent_response<> r = run(line.run("hello line"));
    ASSERT_EQ(r.messages.size(), 2u);
    EXPECT_EQ(r.messages[0].author_name, "triage");
    EXPECT_EQ(r.messages[1].author_name, "forma test agent");
    // The remote agent gets the conversation so far as one A2A message; its first text is the question.
    EXPECT_EQ(r.messages[1].text(), "Hello! You said: hello line");
}

TEST_F(a2a_participant, a_remote_agents_question_pauses_the_orchestration_and_the_answer_goes_to_it) {
    forma::sequential_orchestration line({remote, triage});
    for (const bool streamed : {false, true}) {
        SCOPED_TRACE(streamed ? "streamed" : "whole");
        auto ask = [&](std::string text, std::shared_ptr<forma::agent_session> session) {
            if (!streamed) return run(line.run(std::move(text), session));
            auto stream = line.run_streaming(std::move(text), session);
            return run([&]() -> asio::awaitable<forma::agent_response<>> {
                forma::agent_response_builder merged;
                while (auto update = co_await stream.next()) merged.add(std::move(*update));
                co_return merged.take();
            }());
        };
        auto session = line.create_session();
        const forma::agent_response<> question = ask("weather, please", session);
        EXPECT_EQ(question.text(), "Which city?");
        EXPECT_TRUE(forma::awaits_input(question));
        forma::orchestration_state state = line.state_of(*session);
        EXPECT_EQ(state.status, forma::orchestration_status::waiting);
        EXPECT_EQ(state.speakers, (std::vector<std::string>{"forma test agent"}));
        ASSERT_EQ(state.participants.count("forma test agent"), 1u) << "its A2A context and task are kept";
        EXPECT_TRUE(model.requests().empty()) << "the line stopped at the question";

        // The answer goes to the remote agent alone, in its task; then the line goes on.
        model.enqueue(streamed ? scripted_reply::stream("Noted.") : scripted_reply::completion("Noted."));
        const forma::agent_response<> answered = ask("Oslo", session);
        ASSERT_EQ(answered.messages.size(), 2u);
        EXPECT_EQ(answered.messages[0].text(), "Sunny in Oslo");
        EXPECT_EQ(answered.messages[1].author_name, "triage");
        EXPECT_EQ(line.state_of(*session).status, forma::orchestration_status::idle);
        EXPECT_EQ(model.requests().size(), 1u);
        model.clear_requests();
    }
}

} // namespace
