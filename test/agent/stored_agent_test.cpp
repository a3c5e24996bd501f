// stored_agent: runs by session id over a session_store, as two server instances would share
// one (here an in_memory_session_store; test/redis runs it on Redis): turns taken by either
// instance, the conflict of two concurrent turns and its clean retry, streamed and whole runs,
// typed runs, background runs finished by another instance; a stored agent under decorators and
// agent_builder, and the error of a session id given to an agent without a store.
#include <forma/agent/chat_client_agent.hpp>
#include <forma/agent/in_memory_session_store.hpp>
#include <forma/agent/stored_agent.hpp>
#include <forma/middleware/agent_builder.hpp>
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

forma::session_id id(const char* text) { return forma::session_id(text); }

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
    EXPECT_EQ(run(a.conversations.run("I am Ada.", id("conv-1"))).text(), "Hello, Ada.");
    EXPECT_EQ(run(b.conversations.run("Who am I?", id("conv-1"))).text(), "You are Ada.");

    ASSERT_EQ(b.model.requests().size(), 1u);
    std::vector<std::string> sent;
    for (const auto& m : b.model.requests()[0].messages) sent.push_back(m.text());
    EXPECT_EQ(sent, (std::vector<std::string>{"I am Ada.", "Hello, Ada.", "Who am I?"})) << "b saw a's turn";
    const agent_session stored = *run(store->load(forma::session_id("conv-1")));
    EXPECT_EQ(texts(stored), (std::vector<std::string>{"I am Ada.", "Hello, Ada.", "Who am I?", "You are Ada."}));
    EXPECT_EQ(stored.version, 2u);
    EXPECT_EQ(stored.id, id("conv-1"));
}

TEST_F(stored_agent_test, two_concurrent_turns_conflict_the_later_save_keeps_its_answer_and_a_retry_is_clean) {
    instance a(io, store), b(io, store);
    a.model.add_text_response("first");
    run(a.conversations.run("start", id("c")));
    a.model.add_text_response("answer to a");
    b.model.add_text_response("answer to b");
    auto stream_a = a.conversations.run_streaming("from a", id("c"));
    auto stream_b = b.conversations.run_streaming("from b", id("c"));
    // Both load version 1 before either saves.
    ASSERT_TRUE(run(stream_a.next()));
    ASSERT_TRUE(run(stream_b.next()));
    drain(stream_a);
    try {
        drain(stream_b);
        FAIL() << "b's turn overwrote a's";
    } catch (const forma::stored_run_conflict_error& e) {
        EXPECT_EQ(e.session_id(), id("c"));
        EXPECT_EQ(e.loaded_version(), 1u);
        EXPECT_EQ(e.stored_version(), 2u);
        EXPECT_EQ(e.response().text(), "answer to b") << "the unsaved answer is kept";
        ASSERT_TRUE(e.current());
        EXPECT_EQ(texts(*e.current()), (std::vector<std::string>{"start", "first", "from a", "answer to a"}))
            << "reloaded, nothing merged";
    }
    b.model.add_text_response("answer to b, again");
    run(b.conversations.run("from b", id("c")));
    EXPECT_EQ(texts(*run(store->load(forma::session_id("c")))), (std::vector<std::string>{"start", "first", "from a", "answer to a", "from b",
                                                                       "answer to b, again"}));
}

TEST_F(stored_agent_test, streamed_and_whole_runs_store_equal_sessions_and_give_equal_responses) {
    instance a(io, store);
    forma::agent_response<> scripted(forma::chat_message(forma::chat_role::assistant(), "streamed or not"));
    a.model.add_response(scripted);
    a.model.add_response(scripted);
    const auto whole = run(a.conversations.run("q", id("whole")));
    auto stream = a.conversations.run_streaming("q", id("streamed"));
    std::vector<forma::agent_response_update> updates;
    run([&]() -> asio::awaitable<bool> {
        while (auto update = co_await stream.next()) updates.push_back(std::move(*update));
        co_return true;
    }());
    EXPECT_EQ(forma::to_agent_response(updates).text(), whole.text());
    agent_session from_whole = *run(store->load(forma::session_id("whole")));
    agent_session from_stream = *run(store->load(forma::session_id("streamed")));
    EXPECT_EQ(texts(from_whole), texts(from_stream));
    EXPECT_EQ(from_whole.version, from_stream.version);
}

