// forma::task_store's contract, kept by in_memory_task_store and redis::task_store alike; and
// what only Redis's does: tasks shared by instances, claims that lapse when an instance dies.
#include <forma/agent/in_memory_task_store.hpp>
#include <forma/error.hpp>
#include <forma/redis/task_store.hpp>

#include "redis_test_support.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include <stdexcept>
#include <tuple>

#include <gtest/gtest.h>

namespace task_store_test {

namespace asio = boost::asio;
using namespace std::chrono_literals;

forma::agent_task sample_task(std::string id) {
    forma::agent_task task{.id = std::move(id), .context_id = "conversation-1", .owner = "a2a/alice",
                           .input = {forma::chat_message(forma::chat_role::user(), "hello")}};
    task.properties = {{"model", "m"}, {"background", true}};
    task.updates.emplace_back(forma::chat_role::user(), "hello");
    return task;
}

forma::agent_response_update said(std::string text) { return forma::agent_response_update(forma::chat_role::assistant(), std::move(text)); }

// The stores under test, each made on the test's io_context (Redis's with a client of the shared server).
struct in_memory {
    static std::shared_ptr<forma::task_store> make(asio::io_context& io, std::shared_ptr<forma::redis::client>) {
        return std::make_shared<forma::in_memory_task_store>(io.get_executor());
    }
};
struct in_redis {
    static std::shared_ptr<forma::task_store> make(asio::io_context&, std::shared_ptr<forma::redis::client> redis) {
        return std::make_shared<forma::redis::task_store>(std::move(redis));
    }
};

template <class Store>
class task_store_contract : public forma_test::redis_test {
protected:
    std::shared_ptr<forma::task_store> store = Store::make(io, connect(server()));
};
using stores = ::testing::Types<in_memory, in_redis>;
TYPED_TEST_SUITE(task_store_contract, stores);

// A model's words and a tool call can hold any bytes: a task holding some loads back (Redis's
// store keeps JSON, where each such byte becomes U+FFFD; the in-memory one keeps them).
TYPED_TEST(task_store_contract, a_task_holding_bytes_that_are_not_utf8_loads_back) {
    auto& store = *this->store;
    forma::agent_task task = sample_task("bytes");
    task.input = {forma::chat_message(forma::chat_role::user(), "delete \xdf")};
    task.properties["path"] = "\x86";
    this->run(store.create(std::move(task)));
    this->run(store.append("bytes", {said("cut \xff")}));
    const std::optional<forma::agent_task> loaded = this->run(store.load("bytes"));
    ASSERT_TRUE(loaded.has_value());
    ASSERT_EQ(loaded->updates.size(), 2u);
    const auto kept_or_replaced = [](const std::string& text, std::string_view prefix, std::string_view byte) {
        return text == std::string(prefix) + std::string(byte) || text == std::string(prefix) + "\xEF\xBF\xBD";
    };
    EXPECT_TRUE(kept_or_replaced(loaded->updates[1].text(), "cut ", "\xff")) << loaded->updates[1].text();
    EXPECT_TRUE(kept_or_replaced(loaded->input.at(0).text(), "delete ", "\xdf")) << loaded->input.at(0).text();
    EXPECT_TRUE(kept_or_replaced(std::string(loaded->properties.at("path").as_string()), "", "\x86"));
}

TYPED_TEST(task_store_contract, a_created_task_loads_as_it_was_written) {
    auto& store = *this->store;
    this->run(store.create(sample_task("t1")));
    const std::optional<forma::agent_task> loaded = this->run(store.load("t1"));
    ASSERT_TRUE(loaded.has_value());
    EXPECT_EQ(loaded->context_id, "conversation-1");
    EXPECT_EQ(loaded->owner, "a2a/alice");
    EXPECT_EQ(loaded->state, forma::task_state::submitted);
    EXPECT_EQ(loaded->input.at(0).text(), "hello");
    EXPECT_EQ(loaded->properties, (boost::json::object{{"model", "m"}, {"background", true}}));
    ASSERT_EQ(loaded->updates.size(), 1u);
    EXPECT_EQ(loaded->updates[0], sample_task("t1").updates[0]);
    EXPECT_EQ(loaded->version, 1u);
    EXPECT_FALSE(loaded->cancel_requested);
    EXPECT_GT(loaded->created.time_since_epoch().count(), 0);
    EXPECT_FALSE(this->run(store.load("nope")).has_value());
    EXPECT_THROW(this->run(store.create(sample_task("t1"))), forma::error) << "an id is taken once";
}

TYPED_TEST(task_store_contract, writes_append_updates_and_set_states_with_a_new_version_each) {
    auto& store = *this->store;
    this->run(store.create(sample_task("t2")));
    this->run(store.append("t2", {said("one "), said("two")}));
    this->run(store.set_state("t2", forma::task_state::failed, "it broke"));
    const forma::agent_task task = *this->run(store.load("t2"));
    ASSERT_EQ(task.updates.size(), 3u);
    EXPECT_EQ(task.updates[1].text(), "one ");
    EXPECT_EQ(task.updates[2].text(), "two");
    EXPECT_EQ(task.state, forma::task_state::failed);
    EXPECT_EQ(task.error, "it broke");
    EXPECT_EQ(task.version, 3u);
    EXPECT_THROW(this->run(store.append("nope", {said("x")})), forma::error);
    EXPECT_THROW(this->run(store.set_state("nope", forma::task_state::working)), forma::error);
}

TYPED_TEST(task_store_contract, a_cancellation_is_asked_once_and_not_of_a_final_task) {
    auto& store = *this->store;
    this->run(store.create(sample_task("t3")));
    const auto asked = this->run(store.request_cancel("t3"));
    const auto again = this->run(store.request_cancel("t3"));
    this->run(store.create(sample_task("t4")));
    this->run(store.set_state("t4", forma::task_state::completed));
    const auto ended = this->run(store.request_cancel("t4"));
    ASSERT_TRUE(asked && again && ended);
    EXPECT_TRUE(asked->cancel_requested);
    EXPECT_EQ(asked->version, 2u);
    EXPECT_EQ(again->version, 2u) << "asked before: no change";
    EXPECT_FALSE(ended->cancel_requested) << "nothing to cancel";
    EXPECT_FALSE(this->run(store.request_cancel("nope")).has_value());
}

TYPED_TEST(task_store_contract, a_transition_happens_once_and_only_from_its_state) {
    auto& store = *this->store;
    forma::agent_task waiting = sample_task("t6");
    waiting.state = forma::task_state::input_required;
    this->run(store.create(waiting));
    // Two answers at once: both start before either has written.
    bool first = false, second = false;
    asio::co_spawn(this->io, [&]() -> asio::awaitable<void> {
        first = co_await store.transition("t6", forma::task_state::input_required, forma::task_state::submitted);
    }, asio::detached);
    second = this->run(store.transition("t6", forma::task_state::input_required, forma::task_state::completed));
    this->run(forma_test::yield());
    const forma::agent_task task = *this->run(store.load("t6"));
    EXPECT_NE(first, second) << "exactly one answer wins";
    EXPECT_EQ(task.state, first ? forma::task_state::submitted : forma::task_state::completed);
    EXPECT_EQ(task.version, 2u) << "one write";
    EXPECT_FALSE(this->run(store.transition("t6", forma::task_state::input_required, forma::task_state::canceled)));
    EXPECT_FALSE(this->run(store.transition("nope", forma::task_state::input_required, forma::task_state::canceled)));
}

TYPED_TEST(task_store_contract, changes_come_at_once_or_when_the_task_changes) {
    auto& store = *this->store;
    this->run(store.create(sample_task("t5")));
    const auto now = this->run(store.changes("t5", 0, 0, 10s));
    ASSERT_TRUE(now.has_value());
    EXPECT_EQ(now->version, 1u);
    EXPECT_EQ(now->updates.size(), 1u);
    EXPECT_EQ(now->next, 1u);
    // Nothing new: it waits, and a write wakes it with the updates past `next`.
    asio::co_spawn(this->io, [&]() -> asio::awaitable<void> {
        co_await forma_test::yield();
        co_await store.append("t5", {said("later")});
    }, asio::detached);
    const auto woken = this->run(store.changes("t5", now->next, now->version, 10s));
    ASSERT_TRUE(woken.has_value());
    EXPECT_EQ(woken->version, 2u);
    ASSERT_EQ(woken->updates.size(), 1u);
    EXPECT_EQ(woken->updates[0].text(), "later");
    EXPECT_EQ(woken->next, 2u);
    const auto quiet = this->run(store.changes("t5", woken->next, woken->version, 30ms));
    ASSERT_TRUE(quiet.has_value());
    EXPECT_EQ(quiet->version, 2u) << "nothing changed within the wait";
    EXPECT_TRUE(quiet->updates.empty());
    EXPECT_FALSE(this->run(store.changes("nope", 0, 0, 30ms)).has_value());
}

// Until the clock (this machine's, which the Redis server also reads) is past the millisecond of
// the last write: a listing orders by time of update, to the millisecond.
void next_millisecond() {
    const auto ms = [] { return std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now()); };
    const auto start = ms();
    while (ms() == start) {
    }
}

