#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace forma::net {

/** When and how long to wait before repeating a failed request.

    A request is repeated only for a failure that says nothing was done: a
    connection failure before the first response byte, or a status of
    is_retryable_status. A streamed response is never repeated once its body
    has begun (its updates may already have been used).

    "Before the first response byte" is what the client received: a connection
    that breaks while the request is still being sent is repeated only when
    nothing of a response can be read from it afterwards; a status line, or any
    part of a response, ends the request with that error instead (see
    transport_error::before_response, which is what to rely on).
*/
struct retry_policy {
    /// Retries after the first attempt; 0 turns retrying off.
    int max_retries = 2;
    /// The wait before the first retry; each further retry waits `multiplier` times longer.
    std::chrono::milliseconds initial_backoff{500};
    double multiplier = 2.0;
    /// No computed wait exceeds this.
    std::chrono::milliseconds max_backoff{8000};
    /// Each wait is scaled by a random factor in [1 - jitter, 1 + jitter], so that many
    /// clients failing together do not retry together.
    double jitter = 0.25;
    /// A server's Retry-After is followed up to this long; a longer one is an error at once.
    std::chrono::milliseconds max_retry_after{60000};
};

/// 408 Request Timeout, 409 Conflict, 429 Too Many Requests and every 5xx: the
/// statuses OpenAI's own SDKs retry.
bool is_retryable_status(unsigned status) noexcept;

/** The wait a `Retry-After` header asks for: delta-seconds ("120") or an HTTP
    date ("Wed, 21 Oct 2026 07:28:00 GMT", compared with `now`; a past date is 0).
    Null when the value is neither.
*/
std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value,
                                                           std::chrono::system_clock::time_point now);

/// The wait OpenAI's `retry-after-ms` header asks for (milliseconds, may have a fraction).
std::optional<std::chrono::milliseconds> parse_retry_after_ms(std::string_view value);

/** The wait before retry number `retry` (1 for the first): the server's hint when
    it gave one (capped by nothing but max_retry_after, checked by the caller),
    else exponential backoff with jitter. `unit_random` is uniform in [0, 1).
*/
std::chrono::milliseconds retry_delay(const retry_policy& policy, int retry,
                                      std::optional<std::chrono::milliseconds> server_hint,
                                      double unit_random);

} // namespace forma::net
