// stored_agent: runs by session id over a session_store, as two server instances would share
// one (here an in_memory_session_store; test/redis runs it on Redis): turns taken by either
// instance, the conflict of two concurrent turns and its clean retry, streamed and whole runs,
// typed runs, background runs finished by another instance.
#include <forma/agent/chat_client_agent.hpp>
#include <forma/agent/in_memory_session_store.hpp>
#include <forma/agent/stored_agent.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include "support/bounded_run.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/describe/class.hpp>

#include <gtest/gtest.h>

namespace asio = boost::asio;
using forma::agent_session;
using forma::chat_client_agent;
using forma::stored_agent;
using forma::testing::scripted_chat_client;

namespace {

struct city {
    std::string name;
    int population = 0;
};
BOOST_DESCRIBE_STRUCT(city, (), (name, population))

class stored_agent_test : public ::testing::Test {
protected:
    template <class T>
    T run(asio::awaitable<T> operation) {
        return forma_test::run_bounded(io, std::move(operation), std::chrono::seconds(10));
    }

    // One "server instance": its own model client and agent, the shared store.
    struct instance {
        instance(asio::io_context& io, std::shared_ptr<forma::session_store> store)
            : model(io.get_executor()), conversations(std::make_shared<chat_client_agent>(model), std::move(store)) {}
        scripted_chat_client model;
        stored_agent conversations;
    };

    std::vector<std::string> texts(const agent_session& s) {
        std::vector<std::string> out;
        for (const auto& m : s.history) out.push_back(m.text());
        return out;
    }

    std::string drain(forma::update_stream& stream) {
        return run([&]() -> asio::awaitable<std::string> {
            std::string text;
            while (auto update = co_await stream.next()) text += update->text();
            co_return text;
        }());
    }

    asio::io_context io;
    std::shared_ptr<forma::in_memory_session_store> store = std::make_shared<forma::in_memory_session_store>(io.get_executor());
};

} // namespace

TEST_F(stored_agent_test, turns_taken_by_different_instances_continue_one_conversation) {
    instance a(io, store), b(io, store);
    a.model.add_text_response("Hello, Ada.");
    b.model.add_text_response("You are Ada.");
    EXPECT_EQ(run(a.conversations.run("conv-1", "I am Ada.")).text(), "Hello, Ada.");
    EXPECT_EQ(run(b.conversations.run("conv-1", "Who am I?")).text(), "You are Ada.");

    ASSERT_EQ(b.model.requests().size(), 1u);
    std::vector<std::string> sent;
    for (const auto& m : b.model.requests()[0].messages) sent.push_back(m.text());
    EXPECT_EQ(sent, (std::vector<std::string>{"I am Ada.", "Hello, Ada.", "Who am I?"})) << "b saw a's turn";
    const agent_session stored = *run(store->load("conv-1"));
    EXPECT_EQ(texts(stored), (std::vector<std::string>{"I am Ada.", "Hello, Ada.", "Who am I?", "You are Ada."}));
    EXPECT_EQ(stored.version, 2u);
    EXPECT_EQ(stored.id, "conv-1");
}

TEST_F(stored_agent_test, two_concurrent_turns_conflict_the_later_save_keeps_its_answer_and_a_retry_is_clean) {
    instance a(io, store), b(io, store);
    a.model.add_text_response("first");
    run(a.conversations.run("c", "start"));
    a.model.add_text_response("answer to a");
    b.model.add_text_response("answer to b");
    auto stream_a = a.conversations.run_streaming("c", "from a");
    auto stream_b = b.conversations.run_streaming("c", "from b");
    // Both load version 1 before either saves.
    ASSERT_TRUE(run(stream_a.next()));
    ASSERT_TRUE(run(stream_b.next()));
    drain(stream_a);
    try {
        drain(stream_b);
        FAIL() << "b's turn overwrote a's";
    } catch (const forma::stored_run_conflict_error& e) {
        EXPECT_EQ(e.session_id(), "c");
        EXPECT_EQ(e.loaded_version(), 1u);
        EXPECT_EQ(e.stored_version(), 2u);
        EXPECT_EQ(e.response().text(), "answer to b") << "the unsaved answer is kept";
        ASSERT_TRUE(e.current());
        EXPECT_EQ(texts(*e.current()), (std::vector<std::string>{"start", "first", "from a", "answer to a"}))
            << "reloaded, nothing merged";
    }
    b.model.add_text_response("answer to b, again");
    run(b.conversations.run("c", "from b"));
    EXPECT_EQ(texts(*run(store->load("c"))), (std::vector<std::string>{"start", "first", "from a", "answer to a", "from b",
                                                                       "answer to b, again"}));
}