std::vector<std::string> ids_of(const forma::task_page& page) {
    std::vector<std::string> ids;
    for (const forma::agent_task& t : page.tasks) ids.push_back(t.id);
    return ids;
}

forma::agent_task task_of(std::string id, std::string owner, std::string context) {
    forma::agent_task task = sample_task(std::move(id));
    task.owner = std::move(owner);
    task.context_id = std::move(context);
    return task;
}

TYPED_TEST(task_store_contract, a_listing_finds_a_callers_tasks_newest_first_a_page_at_a_time) {
    using std::vector, std::string;
    auto& store = *this->store;
    for (const auto& [id, owner, context] : vector<std::tuple<string, string, string>>{
             {"a1", "a2a/alice", "c1"}, {"a2", "a2a/alice", "c2"}, {"b1", "a2a/bob", "c1"}, {"o1", "openai/alice", "c1"}, {"a3", "a2a/alice", "c1"}}) {
        this->run(store.create(task_of(id, owner, context)));
        next_millisecond();
    }
    this->run(store.append("a1", {said("later")})); // a1 is now the most recently updated
    const forma::task_page all = this->run(store.list({.owner = "a2a/alice"}));
    EXPECT_EQ(ids_of(all), (vector<string>{"a1", "a3", "a2"})) << "another caller's and another protocol's are not found";
    EXPECT_EQ(all.total, 3u);
    EXPECT_TRUE(all.next_page_token.empty());
    EXPECT_EQ(all.tasks.at(0).updates.size(), 2u) << "whole tasks";

    const forma::task_page first = this->run(store.list({.owner = "a2a/alice", .page_size = 2}));
    EXPECT_EQ(ids_of(first), (vector<string>{"a1", "a3"}));
    ASSERT_FALSE(first.next_page_token.empty());
    const forma::task_page second = this->run(store.list({.owner = "a2a/alice", .page_size = 2, .page_token = first.next_page_token}));
    EXPECT_EQ(ids_of(second), (vector<string>{"a2"}));
    EXPECT_EQ(second.total, 3u) << "the total counts every page";
    EXPECT_TRUE(second.next_page_token.empty()) << "the last page";

    EXPECT_EQ(ids_of(this->run(store.list({.owner = "a2a/alice", .context_id = "c1"}))), (vector<string>{"a1", "a3"}));
    next_millisecond();
    const auto before_a3_ends = std::chrono::system_clock::now();
    next_millisecond();
    this->run(store.set_state("a3", forma::task_state::completed));
    const forma::task_page completed = this->run(store.list({.owner = "a2a/alice", .state = forma::task_state::completed}));
    EXPECT_EQ(ids_of(completed), (vector<string>{"a3"}));
    EXPECT_EQ(completed.total, 1u);
    EXPECT_EQ(ids_of(this->run(store.list({.owner = "a2a/alice", .updated_since = before_a3_ends}))), (vector<string>{"a3"}));
    EXPECT_EQ(ids_of(this->run(store.list({.owner = "a2a/bob"}))), (vector<string>{"b1"}));
    EXPECT_TRUE(this->run(store.list({.owner = "a2a/nobody"})).tasks.empty());
    EXPECT_THROW(this->run(store.list({.owner = "a2a/alice", .page_token = "not-a-token"})), std::invalid_argument);
}

