// forma::served_agent, the core of the A2A, OpenAI and AG-UI servers: runs of tasks in the
// background, their owners, sessions, failures and cancellations.
#include <forma/agent/in_memory_task_store.hpp>
#include <forma/agent/served_agent.hpp>

#include "support/bounded_run.hpp"
#include "support/trigger_agent.hpp"

#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;
using forma::agent_task;
using forma::served_agent;
using forma::task_state;

class served_agent_test : public ::testing::Test {
protected:
    asio::io_context io;
    forma_test::trigger_agent agent{io.get_executor()};
    std::shared_ptr<forma::in_memory_task_store> tasks = std::make_shared<forma::in_memory_task_store>(io.get_executor());
    std::optional<served_agent> core{std::in_place, agent, tasks};

    template <class T>
    T run(asio::awaitable<T> op) {
        return forma_test::run_bounded(io, std::move(op), 10s);
    }

    // Creates a task of `caller`'s and starts its run on `text`.
    agent_task start(std::string id, std::string text, std::string caller = "alice") {
        agent_task task{.id = std::move(id), .context_id = "c1", .owner = served_agent::owner_of("p", caller)};
        run([&]() -> asio::awaitable<bool> {
            co_await core->tasks()->create(task);
            co_return true;
        }());
        core->start(task, {forma::chat_message(forma::chat_role::user(), std::move(text))});
        return task;
    }

    agent_task settled(const std::string& id) {
        std::optional<agent_task> task = run(core->settle(id));
        if (!task) throw std::runtime_error("no task " + id);
        return *task;
    }

    // The task once its run has said its first update.
    agent_task working(const std::string& id) {
        return run([&]() -> asio::awaitable<agent_task> {
            for (;;) {
                std::optional<agent_task> task = co_await core->tasks()->load(id);
                if (task && task->updates.size() >= 2) co_return *task;
                (void)co_await core->tasks()->changes(id, task ? task->updates.size() : 0, task ? task->version : 0, 1s);
            }
        }());
    }
};

std::string said(const agent_task& task) {
    std::string text;
    for (const auto& update : task.updates) text += update.text();
    return text;
}

TEST_F(served_agent_test, a_task_runs_to_completion_and_its_session_is_saved) {
    const agent_task task = start("t1", "hello there");
    const agent_task done = settled("t1");
    EXPECT_EQ(done.state, task_state::completed);
    EXPECT_EQ(said(done), "Hello! You said: hello there");
    EXPECT_EQ(served_agent::session_of(task).str(), "p/alice/c1");
    const auto session = run(core->sessions()->load(served_agent::session_of(task)));
    ASSERT_TRUE(session.has_value()) << "the default session store keeps the conversation";
    EXPECT_FALSE(session->history.empty());
    EXPECT_EQ(core->running(), 0u);
}

TEST_F(served_agent_test, a_task_is_found_only_by_its_owner) {
    (void)start("t1", "hello");
    (void)settled("t1");
    EXPECT_TRUE(run(core->load_owned("t1", served_agent::owner_of("p", "alice"))).has_value());
    EXPECT_FALSE(run(core->load_owned("t1", served_agent::owner_of("p", "bob"))).has_value());
    EXPECT_FALSE(run(core->load_owned("t1", served_agent::owner_of("q", "alice"))).has_value()) << "another protocol's";
    EXPECT_FALSE(run(core->load_owned("t2", served_agent::owner_of("p", "alice"))).has_value());
    EXPECT_NE(served_agent::session_of({.id = "x", .context_id = "c1", .owner = served_agent::owner_of("p", "bob")}),
              served_agent::session_of({.id = "y", .context_id = "c1", .owner = served_agent::owner_of("p", "alice")}));
}

TEST_F(served_agent_test, a_failed_run_ends_failed_with_its_message) {
    (void)start("t1", "fail");
    const agent_task done = settled("t1");
    EXPECT_EQ(done.state, task_state::failed);
    EXPECT_NE(done.error.find("failed on purpose"), std::string::npos) << done.error;
}

TEST_F(served_agent_test, a_question_leaves_the_task_waiting_and_cancel_ends_it) {
    (void)start("t1", "weather");
    const agent_task waiting = settled("t1");
    ASSERT_EQ(waiting.state, task_state::input_required);
    run([&]() -> asio::awaitable<bool> {
        co_await core->cancel(waiting);
        co_return true;
    }());
    const agent_task ended = settled("t1");
    EXPECT_EQ(ended.state, task_state::canceled);
    EXPECT_TRUE(ended.cancel_requested);
}

TEST_F(served_agent_test, cancel_stops_a_running_task) {
    (void)start("t1", "forever");
    const agent_task running = working("t1");
    EXPECT_EQ(core->running(), 1u);
    run([&]() -> asio::awaitable<bool> {
        co_await core->cancel(running);
        co_return true;
    }());
    const agent_task ended = settled("t1");
    EXPECT_EQ(ended.state, task_state::canceled);
    EXPECT_EQ(said(ended), "working") << "what was said before the cancellation is kept";
    EXPECT_EQ(core->running(), 0u);
    EXPECT_FALSE(core->stop("t1")) << "nothing runs it any more";
}

TEST_F(served_agent_test, a_cancellation_asked_through_the_store_reaches_the_run) {
    (void)start("t1", "forever");
    (void)working("t1");
    (void)run(tasks->request_cancel("t1")); // as another server of a fleet would
    EXPECT_EQ(settled("t1").state, task_state::canceled);
}

TEST_F(served_agent_test, destroying_the_core_cancels_what_still_runs) {
    (void)start("t1", "forever");
    (void)working("t1");
    core.reset();
    const agent_task ended = run([&]() -> asio::awaitable<agent_task> {
        for (;;) {
            std::optional<agent_task> task = co_await tasks->load("t1");
            if (forma::is_final(task->state)) co_return *task;
            (void)co_await tasks->changes("t1", task->updates.size(), task->version, 1s);
        }
    }());
    EXPECT_EQ(ended.state, task_state::canceled);
    EXPECT_EQ(agent.canceled(), 1);
}

} // namespace
