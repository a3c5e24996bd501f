#pragma once

#include <forma/agent/task_store.hpp>

#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>

namespace forma {

/// What an in_memory_task_store keeps, and for how long.
struct in_memory_task_store_options {
    /// Tasks kept at once (expired ones aside).
    std::size_t max_tasks = 10'000;
    /// Bytes kept at once: every task's input, updates, properties and error, counted as the
    /// length of their JSON.
    std::size_t max_bytes = 256 * 1024 * 1024;
    /// A task waiting for its caller's answer (input_required) longer than this expires; zero: never.
    std::chrono::milliseconds waiting_ttl{std::chrono::hours(1)};
    /// A task that ended (completed, failed, canceled) is dropped this long after; zero: kept
    /// until room is needed.
    std::chrono::milliseconds finished_ttl{std::chrono::hours(1)};
};

/** A task_store in this process's memory: one server, or tests. One executor; not thread-safe.

    Bounded as a peak: when a new task or an update would pass `max_tasks` or `max_bytes`, the
    tasks that ended go first (the oldest first), then the tasks that wait for an answer
    (the longest waiting first), so that a flood of unanswered tasks never locks the servers
    that keep their tasks here. A waiting task that gives way, or waits past `waiting_ttl`,
    expires: it ends failed with an error that begins "expired:", its input and updates
    dropped, and whoever asks for it reads that (up to `max_tasks` expired tasks are kept
    besides the others, for `finished_ttl`, counted in bytes). Tasks that run are never
    dropped: when only they remain, create() and append() throw an error that names the limit.
*/
class in_memory_task_store final : public task_store {
public:
    explicit in_memory_task_store(executor_type executor, in_memory_task_store_options options = {});
    /// The defaults but `max_tasks`.
    in_memory_task_store(executor_type executor, std::size_t max_tasks);

    executor_type get_executor() const override { return executor_; }
    /// @throws error when no room can be made (only running tasks, or a task larger than max_bytes).
    boost::asio::awaitable<void> create(agent_task task) override;
    boost::asio::awaitable<std::optional<agent_task>> load(std::string id) override;
    /// @throws error for an unknown task, or when no room can be made for the updates.
    boost::asio::awaitable<void> append(std::string id, std::vector<agent_response_update> updates) override;
    boost::asio::awaitable<void> set_state(std::string id, task_state state, std::string error = {}) override;
    boost::asio::awaitable<bool> transition(std::string id, task_state from, task_state to) override;
    boost::asio::awaitable<std::optional<agent_task>> request_cancel(std::string id) override;
    boost::asio::awaitable<std::optional<task_changes>> changes(std::string id, std::size_t from, std::uint64_t seen_version,
                                                                std::chrono::milliseconds wait) override;
    /// Goes through every task kept (expired ones included, as failed).
    boost::asio::awaitable<task_page> list(task_query query) override;

    /// Removes a task; whether there was one.
    bool erase(const std::string& id);
    /// Tasks kept now, expired ones included.
    std::size_t size() const noexcept { return tasks_.size(); }
    /// The bytes the tasks hold, as counted against max_bytes.
    std::size_t bytes() const noexcept { return bytes_; }
    const in_memory_task_store_options& options() const noexcept { return options_; }

private:
    using clock = std::chrono::steady_clock;
    using queue = std::set<std::pair<clock::time_point, std::string>>; // (since, id), the oldest first
    struct entry {
        agent_task task;
        // Canceled (and replaced) at each change: every watcher wakes.
        std::shared_ptr<boost::asio::steady_timer> changed;
        std::size_t bytes = 0;
        clock::time_point since{}; // when it began to wait, or ended
        bool expired = false;
    };
    using iterator = std::map<std::string, entry>::iterator;

    iterator find(const std::string& id);
    void touch(entry& e);
    queue* queue_of(const entry& e) noexcept;
    void set(iterator it, task_state state, std::string error);
    void expire(iterator it, const std::string& why);
    void drop(iterator it);
    void sweep();
    void make_room(std::size_t more_bytes, bool one_more_task);

    executor_type executor_;
    in_memory_task_store_options options_;
    std::map<std::string, entry> tasks_;
    queue waiting_;  // input_required tasks
    queue finished_; // final tasks, but the expired
    queue expired_;  // tasks that expired
    std::size_t live_ = 0; // tasks that did not expire
    std::size_t bytes_ = 0;
};

} // namespace forma
