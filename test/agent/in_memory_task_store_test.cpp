// in_memory_task_store as a bounded peak (test/redis runs the task_store contract on it and on
// Redis): a flood of tasks waiting for an answer gives way to new work, the tasks that gave way
// read as expired, waiting and ended tasks expire by time, and running tasks are never dropped.
#include <forma/agent/in_memory_task_store.hpp>
#include <forma/error.hpp>

#include "support/bounded_run.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;
using forma::task_state;

forma::agent_task task_of(std::string id, std::size_t text_bytes = 10) {
    return forma::agent_task{.id = std::move(id), .context_id = "c", .owner = "a2a/",
                             .input = {forma::chat_message(forma::chat_role::user(), std::string(text_bytes, 'x'))}};
}

template <class T>
T run(asio::io_context& io, asio::awaitable<T> op) {
    return forma_test::run_bounded(io, std::move(op), 10s);
}

asio::awaitable<void> pause(std::chrono::milliseconds d) {
    asio::steady_timer timer(co_await asio::this_coro::executor, d);
    co_await timer.async_wait(asio::use_awaitable);
}

TEST(in_memory_task_store, a_flood_of_waiting_tasks_gives_way_to_new_work_and_reads_as_expired) {
    asio::io_context io;
    forma::in_memory_task_store store(io.get_executor(), {.max_tasks = 100});
    std::optional<forma::agent_task> oldest, expired, last_waiting;
    run(io, [&]() -> asio::awaitable<bool> {
        for (int i = 0; i < 1000; ++i) {
            const std::string id = "t" + std::to_string(i);
            co_await store.create(task_of(id));
            co_await store.set_state(id, task_state::input_required);
        }
        oldest = co_await store.load("t0");
        expired = co_await store.load("t850");
        last_waiting = co_await store.load("t999");
        co_return true;
    }());
    ASSERT_TRUE(expired && last_waiting);
    EXPECT_EQ(expired->state, task_state::failed);
    EXPECT_TRUE(expired->error.starts_with("expired: the server needed room for new work")) << expired->error;
    EXPECT_TRUE(expired->input.empty()) << "an expired task keeps only why";
    EXPECT_EQ(last_waiting->state, task_state::input_required);
    EXPECT_FALSE(oldest.has_value()) << "max_tasks expired tasks are told, older ones are gone";
    EXPECT_EQ(store.size(), 200u) << "max_tasks waiting and max_tasks expired";
}

TEST(in_memory_task_store, bytes_bound_the_store_the_ended_going_first_then_the_waiting) {
    asio::io_context io;
    forma::in_memory_task_store store(io.get_executor(), {.max_bytes = 64 * 1024});
    std::optional<forma::agent_task> ended, waiting, newest;
    std::size_t peak = 0;
    run(io, [&]() -> asio::awaitable<bool> {
        co_await store.create(task_of("ended", 20'000));
        co_await store.set_state("ended", task_state::completed);
        co_await store.create(task_of("waiting", 20'000));
        co_await store.set_state("waiting", task_state::input_required);
        co_await store.create(task_of("running", 20'000));
        peak = store.bytes();
        co_await store.create(task_of("newest", 20'000)); // the ended one goes
        ended = co_await store.load("ended");
        co_await store.append("running", {forma::agent_response_update(forma::chat_role::assistant(), std::string(10'000, 'a'))}); // the waiting one expires
        waiting = co_await store.load("waiting");
        newest = co_await store.load("newest");
        co_return true;
    }());
    EXPECT_FALSE(ended.has_value());
    ASSERT_TRUE(waiting && newest);
    EXPECT_EQ(waiting->state, task_state::failed);
    EXPECT_TRUE(waiting->error.starts_with("expired:"));
    EXPECT_GT(peak, 60'000u);
    EXPECT_LE(store.bytes(), 64u * 1024);
}

TEST(in_memory_task_store, running_tasks_are_never_dropped_and_the_refusal_names_the_limit) {
    asio::io_context io;
    forma::in_memory_task_store store(io.get_executor(), {.max_tasks = 2});
    std::string refusal;
    std::size_t running_left = 0;
    run(io, [&]() -> asio::awaitable<bool> {
        co_await store.create(task_of("a"));
        co_await store.create(task_of("b"));
        try {
            co_await store.create(task_of("c"));
        } catch (const forma::error& e) {
            refusal = e.what();
        }
        running_left = (co_await store.load("a")).has_value() + (co_await store.load("b")).has_value();
        co_return true;
    }());
    EXPECT_NE(refusal.find("max_tasks 2"), std::string::npos) << refusal;
    EXPECT_EQ(running_left, 2u);
    forma::in_memory_task_store small(io.get_executor(), {.max_bytes = 1000});
    EXPECT_THROW(run(io, [&]() -> asio::awaitable<bool> {
                     co_await small.create(task_of("huge", 5000));
                     co_return true;
                 }()),
                 forma::error);
}

TEST(in_memory_task_store, waiting_and_ended_tasks_expire_by_time) {
    asio::io_context io;
    forma::in_memory_task_store store(io.get_executor(), {.waiting_ttl = 50ms, .finished_ttl = 1000ms});
    std::optional<forma::agent_task> waited, ended_early, ended_late, expired_late;
    run(io, [&]() -> asio::awaitable<bool> {
        co_await store.create(task_of("w"));
        co_await store.set_state("w", task_state::input_required);
        co_await store.create(task_of("e"));
        co_await store.set_state("e", task_state::completed);
        co_await pause(200ms);
        waited = co_await store.load("w"); // expires now
        ended_early = co_await store.load("e");
        co_await pause(900ms);
        ended_late = co_await store.load("e"); // ended 1.1 s ago
        expired_late = co_await store.load("w"); // expired 0.9 s ago: still told
        co_return true;
    }());
    ASSERT_TRUE(waited && ended_early && expired_late);
    EXPECT_EQ(waited->state, task_state::failed);
    EXPECT_TRUE(waited->error.starts_with("expired: no answer came within")) << waited->error;
    EXPECT_EQ(ended_early->state, task_state::completed);
    EXPECT_FALSE(ended_late.has_value()) << "an ended task goes after finished_ttl";
    EXPECT_TRUE(expired_late->error.starts_with("expired:"));
}

TEST(in_memory_task_store, defaults_expire_waiting_and_ended_tasks) {
    const forma::in_memory_task_store_options defaults;
    EXPECT_GT(defaults.waiting_ttl.count(), 0);
    EXPECT_GT(defaults.finished_ttl.count(), 0);
    EXPECT_GT(defaults.max_bytes, 0u);
}

} // namespace