// ---- Redis only: a fleet's instances --------------------------------------------------------

using redis_task_store = forma_test::redis_test;

TEST_F(redis_task_store, a_task_that_expired_leaves_the_listing) {
    forma::redis::task_store store(connect(server()));
    run(store.create(sample_task("kept")));
    run(store.create(sample_task("gone")));
    run(watcher_of(server()).execute(forma::redis::command("DEL", "forma:task:gone", "forma:task:gone:updates")));
    const forma::task_page page = run(store.list({.owner = "a2a/alice"}));
    EXPECT_EQ(ids_of(page), std::vector<std::string>{"kept"});
    EXPECT_EQ(page.total, 1u);
    const auto listed = run(watcher_of(server()).execute(forma::redis::command("ZCARD", "forma:task::owner:a2a/alice")));
    EXPECT_EQ(listed.integer, 1) << "the listing forgets it";
}

TEST_F(redis_task_store, no_id_reaches_another_tasks_updates) {
    forma::redis::task_store store(connect(server()));
    run(store.create(sample_task("x")));
    EXPECT_FALSE(run(store.load("x:updates")).has_value()) << "the list of x's updates is no task";
    EXPECT_FALSE(run(store.changes("x:updates", 0, 0, 10ms)).has_value());
    EXPECT_THROW(run(store.create(sample_task("a:b"))), forma::error);
    EXPECT_THROW(run(store.append("x:updates", {said("y")})), forma::error);
}

