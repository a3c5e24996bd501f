#include <forma/net/http_error.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(http_error, what_names_status_code_and_message) {
    const forma::http_error e(429, "tokens", "Rate limit reached for gpt-4o", "rate_limit_exceeded");
    EXPECT_STREQ(e.what(), "HTTP 429 (rate_limit_exceeded): Rate limit reached for gpt-4o");
    EXPECT_EQ(e.status(), 429);
    EXPECT_EQ(e.type(), "tokens");
    EXPECT_EQ(e.message(), "Rate limit reached for gpt-4o");
    EXPECT_EQ(e.code(), "rate_limit_exceeded");
    EXPECT_EQ(e.param(), "");
}

TEST(http_error, the_type_stands_in_for_a_missing_code) {
    const forma::http_error e(400, "invalid_request_error", "Unsupported value: 'temperature'", {},
                              "temperature");
    EXPECT_STREQ(e.what(), "HTTP 400 (invalid_request_error): Unsupported value: 'temperature'");
    EXPECT_EQ(e.param(), "temperature");
}

TEST(http_error, without_a_message_the_reason_phrase) {
    EXPECT_STREQ(forma::http_error(503, {}, {}).what(), "HTTP 503: Service Unavailable");
    EXPECT_STREQ(forma::http_error(418, {}, {}).what(), "HTTP 418");
    EXPECT_STREQ(forma::http_error(500, "server_error", {}).what(),
                 "HTTP 500 (server_error): Internal Server Error");
}

TEST(http_error, an_error_inside_a_stream_has_status_zero) {
    const forma::http_error e(0, "server_error", "The server had an error");
    EXPECT_STREQ(e.what(), "error in the response stream (server_error): The server had an error");
}

TEST(http_error, is_a_forma_error) {
    try {
        throw forma::http_error(401, "invalid_request_error", "Incorrect API key provided: sk-***wxyz",
                                "invalid_api_key");
    } catch (const forma::error& e) {
        EXPECT_STREQ(e.what(), "HTTP 401 (invalid_api_key): Incorrect API key provided: sk-***wxyz");
    }
}

} // namespace
