#pragma once

#include <forma/agent/task_store.hpp>
#include <forma/redis/client.hpp>

#include <chrono>
#include <memory>
#include <string>

namespace forma::redis {

struct task_store_options {
    /// Tasks are kept under this prefix followed by their id (a hash, and a list of its updates).
    std::string key_prefix = "forma:task:";
    /// A task not written within this expires; zero: kept until deleted.
    std::chrono::milliseconds ttl{std::chrono::hours(24)};
    /** How long a task that runs (submitted, working) stays claimed by the instance that runs
        it without word from it: the store renews the claim of its own running tasks every third
        of this. An instance that dies leaves its tasks unclaimed, and the next look at one after
        this finds it failed ("the server running this task stopped before it ended"), never
        running forever.
    */
    std::chrono::milliseconds lease{std::chrono::seconds(30)};
    /// How often changes() looks again at a task written by another instance (its own writes
    /// wake it at once); the pause grows to 10 times this while the task is quiet.
    std::chrono::milliseconds poll_interval{std::chrono::milliseconds(50)};
};

/** A forma::task_store on Redis, so that any instance of a fleet answers for a task another
    one started: reads it, follows its updates, asks it to stop (the instance that runs it
    cancels the run, forma::served_agent watching for it).

    Each task is a hash under `key_prefix + id` (its state, error, version, input, properties,
    claim) and a list `key_prefix + id + ":updates"`; each caller's tasks are listed in a sorted set
    `key_prefix + ":owner:" + owner` (tasks made before forma listed them are not in one); an id holds no ':' (a task id with one is
    refused by the writes and unknown to the reads, so that no id names another task's list). Every write is one Lua script on the
    server, so a change and its version are never torn, and every read sees one version. Times
    are the Redis server's, so instances' clocks may differ.
    One executor (the client's); not thread-safe.
*/
class task_store final : public forma::task_store {
public:
    task_store(std::shared_ptr<client> redis, task_store_options options = {});
    /// Stops renewing the claims of its running tasks (they fail after the lease, if no one ends them).
    ~task_store() override;
    task_store(const task_store&) = delete;
    task_store& operator=(const task_store&) = delete;

    executor_type get_executor() const override;
    boost::asio::awaitable<void> create(agent_task task) override;
    boost::asio::awaitable<std::optional<agent_task>> load(std::string id) override;
    boost::asio::awaitable<void> append(std::string id, std::vector<agent_response_update> updates) override;
    boost::asio::awaitable<void> set_state(std::string id, task_state state, std::string error = {}) override;
    boost::asio::awaitable<bool> transition(std::string id, task_state from, task_state to) override;
    boost::asio::awaitable<std::optional<agent_task>> request_cancel(std::string id) override;
    boost::asio::awaitable<std::optional<task_changes>> changes(std::string id, std::size_t from, std::uint64_t seen_version,
                                                                std::chrono::milliseconds wait) override;
    /// One Lua script goes through the owner's listing (a sorted set by time of update), then each task is read.
    boost::asio::awaitable<task_page> list(task_query query) override;

    const task_store_options& options() const noexcept;

private:
    struct state;
    std::shared_ptr<state> state_; // shared with the claim renewal
};

} // namespace forma::redis
