#pragma once
// What the Redis tests share: one redis-server per test binary (each test uses its own keys or
// starts its own server), an io_context per test, and waits on the server's own state.

#include <forma/redis/client.hpp>

#include "support/bounded_run.hpp"
#include "support/redis_server.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <gtest/gtest.h>

#include <list>
#include <memory>
#include <optional>
#include <string>

namespace forma_test {

/// Lets everything else that is ready on the executor run once.
inline boost::asio::awaitable<void> yield() {
    co_await boost::asio::post(co_await boost::asio::this_coro::executor, boost::asio::use_awaitable);
}

/// The number after `field:` in INFO's text.
inline long long info_field(const std::string& info, const std::string& field) {
    const auto at = info.find(field + ":");
    return at == std::string::npos ? -1 : std::stoll(info.substr(at + field.size() + 1));
}

/// Returns once the server has `count` clients blocked (in BLPOP and the like), asking it every 2 ms.
inline boost::asio::awaitable<void> until_blocked(forma::redis::client& watcher, long long count) {
    boost::asio::steady_timer pause(co_await boost::asio::this_coro::executor);
    for (;;) {
        const auto info = co_await watcher.execute(forma::redis::command("INFO", "clients"));
        if (info_field(info.text, "blocked_clients") >= count) co_return;
        pause.expires_after(std::chrono::milliseconds(2));
        co_await pause.async_wait(boost::asio::use_awaitable);
    }
}

/// Runs `operation` on `io`; it must fail with a redis_error of `kind`, returned for more checks.
template <class T>
forma::redis::redis_error failure_of(boost::asio::io_context& io, boost::asio::awaitable<T> operation,
                                     forma::redis::redis_error_kind kind) {
    try {
        (void)run_bounded(io, std::move(operation), std::chrono::seconds(20));
    } catch (const forma::redis::redis_error& e) {
        EXPECT_EQ(e.kind(), kind) << e.what();
        return e;
    }
    ADD_FAILURE() << "the operation did not fail";
    return forma::redis::redis_error(kind, "(it did not fail)");
}

/// The binary's shared server, started at first use, stopped by shared_redis_environment.
inline std::optional<redis_server>& shared_redis_slot() {
    static std::optional<redis_server> slot;
    return slot;
}
inline redis_server& shared_redis() {
    if (!shared_redis_slot()) shared_redis_slot().emplace();
    return *shared_redis_slot();
}

/// Stops the shared server after the tests (registered after no_child_left, so it runs first).
class shared_redis_environment : public ::testing::Environment {
public:
    void TearDown() override { shared_redis_slot().reset(); }
};

class redis_test : public ::testing::Test {
protected:
    static redis_server& server() { return shared_redis(); }

    void SetUp() override { run(watcher_of(server()).execute(forma::redis::command("FLUSHALL"))); }

    template <class T>
    T run(boost::asio::awaitable<T> operation) {
        return run_bounded(io, std::move(operation), std::chrono::seconds(20));
    }
    void run(boost::asio::awaitable<void> operation) {
        run_bounded(io, std::move(operation), std::chrono::seconds(20));
    }

    /// A client of `target`, as an instance of a server fleet has its own.
    std::shared_ptr<forma::redis::client> connect(redis_server& target) {
        return std::make_shared<forma::redis::client>(io.get_executor(), target.client_options());
    }

    /// A client of `target` for looking at the server, apart from the clients under test.
    forma::redis::client& watcher_of(redis_server& target) {
        forma::redis::client_options options = target.client_options();
        options.client_name = "watcher";
        return watchers_.emplace_back(io.get_executor(), options);
    }

    /// Clients connected to the shared server, the watcher that asks left out.
    long long connected_clients() {
        const auto info = run(watcher_of(server()).execute(forma::redis::command("INFO", "clients")));
        return info_field(info.text, "connected_clients") - static_cast<long long>(watchers_.size());
    }

    boost::asio::io_context io;

private:
    std::list<forma::redis::client> watchers_;
};

} // namespace forma_test
