#pragma once
// Running a coroutine to its end in a test, without ever hanging the test.

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <exception>
#include <optional>
#include <stdexcept>

namespace forma_test {

/** Runs `operation` on `io` to its end and returns its result (or throws its error). Throws
    std::runtime_error instead after `limit`; the io_context is stopped once the operation
    ends, so a server on it that keeps listening does not keep the test waiting.
*/
template <class T>
T run_bounded(boost::asio::io_context& io, boost::asio::awaitable<T> operation, std::chrono::milliseconds limit) {
    std::optional<T> result;
    std::exception_ptr failure;
    bool done = false;
    boost::asio::co_spawn(io, std::move(operation), [&](std::exception_ptr e, T value) {
        done = true;
        failure = e;
        if (!e) result.emplace(std::move(value));
        io.stop();
    });
    io.restart();
    io.run_for(limit);
    if (!done) throw std::runtime_error("the operation did not end within its limit (hang)");
    if (failure) std::rethrow_exception(failure);
    return std::move(*result);
}

/// run_bounded for an operation with no result.
inline void run_bounded(boost::asio::io_context& io, boost::asio::awaitable<void> operation,
                        std::chrono::milliseconds limit) {
    run_bounded(io, [](boost::asio::awaitable<void> op) -> boost::asio::awaitable<bool> {
        co_await std::move(op);
        co_return true;
    }(std::move(operation)), limit);
}

} // namespace forma_test
