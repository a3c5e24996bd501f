#pragma once

#include <boost/json/object.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

namespace forma {

/** The names of the headers a provider states its rate limits in. A provider's client passes its
    own to rate_limits::from_headers; `x_ratelimit_headers` are OpenAI's and most compatible
    servers'.
*/
struct rate_limit_headers {
    std::string_view limit_requests{};
    std::string_view limit_tokens{};
    std::string_view remaining_requests{};
    std::string_view remaining_tokens{};
    /// Go-style durations ("1s", "6m0s", "20ms") until the limit is whole again, or RFC 3339
    /// times when it is ("2026-11-29T12:01:00Z", Anthropic's).
    std::string_view reset_requests{};
    std::string_view reset_tokens{};
};

/// `x-ratelimit-limit-requests`, `-limit-tokens`, `-remaining-requests`, `-remaining-tokens`,
/// `-reset-requests` and `-reset-tokens`.
inline constexpr rate_limit_headers x_ratelimit_headers{
    .limit_requests = "x-ratelimit-limit-requests",
    .limit_tokens = "x-ratelimit-limit-tokens",
    .remaining_requests = "x-ratelimit-remaining-requests",
    .remaining_tokens = "x-ratelimit-remaining-tokens",
    .reset_requests = "x-ratelimit-reset-requests",
    .reset_tokens = "x-ratelimit-reset-tokens",
};

/** What a provider said about its rate limits with a response. A provider's client sets it on
    the response (on a stream's first update) it read the headers of; forma::concurrency_limiter
    follows it.
*/
struct rate_limits {
    std::optional<std::int64_t> limit_requests{};
    std::optional<std::int64_t> limit_tokens{};
    std::optional<std::int64_t> remaining_requests{};
    std::optional<std::int64_t> remaining_tokens{};
    /// Until the request limit is whole again.
    std::optional<std::chrono::milliseconds> reset_requests{};
    /// Until the token limit is whole again.
    std::optional<std::chrono::milliseconds> reset_tokens{};

    bool empty() const noexcept {
        return !limit_requests && !limit_tokens && !remaining_requests && !remaining_tokens && !reset_requests &&
               !reset_tokens;
    }

    /// {"remaining_requests": 12, "reset_requests_ms": 1000, ...}: the members that are set.
    boost::json::object to_json() const;
    /// What to_json wrote; a member that is not a non-negative integer is left unset.
    static rate_limits from_json(const boost::json::object& json);

    /// From a header lookup (`header(name)` gives a value or ""), by the provider's header names;
    /// empty when none is there. A header without a name is not looked up.
    template <class HeaderLookup>
    static rate_limits from_headers(HeaderLookup&& header, const rate_limit_headers& names) {
        auto value = [&](std::string_view name) { return name.empty() ? std::string_view() : std::string_view(header(name)); };
        rate_limits r;
        r.limit_requests = parse_count(value(names.limit_requests));
        r.limit_tokens = parse_count(value(names.limit_tokens));
        r.remaining_requests = parse_count(value(names.remaining_requests));
        r.remaining_tokens = parse_count(value(names.remaining_tokens));
        r.reset_requests = parse_reset(value(names.reset_requests));
        r.reset_tokens = parse_reset(value(names.reset_tokens));
        return r;
    }

    /// A non-negative integer header value; nullopt for anything else.
    static std::optional<std::int64_t> parse_count(std::string_view value);
    /// A Go-style duration as OpenAI sends it ("1s", "6m0s", "20ms", "1h2m3.5s"), or the time from
    /// now until an RFC 3339 time as Anthropic sends it (0 for a time past); nullopt for neither,
    /// or more than a week.
    static std::optional<std::chrono::milliseconds> parse_reset(std::string_view value);

    friend bool operator==(const rate_limits&, const rate_limits&) = default;
};

} // namespace forma
