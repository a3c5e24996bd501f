#include "test_support.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace {

using forma::usage_details;
using namespace forma_test;

TEST(model_usage_details, adds_count_by_count) {
    usage_details a{.input_token_count = 1, .output_token_count = 2};
    a += usage_details{.input_token_count = 4, .output_token_count = 5};
    EXPECT_EQ(a.input_token_count, 5);
    EXPECT_EQ(a.output_token_count, 7);
    EXPECT_EQ(a.total_token_count, std::nullopt);
}

TEST(model_usage_details, null_plus_null_stays_null_and_null_plus_a_count_is_the_count) {
    usage_details a{.input_token_count = std::nullopt, .output_token_count = 3};
    a += usage_details{.input_token_count = std::nullopt, .output_token_count = std::nullopt,
                       .total_token_count = 3};
    EXPECT_EQ(a.input_token_count, std::nullopt);
    EXPECT_EQ(a.output_token_count, 3);
    EXPECT_EQ(a.total_token_count, 3);
}

TEST(model_usage_details, every_count_takes_part) {
    const usage_details one{.input_token_count = 1,
                            .output_token_count = 10,
                            .total_token_count = 100,
                            .cached_input_token_count = 1000,
                            .reasoning_token_count = 10000};
    const usage_details sum = one + one;
    EXPECT_EQ(sum.input_token_count, 2);
    EXPECT_EQ(sum.output_token_count, 20);
    EXPECT_EQ(sum.total_token_count, 200);
    EXPECT_EQ(sum.cached_input_token_count, 2000);
    EXPECT_EQ(sum.reasoning_token_count, 20000);
}

TEST(model_usage_details, additional_counts_are_summed_by_name) {
    usage_details a;
    a.additional_counts = {{"audio_tokens", 7}, {"images", 1}};
    usage_details b;
    b.additional_counts = {{"audio_tokens", 3}, {"searches", 2}};
    a += b;
    const std::map<std::string, std::int64_t, std::less<>> expected{
        {"audio_tokens", 10}, {"images", 1}, {"searches", 2}};
    EXPECT_EQ(a.additional_counts, expected);
}

TEST(model_usage_details, sums_saturate_instead_of_overflowing) {
    constexpr auto max = std::numeric_limits<std::int64_t>::max();
    constexpr auto min = std::numeric_limits<std::int64_t>::min();
    usage_details a{.input_token_count = max - 1, .output_token_count = min + 1};
    a += usage_details{.input_token_count = 5, .output_token_count = -5};
    EXPECT_EQ(a.input_token_count, max);
    EXPECT_EQ(a.output_token_count, min);
}

TEST(model_usage_details, json_holds_only_the_known_counts) {
    usage_details u{.input_token_count = 12, .output_token_count = 0, .reasoning_token_count = 4};
    u.additional_counts = {{"audio_tokens", 9}};
    EXPECT_EQ(json_text(u), R"({"input_token_count":12,"output_token_count":0,)"
                            R"("reasoning_token_count":4,"additional_counts":{"audio_tokens":9}})");
    EXPECT_EQ(json_text(usage_details{}), "{}");
    EXPECT_EQ(through_json_text(u), u);
    EXPECT_EQ(through_json_text(usage_details{}), usage_details{});
}

TEST(model_usage_details, reads_explicit_nulls_as_unknown_counts) {
    const auto u = from_text<usage_details>(R"({"input_token_count":null,"total_token_count":8})");
    EXPECT_EQ(u.input_token_count, std::nullopt);
    EXPECT_EQ(u.total_token_count, 8);
}

TEST(model_usage_details, reads_the_extreme_64_bit_counts) {
    const auto u = from_text<usage_details>(
        R"({"input_token_count":9223372036854775807,"output_token_count":-9223372036854775808})");
    EXPECT_EQ(u.input_token_count, std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(u.output_token_count, std::numeric_limits<std::int64_t>::min());
}

} // namespace
