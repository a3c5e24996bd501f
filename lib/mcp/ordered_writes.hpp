#pragma once
// Messages written one after another in the order they were pushed, from any coroutine of one
// executor: a call's progress notifications and its answer share one stream.

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <string>

namespace forma::mcp::detail {

class ordered_writes {
public:
    using write_function = std::function<boost::asio::awaitable<void>(std::string)>;

    ordered_writes(boost::asio::any_io_executor executor, write_function write)
        : state_(std::make_shared<state>(executor, std::move(write))) {}

    /// Queues `message`; it is written after every message pushed before it.
    void push(std::string message) {
        if (state_->failed) return;
        state_->queue.push_back(std::move(message));
        if (state_->running) return;
        state_->running = true;
        boost::asio::co_spawn(state_->executor, drain(state_), boost::asio::detached);
    }

    /// Waits until everything pushed so far is written (or a write failed).
    boost::asio::awaitable<void> drained() {
        const auto s = state_;
        while (s->running) {
            s->idle.expires_at(boost::asio::steady_timer::time_point::max());
            co_await s->idle.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
        }
    }

    /// A write failed (the peer went): later pushes are dropped.
    bool failed() const noexcept { return state_->failed; }

private:
    struct state {
        state(boost::asio::any_io_executor ex, write_function w) : executor(ex), write(std::move(w)), idle(ex) {}
        boost::asio::any_io_executor executor;
        write_function write;
        std::deque<std::string> queue;
        boost::asio::steady_timer idle;
        bool running = false;
        bool failed = false;
    };

    static boost::asio::awaitable<void> drain(std::shared_ptr<state> s) {
        while (!s->queue.empty() && !s->failed) {
            std::string next = std::move(s->queue.front());
            s->queue.pop_front();
            try {
                co_await s->write(std::move(next));
            } catch (...) {
                s->failed = true;
                s->queue.clear();
            }
        }
        s->running = false;
        s->idle.cancel();
    }

    std::shared_ptr<state> state_;
};

} // namespace forma::mcp::detail
