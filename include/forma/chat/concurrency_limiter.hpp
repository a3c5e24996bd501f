#pragma once

#include <forma/chat/chat_client.hpp>
#include <forma/chat/delegating_chat_client.hpp>
#include <forma/chat/concurrency_limit_error.hpp>
#include <forma/chat/rate_limit_store.hpp>
#include <forma/chat/token_estimator.hpp>
#include <forma/error.hpp>

#include <chrono>
#include <cstddef>
#include <memory>

namespace forma {

struct concurrency_limiter_options {
    /// Requests in flight at once; 0: no limit. A stream counts until it ends or is destroyed.
    std::size_t max_in_flight = 4;
    /// Requests waiting at most; past it a request fails at once (concurrency_limit_error);
    /// 0: no limit.
    std::size_t max_queued = 0;
    /// Requests started per minute, as a token bucket holding a minute's worth; 0: no limit.
    double requests_per_minute = 0;
    /** Tokens per minute, likewise: a request takes its messages' estimated tokens plus its
        max_output_tokens (nothing for the output when that is unset), and the input tokens its
        response reports correct the estimate afterwards (local buckets; output tokens are not
        charged after the fact). 0: no limit.
    */
    double tokens_per_minute = 0;
    /** Follow the provider's rate-limit headers (a response's, a stream's first update's
        `rate_limits`): when it says no requests remain, or fewer tokens than the next
        request takes, that request waits until the provider says they reset (1 s when it does
        not say).
    */
    bool follow_rate_limit_headers = true;
    /** When set, the request and token buckets live in this store (redis::rate_limit_store:
        one Redis hash), so that every instance using it keeps one limit together. The in-flight
        limit stays per instance.
    */
    std::shared_ptr<rate_limit_store> shared_store{};
};

/** A chat_client decorator that keeps requests to a provider within limits: at most
    max_in_flight at once, and requests and tokens per minute, waiting in FIFO order.

    A request waits (cancellable: a cancelled one leaves the queue and is never sent) until a
    slot is free and the buckets hold enough; `in_flight()` and `queued()` show the state.
    Limits are per limiter, or shared by a fleet through Redis.

        forma::concurrency_limiter limited(client, {.max_in_flight = 8, .requests_per_minute = 500});
        forma::chat_client_agent agent(limited, {...});

    Given as a shared_ptr, the inner client is owned; given as a reference, it must outlive
    the limiter. One executor; not thread-safe.
*/
class concurrency_limiter : public delegating_chat_client {
public:
    explicit concurrency_limiter(std::shared_ptr<chat_client> inner, concurrency_limiter_options options = {});
    explicit concurrency_limiter(chat_client& inner, concurrency_limiter_options options = {});
    ~concurrency_limiter() override;

    std::size_t in_flight() const noexcept;
    std::size_t queued() const noexcept;
    const concurrency_limiter_options& options() const noexcept;

protected:
    boost::asio::awaitable<agent_response<>> get_response_core(chat_request request) override;
    update_stream get_streaming_response_core(chat_request request) override;

private:
    struct state;
    class limited_stream;
    std::shared_ptr<state> state_; // shared with waiting requests and open streams
};

} // namespace forma