TEST_F(stored_agent_test, streamed_and_whole_runs_store_equal_sessions_and_give_equal_responses) {
    instance a(io, store);
    forma::agent_response<> scripted(forma::chat_message(forma::chat_role::assistant(), "streamed or not"));
    a.model.add_response(scripted);
    a.model.add_response(scripted);
    const auto whole = run(a.conversations.run("whole", "q"));
    auto stream = a.conversations.run_streaming("streamed", "q");
    std::vector<forma::agent_response_update> updates;
    run([&]() -> asio::awaitable<bool> {
        while (auto update = co_await stream.next()) updates.push_back(std::move(*update));
        co_return true;
    }());
    EXPECT_EQ(forma::to_agent_response(updates).text(), whole.text());
    agent_session from_whole = *run(store->load("whole"));
    agent_session from_stream = *run(store->load("streamed"));
    EXPECT_EQ(texts(from_whole), texts(from_stream));
    EXPECT_EQ(from_whole.version, from_stream.version);
}

TEST_F(stored_agent_test, a_typed_run_reads_its_answer_and_stores_the_turn) {
    instance a(io, store);
    a.model.add_text_response(R"({"name":"Lyon","population":522250})");
    const auto answer = run(a.conversations.run<city>("typed", "Biggest city on the Rhône?"));
    EXPECT_EQ(answer.result().name, "Lyon");
    EXPECT_EQ(answer.result().population, 522250);
    EXPECT_TRUE(a.model.requests()[0].options.response_format) << "the schema was asked for";
    EXPECT_EQ(run(store->load("typed"))->history.size(), 2u);
}

TEST_F(stored_agent_test, a_background_run_is_kept_in_the_session_and_another_instance_finishes_it) {
    instance a(io, store), b(io, store);
    forma::agent_response<> started;
    started.continuation_token = forma::continuation_token(boost::json::value{{"response", "resp_1"}});
    a.model.add_response(started);
    forma::agent_response<> done(forma::chat_message(forma::chat_role::assistant(), "the long answer"));
    b.model.add_response(done);

    forma::agent_run_options background;
    background.allow_background_responses = true;
    const auto first = run(a.conversations.run("bg", "a long question", background));
    ASSERT_TRUE(first.continuation_token);
    const auto kept = stored_agent::pending_run(*run(store->load("bg")));
    ASSERT_TRUE(kept) << "the token is in the stored session";
    EXPECT_EQ(*kept, *first.continuation_token);

    const auto finished = run(b.conversations.resume("bg"));
    EXPECT_EQ(finished.text(), "the long answer");
    ASSERT_EQ(b.model.requests().size(), 1u);
    ASSERT_TRUE(b.model.requests()[0].options.continuation_token) << "b resumed a's run";
    EXPECT_EQ(*b.model.requests()[0].options.continuation_token, *first.continuation_token);
    const agent_session after = *run(store->load("bg"));
    EXPECT_FALSE(stored_agent::pending_run(after)) << "a finished run's token is dropped";
    EXPECT_EQ(after.history.back().text(), "the long answer");
    try {
        run(b.conversations.resume("bg"));
        FAIL();
    } catch (const forma::error& e) {
        EXPECT_NE(std::string(e.what()).find("has no background run to resume"), std::string::npos) << e.what();
    }
}

TEST_F(stored_agent_test, an_empty_session_id_is_refused) {
    instance a(io, store);
    EXPECT_THROW(run(a.conversations.run("", "hi")), forma::error);
    EXPECT_EQ(a.model.requests().size(), 0u);
}
