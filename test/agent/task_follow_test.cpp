// agent_detail::next_task_changes, the loop every server's task stream follows a task with
// (A2A, AG-UI, Responses): keep-alives while nothing changes, the position moved past what came.
#include "agent/task_follow.hpp"

#include <forma/agent/in_memory_task_store.hpp>
#include <forma/agent/served_agent.hpp>

#include "support/bounded_run.hpp"

#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;
using forma::task_changes;
using forma::agent_detail::follow_position;

// An in-memory store whose changes() says "nothing changed" (the wait passed) `quiet` times
// first, as a store does after each keep-alive interval, and remembers what it was asked.
class quiet_store final : public forma::task_store {
public:
    quiet_store(asio::any_io_executor ex, int quiet) : inner_(ex), quiet_(quiet) {}
    executor_type get_executor() const override { return inner_.get_executor(); }
    asio::awaitable<void> create(forma::agent_task t) override { return inner_.create(std::move(t)); }
    asio::awaitable<std::optional<forma::agent_task>> load(std::string id) override { return inner_.load(std::move(id)); }
    asio::awaitable<void> append(std::string id, std::vector<forma::agent_response_update> u) override {
        return inner_.append(std::move(id), std::move(u));
    }
    asio::awaitable<void> set_state(std::string id, forma::task_state s, std::string e) override {
        return inner_.set_state(std::move(id), s, std::move(e));
    }
    asio::awaitable<bool> transition(std::string id, forma::task_state from, forma::task_state to) override {
        return inner_.transition(std::move(id), from, to);
    }
    asio::awaitable<std::optional<forma::agent_task>> request_cancel(std::string id) override { return inner_.request_cancel(std::move(id)); }
    asio::awaitable<std::optional<task_changes>> changes(std::string id, std::size_t from, std::uint64_t seen,
                                                         std::chrono::milliseconds wait) override {
        asked.push_back({from, seen});
        waits.push_back(wait);
        if (quiet_ > 0) {
            --quiet_;
            co_return task_changes{.state = forma::task_state::working, .next = from, .version = seen};
        }
        co_return co_await inner_.changes(std::move(id), from, seen, 0ms);
    }

    std::vector<follow_position> asked;
    std::vector<std::chrono::milliseconds> waits;

private:
    forma::in_memory_task_store inner_;
    int quiet_;
};

// Records what a stream's handler writes.
class recording_writer final : public forma::net::response_writer {
public:
    asio::awaitable<void> send(forma::net::http_reply) override { co_return; }
    asio::awaitable<void> start(forma::net::http_reply) override { co_return; }
    asio::awaitable<void> write(std::string_view bytes) override {
        written.emplace_back(bytes);
        co_return;
    }
    asio::awaitable<void> finish() override { co_return; }
    std::vector<std::string> written;
};

forma::agent_response_update text_update(std::string text) { return {forma::chat_role::assistant(), std::move(text)}; }

TEST(task_follow, writes_a_keep_alive_for_each_quiet_wait_then_returns_the_changes_and_moves_past_them) {
    asio::io_context io;
    quiet_store store(io.get_executor(), 2);
    recording_writer writer;
    std::optional<task_changes> first, second;
    follow_position at;
    follow_position after_first;
    // Made outside the coroutine: g++ 12 rejects an initializer list's array in one.
    const std::string id = "t";
    forma::agent_task task{.id = id, .context_id = "c", .owner = "o"};
    std::vector<forma::agent_response_update> two{text_update("one"), text_update("two")};
    std::vector<forma::agent_response_update> third{text_update("three")};
    forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
        co_await store.create(std::move(task));
        co_await store.append(id, std::move(two));
        first = co_await forma::agent_detail::next_task_changes(store, writer, id, at);
        after_first = at;
        co_await store.append(id, std::move(third));
        second = co_await forma::agent_detail::next_task_changes(store, writer, id, at);
    }(), 10s);
    ASSERT_TRUE(first && second);
    EXPECT_EQ(writer.written, (std::vector<std::string>{": keep-alive\n\n", ": keep-alive\n\n"}));
    ASSERT_EQ(first->updates.size(), 2u);
    EXPECT_EQ(first->updates[1].text(), "two");
    EXPECT_EQ(after_first.next, 2u);
    EXPECT_EQ(after_first.version, first->version);
    EXPECT_NE(first->version, 0u);
    ASSERT_EQ(second->updates.size(), 1u) << "only what came after the first changes";
    EXPECT_EQ(second->updates[0].text(), "three");
    EXPECT_EQ(at.next, 3u);
    EXPECT_EQ(at.version, second->version);
    // Asked from the start three times (two quiet waits), then from past the first changes.
    ASSERT_EQ(store.asked.size(), 4u);
    EXPECT_EQ(store.asked[2].next, 0u);
    EXPECT_EQ(store.asked[3].next, 2u);
    EXPECT_EQ(store.asked[3].version, first->version);
    for (const auto wait : store.waits) EXPECT_EQ(wait, std::chrono::milliseconds(forma::served_agent::keep_alive_interval));
}

TEST(task_follow, a_task_gone_from_the_store_ends_the_follow) {
    asio::io_context io;
    quiet_store store(io.get_executor(), 1);
    recording_writer writer;
    std::optional<task_changes> got{task_changes{}};
    follow_position at;
    const std::string id = "unknown";
    forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
        got = co_await forma::agent_detail::next_task_changes(store, writer, id, at);
    }(), 10s);
    EXPECT_FALSE(got.has_value());
    EXPECT_EQ(writer.written.size(), 1u) << "the quiet wait before the store said it has no such task";
    EXPECT_EQ(at.next, 0u);
    EXPECT_EQ(at.version, 0u);
}

} // namespace
