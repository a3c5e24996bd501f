#pragma once

#include <forma/model/agent_response_update.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/async_result.hpp>

#include <memory>
#include <optional>
#include <utility>

namespace forma {

/** Where a stream's updates come from: implemented by chat clients and by
    decorators that transform another stream. Pull-based: nothing runs between
    calls to next(), so a consumer that stops asking stops the work.
*/
class update_source {
public:
    virtual ~update_source();
    /// The next update, or nullopt after the last. Throws the run's error.
    virtual boost::asio::awaitable<std::optional<agent_response_update>> next() = 0;
};

/** A stream of agent_response_updates, consumed as

        while (auto update = co_await stream.next()) { ... }

    or with any completion token through async_next. Destroying the stream (for
    instance by leaving the loop early) destroys its source, which cancels the
    underlying work (a streaming HTTP response closes its connection). Like an
    Asio I/O object, the stream must outlive its pending operations, and runs
    only on its executor.
*/
class update_stream {
public:
    using executor_type = boost::asio::any_io_executor;

    update_stream(executor_type executor, std::unique_ptr<update_source> source) noexcept
        : executor_(std::move(executor)), source_(std::move(source)) {}

    update_stream(update_stream&&) noexcept = default;
    update_stream& operator=(update_stream&&) noexcept = default;

    executor_type get_executor() const noexcept { return executor_; }

    /// The next update, or nullopt once the stream has ended (and on every call after).
    boost::asio::awaitable<std::optional<agent_response_update>> next();

    /// next() for any completion token; the handler gets (std::exception_ptr, std::optional<agent_response_update>).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_next(CompletionToken&& token = {}) {
        return boost::asio::co_spawn(executor_, next(), std::forward<CompletionToken>(token));
    }

private:
    executor_type executor_;
    std::unique_ptr<update_source> source_;
    bool ended_ = false;
};

/// A stream whose updates are all known already (tests, replays, cached answers).
update_stream make_update_stream(boost::asio::any_io_executor executor,
                                 std::vector<agent_response_update> updates);

} // namespace forma
