#pragma once
// A task_store (in memory) that, once gather(n) is called, holds the next n loads until all n have
// read: the requests that read a task then act on what they all read, as the servers of a fleet
// may when two answers to one question come at once. Answering twice is then a real race.

#include <forma/agent/in_memory_task_store.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <memory>

namespace forma_test {

class gathering_task_store final : public forma::task_store {
public:
    explicit gathering_task_store(executor_type executor) : inner_(executor), released_(executor) {}

    /// The next `loads` loads wait for one another (at most 5 s).
    void gather(std::size_t loads) {
        waiting_for_ = loads;
        released_.expires_after(std::chrono::seconds(5));
    }

    executor_type get_executor() const override { return inner_.get_executor(); }
    boost::asio::awaitable<void> create(forma::agent_task task) override { co_await inner_.create(std::move(task)); }
    // Reads first, then waits: every gathered load returns the task as it was before any of them acted.
    boost::asio::awaitable<std::optional<forma::agent_task>> load(std::string id) override {
        std::optional<forma::agent_task> read = co_await inner_.load(std::move(id));
        if (waiting_for_ > 0) {
            if (--waiting_for_ == 0) released_.cancel();
            else co_await released_.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
        }
        co_return read;
    }
    boost::asio::awaitable<void> append(std::string id, std::vector<forma::agent_response_update> updates) override {
        co_await inner_.append(std::move(id), std::move(updates));
    }
    boost::asio::awaitable<void> set_state(std::string id, forma::task_state state, std::string error = {}) override {
        co_await inner_.set_state(std::move(id), state, std::move(error));
    }
    boost::asio::awaitable<bool> transition(std::string id, forma::task_state from, forma::task_state to) override {
        co_return co_await inner_.transition(std::move(id), from, to);
    }
    boost::asio::awaitable<std::optional<forma::agent_task>> request_cancel(std::string id) override {
        co_return co_await inner_.request_cancel(std::move(id));
    }
    boost::asio::awaitable<std::optional<forma::task_changes>> changes(std::string id, std::size_t from, std::uint64_t seen_version,
                                                                       std::chrono::milliseconds wait) override {
        co_return co_await inner_.changes(std::move(id), from, seen_version, wait);
    }

private:
    forma::in_memory_task_store inner_;
    boost::asio::steady_timer released_;
    std::size_t waiting_for_ = 0;
};

} // namespace forma_test
