#pragma once
// Waiting in a test for what no event announces (a webhook's requests, a lapsed lease): the
// condition is looked at every 5 ms; the test's bounded run ends a wait that never ends.

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <functional>

namespace forma_test {

/// Returns once `done` holds.
inline boost::asio::awaitable<void> until(std::function<bool()> done) {
    boost::asio::steady_timer pause(co_await boost::asio::this_coro::executor);
    while (!done()) {
        pause.expires_after(std::chrono::milliseconds(5));
        co_await pause.async_wait(boost::asio::use_awaitable);
    }
}

} // namespace forma_test
