#pragma once

#include <forma/agent/task_store.hpp>

#include <boost/asio/steady_timer.hpp>

#include <map>
#include <memory>

namespace forma {

/** A task_store in this process's memory: one server, or tests. Keeps each task until
    erase(); `max_tasks` bounds how many, the oldest final ones going first. One executor;
    not thread-safe.
*/
class in_memory_task_store final : public task_store {
public:
    explicit in_memory_task_store(executor_type executor, std::size_t max_tasks = 10'000);

    executor_type get_executor() const override { return executor_; }
    boost::asio::awaitable<void> create(agent_task task) override;
    boost::asio::awaitable<std::optional<agent_task>> load(std::string id) override;
    boost::asio::awaitable<void> append(std::string id, std::vector<agent_response_update> updates) override;
    boost::asio::awaitable<void> set_state(std::string id, task_state state, std::string error = {}) override;
    boost::asio::awaitable<bool> transition(std::string id, task_state from, task_state to) override;
    boost::asio::awaitable<std::optional<agent_task>> request_cancel(std::string id) override;
    boost::asio::awaitable<std::optional<task_changes>> changes(std::string id, std::size_t from, std::uint64_t seen_version,
                                                                std::chrono::milliseconds wait) override;

    /// Removes a task; whether there was one.
    bool erase(const std::string& id);
    std::size_t size() const noexcept { return tasks_.size(); }

private:
    struct entry {
        agent_task task;
        // Canceled (and replaced) at each change: every watcher wakes.
        std::shared_ptr<boost::asio::steady_timer> changed;
    };
    entry& find(const std::string& id);
    void touch(entry& e);
    void make_room();

    executor_type executor_;
    std::size_t max_tasks_;
    std::map<std::string, entry> tasks_;
};

} // namespace forma
