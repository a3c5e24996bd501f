#pragma once

#include <boost/json/object.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

namespace forma {

/** What a provider said about its rate limits with a response: OpenAI's (and compatible
    servers') `x-ratelimit-limit-requests`, `-limit-tokens`, `-remaining-requests`,
    `-remaining-tokens`, `-reset-requests` and `-reset-tokens` headers. The OpenAI clients put
    it in a response's (a stream's first update's) additional_properties under `property`;
    forma::concurrency_limiter follows it.
*/
struct rate_limits {
    static constexpr std::string_view property = "rate_limits";

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
    /// What to_json wrote, from `additional_properties[property]`; nullopt when absent.
    static std::optional<rate_limits> from_properties(const boost::json::object& additional_properties);

    /// From a header lookup (`header(name)` gives a value or ""); empty when none is there.
    template <class HeaderLookup>
    static rate_limits from_headers(HeaderLookup&& header) {
        rate_limits r;
        r.limit_requests = parse_count(header("x-ratelimit-limit-requests"));
        r.limit_tokens = parse_count(header("x-ratelimit-limit-tokens"));
        r.remaining_requests = parse_count(header("x-ratelimit-remaining-requests"));
        r.remaining_tokens = parse_count(header("x-ratelimit-remaining-tokens"));
        r.reset_requests = parse_reset(header("x-ratelimit-reset-requests"));
        r.reset_tokens = parse_reset(header("x-ratelimit-reset-tokens"));
        return r;
    }

    /// A non-negative integer header value; nullopt for anything else.
    static std::optional<std::int64_t> parse_count(std::string_view value);
    /// A Go-style duration as OpenAI sends it ("1s", "6m0s", "20ms", "1h2m3.5s"); nullopt when not one.
    static std::optional<std::chrono::milliseconds> parse_reset(std::string_view value);

    friend bool operator==(const rate_limits&, const rate_limits&) = default;
};

} // namespace forma
