#include <forma/net/retry_policy.hpp>

#include <gtest/gtest.h>

using namespace std::chrono;
using forma::net::retry_policy;

TEST(retry_policy, retries_the_statuses_that_mean_nothing_was_done) {
    for (unsigned s : {408u, 409u, 429u, 500u, 502u, 503u, 504u, 599u})
        EXPECT_TRUE(forma::net::is_retryable_status(s)) << s;
    for (unsigned s : {200u, 400u, 401u, 403u, 404u, 413u, 422u, 600u})
        EXPECT_FALSE(forma::net::is_retryable_status(s)) << s;
}

TEST(retry_policy, backoff_grows_by_the_multiplier_up_to_the_cap) {
    const retry_policy p{.initial_backoff = milliseconds(100), .multiplier = 2.0,
                         .max_backoff = milliseconds(500), .jitter = 0.0};
    EXPECT_EQ(forma::net::retry_delay(p, 1, std::nullopt, 0.3), milliseconds(100));
    EXPECT_EQ(forma::net::retry_delay(p, 2, std::nullopt, 0.3), milliseconds(200));
    EXPECT_EQ(forma::net::retry_delay(p, 3, std::nullopt, 0.3), milliseconds(400));
    EXPECT_EQ(forma::net::retry_delay(p, 4, std::nullopt, 0.3), milliseconds(500));
    EXPECT_EQ(forma::net::retry_delay(p, 30, std::nullopt, 0.3), milliseconds(500));
}

TEST(retry_policy, jitter_spreads_the_wait_within_its_bounds) {
    const retry_policy p{.initial_backoff = milliseconds(1000), .jitter = 0.25};
    EXPECT_EQ(forma::net::retry_delay(p, 1, std::nullopt, 0.0), milliseconds(750));
    EXPECT_EQ(forma::net::retry_delay(p, 1, std::nullopt, 0.5), milliseconds(1000));
    EXPECT_GE(forma::net::retry_delay(p, 1, std::nullopt, 0.999), milliseconds(1249));
    EXPECT_LT(forma::net::retry_delay(p, 1, std::nullopt, 0.999), milliseconds(1250));
}

TEST(retry_policy, a_server_hint_replaces_the_backoff) {
    EXPECT_EQ(forma::net::retry_delay({}, 1, milliseconds(3000), 0.9), milliseconds(3000));
}

TEST(retry_after, reads_seconds_and_http_dates) {
    const auto now = sys_days(year(2026) / 11 / 21) + hours(12);
    EXPECT_EQ(forma::net::parse_retry_after("120", now), milliseconds(120000));
    EXPECT_EQ(forma::net::parse_retry_after(" 0 ", now), milliseconds(0));
    EXPECT_EQ(forma::net::parse_retry_after("Sat, 21 Nov 2026 12:00:30 GMT", now), milliseconds(30000));
    EXPECT_EQ(forma::net::parse_retry_after("Sat, 21 Nov 2026 11:00:00 GMT", now), milliseconds(0))
        << "a date in the past means now";
    for (const char* bad : {"", "soon", "-5", "1.5", "Sat, 31 Nov 2026 12:00:00 GMT",
                            "Sat, 21 Foo 2026 12:00:00 GMT", "Sat, 21 Nov 2026 12:00:00 UTC",
                            "99999999999999999999"})
        EXPECT_FALSE(forma::net::parse_retry_after(bad, now)) << bad;
}

TEST(retry_after, reads_openais_millisecond_header) {
    EXPECT_EQ(forma::net::parse_retry_after_ms("250"), milliseconds(250));
    EXPECT_EQ(forma::net::parse_retry_after_ms("20.1"), milliseconds(21)) << "rounded up";
    EXPECT_FALSE(forma::net::parse_retry_after_ms("-1"));
    EXPECT_FALSE(forma::net::parse_retry_after_ms("12ms"));
    EXPECT_FALSE(forma::net::parse_retry_after_ms(""));
}