TEST_F(stored_agent_test, a_typed_run_reads_its_answer_and_stores_the_turn) {
    instance a(io, store);
    a.model.add_text_response(R"({"name":"Lyon","population":522250})");
    const auto answer = run(a.conversations.run<city>("Biggest city on the Rhône?", id("typed")));
    EXPECT_EQ(answer.result().name, "Lyon");
    EXPECT_EQ(answer.result().population, 522250);
    EXPECT_TRUE(a.model.requests()[0].options.response_format) << "the schema was asked for";
    EXPECT_EQ(run(store->load(forma::session_id("typed")))->history.size(), 2u);
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
    const auto first = run(a.conversations.run("a long question", id("bg"), background));
    ASSERT_TRUE(first.continuation_token);
    const auto kept = stored_agent::pending_run(*run(store->load(forma::session_id("bg"))));
    ASSERT_TRUE(kept) << "the token is in the stored session";
    EXPECT_EQ(*kept, *first.continuation_token);

    const auto finished = run(b.conversations.resume(id("bg")));
    EXPECT_EQ(finished.text(), "the long answer");
    ASSERT_EQ(b.model.requests().size(), 1u);
    ASSERT_TRUE(b.model.requests()[0].options.continuation_token) << "b resumed a's run";
    EXPECT_EQ(*b.model.requests()[0].options.continuation_token, *first.continuation_token);
    const agent_session after = *run(store->load(forma::session_id("bg")));
    EXPECT_FALSE(stored_agent::pending_run(after)) << "a finished run's token is dropped";
    EXPECT_EQ(after.history.back().text(), "the long answer");
    // The completion-token form: the error reaches the handler.
    std::exception_ptr failure;
    bool completed = false;
    b.conversations.async_resume(id("bg"), {}, [&](std::exception_ptr e, forma::agent_response<>) {
        failure = e;
        completed = true;
    });
    io.restart();
    io.run();
    ASSERT_TRUE(completed);
    try {
        std::rethrow_exception(failure);
    } catch (const forma::error& e) {
        EXPECT_NE(std::string(e.what()).find("has no background run to resume"), std::string::npos) << e.what();
    }
}

TEST_F(stored_agent_test, an_empty_session_id_is_refused) {
    instance a(io, store);
    EXPECT_THROW(run(a.conversations.run("hi", id(""))), forma::error);
    EXPECT_EQ(a.model.requests().size(), 0u);
}

namespace {

/// A decorator that records the session each run gets, to see a stored agent under decorators.
class session_recorder : public forma::delegating_agent {
public:
    using delegating_agent::delegating_agent;
    std::vector<forma::session_id> seen;

protected:
    asio::awaitable<forma::agent_response<>> run_core(forma::agent_run run) override {
        seen.push_back(run.session->id);
        co_return co_await delegating_agent::run_core(std::move(run));
    }
    forma::update_stream run_streaming_core(forma::agent_run run) override {
        seen.push_back(run.session->id);
        return delegating_agent::run_streaming_core(std::move(run));
    }
};

} // namespace

TEST_F(stored_agent_test, a_decorator_over_a_stored_agent_runs_by_session_id_and_the_turns_are_saved) {
    scripted_chat_client model(io.get_executor());
    model.add_text_response("one");
    model.add_text_response("two");
    auto recorder = std::make_shared<session_recorder>(
        std::make_shared<stored_agent>(std::make_shared<chat_client_agent>(model), store));
    forma::agent& decorated = *recorder;

    EXPECT_EQ(run(decorated.run("first", id("deco"))).text(), "one");
    auto stream = decorated.run_streaming("second", id("deco"));
    EXPECT_EQ(drain(stream), "two");

    EXPECT_EQ(recorder->seen, (std::vector<forma::session_id>{id("deco"), id("deco")})) << "the decorator saw the stored session";
    const agent_session stored = *run(store->load(id("deco")));
    EXPECT_EQ(texts(stored), (std::vector<std::string>{"first", "one", "second", "two"}));
    EXPECT_EQ(stored.version, 2u);
    ASSERT_EQ(model.requests().size(), 2u);
    EXPECT_EQ(model.requests()[1].messages.size(), 3u) << "the streamed turn was sent the whole-run turn";
}

TEST_F(stored_agent_test, agent_builder_use_session_store_makes_any_agent_run_by_session_id) {
    scripted_chat_client model(io.get_executor());
    model.add_text_response("kept");
    auto built = forma::agent_builder(std::make_shared<chat_client_agent>(model)).use_session_store(store).build();
    run(built->run("remember me", id("built")));
    EXPECT_EQ(texts(*run(store->load(id("built")))), (std::vector<std::string>{"remember me", "kept"}));
    EXPECT_THROW(forma::agent_builder(std::make_shared<chat_client_agent>(model)).use_session_store(nullptr),
                 forma::error);
}

TEST_F(stored_agent_test, a_held_session_run_through_a_stored_agent_is_saved_under_its_id) {
    instance a(io, store);
    a.model.add_text_response("saved");
    auto session = a.conversations.create_session();
    run(a.conversations.run("hello", session));
    EXPECT_EQ(session->version, 1u) << "the store gave it its first version";
    EXPECT_EQ(texts(*run(store->load(session->id))), (std::vector<std::string>{"hello", "saved"}));
}

TEST_F(stored_agent_test, an_agent_without_a_store_refuses_a_session_id_and_says_what_to_do) {
    scripted_chat_client model(io.get_executor());
    chat_client_agent plain(model, {.name = "helper"});
    try {
        run(plain.run("hi", id("nowhere")));
        FAIL() << "a session id was taken without a store to find it in";
    } catch (const forma::error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("\"helper\" keeps no sessions by id"), std::string::npos) << what;
        EXPECT_NE(what.find("\"nowhere\""), std::string::npos) << what;
        EXPECT_NE(what.find("use_session_store"), std::string::npos) << what;
    }
    auto stream = plain.run_streaming("hi", id("nowhere"));
    EXPECT_THROW(drain(stream), forma::error) << "the streamed form fails at its first next()";
    EXPECT_EQ(model.requests().size(), 0u);
}