TEST_F(redis_task_store, an_instance_follows_a_task_another_one_writes) {
    forma::redis::task_store a(connect(server()));
    forma::redis::task_store b(connect(server()));
    run(a.create(sample_task("shared")));
    const auto first = run(b.changes("shared", 0, 0, 10s));
    ASSERT_TRUE(first.has_value());
    asio::co_spawn(io, [&]() -> asio::awaitable<void> {
        co_await forma_test::yield();
        co_await a.append("shared", {said("from a")});
    }, asio::detached);
    const auto seen = run(b.changes("shared", first->next, first->version, 10s)); // b polls: a's write is not its own
    ASSERT_TRUE(seen.has_value());
    ASSERT_EQ(seen->updates.size(), 1u);
    EXPECT_EQ(seen->updates[0].text(), "from a");
}

TEST_F(redis_task_store, a_running_task_fails_when_its_instance_is_gone_and_lives_while_it_is_not) {
    forma::redis::task_store watcher(connect(server()), {.lease = 150ms});
    auto alive = std::make_unique<forma::redis::task_store>(connect(server()), forma::redis::task_store_options{.lease = 150ms});
    auto gone = std::make_unique<forma::redis::task_store>(connect(server()), forma::redis::task_store_options{.lease = 150ms});
    run(alive->create(sample_task("renewed")));
    run(alive->set_state("renewed", forma::task_state::working));
    run(gone->create(sample_task("orphan")));
    run(gone->set_state("orphan", forma::task_state::working));
    gone.reset(); // its claims are no longer renewed, as when its process dies
    // Wait until the orphan's claim lapses: its next read fails it (the watcher polls).
    std::optional<forma::task_changes> orphan = run(watcher.changes("orphan", 0, 0, 10s));
    while (orphan && orphan->state == forma::task_state::working) orphan = run(watcher.changes("orphan", orphan->next, orphan->version, 10s));
    const forma::agent_task renewed = *run(watcher.load("renewed"));
    ASSERT_TRUE(orphan.has_value());
    EXPECT_EQ(orphan->state, forma::task_state::failed);
    EXPECT_EQ(orphan->error, "the server running this task stopped before it ended");
    EXPECT_EQ(renewed.state, forma::task_state::working) << "its instance renews its claim";
}

// A listing, too, finds a task whose instance is gone as failed, and first by its new time.
TEST_F(redis_task_store, a_listing_finds_a_running_task_whose_instance_is_gone_failed) {
    forma::redis::task_store lister(connect(server()), {.lease = 100ms});
    auto gone = std::make_unique<forma::redis::task_store>(connect(server()), forma::redis::task_store_options{.lease = 100ms});
    run(lister.create(sample_task("ended")));
    run(lister.set_state("ended", forma::task_state::completed));
    run(gone->create(sample_task("orphan")));
    run(gone->set_state("orphan", forma::task_state::working));
    gone.reset();
    const auto listed_failed = [&]() -> asio::awaitable<forma::task_page> {
        asio::steady_timer pause(co_await asio::this_coro::executor);
        for (;;) {
            forma::task_page page = co_await lister.list({.owner = "a2a/alice", .state = forma::task_state::failed});
            if (!page.tasks.empty()) co_return page;
            pause.expires_after(5ms);
            co_await pause.async_wait(asio::use_awaitable);
        }
    };
    const forma::task_page failed = run(listed_failed());
    EXPECT_EQ(ids_of(failed), std::vector<std::string>{"orphan"});
    EXPECT_EQ(failed.tasks.at(0).error, "the server running this task stopped before it ended");
    EXPECT_EQ(ids_of(run(lister.list({.owner = "a2a/alice"}))), (std::vector<std::string>{"orphan", "ended"}));
}

} // namespace task_store_test
