// Reading numbers into float and double: every path of read_float (Clinger's exact one,
// Eisel-Lemire's, the digits deciding a near-halfway case, a significand past 19 digits)
// gives the nearest value, bit for bit what std::from_chars gives, and its limits are errors.

#include <forma/json/from_json.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace float_reading_test {

template <class F>
F nearest(const std::string& text) {
    F out{};
    const auto result = std::from_chars(text.data(), text.data() + text.size(), out);
    EXPECT_EQ(result.ec, std::errc()) << text;
    return out;
}

template <class F>
using bits_of = std::conditional_t<sizeof(F) == 8, std::uint64_t, std::uint32_t>;

template <class F>
void expect_nearest(const std::string& text) {
    const auto read = forma::try_from_json<F>(text);
    ASSERT_TRUE(read.has_value()) << text << ": " << read.error().what();
    EXPECT_EQ(std::bit_cast<bits_of<F>>(*read), std::bit_cast<bits_of<F>>(nearest<F>(text))) << text;
}

TEST(float_reading, each_path_gives_the_nearest_double) {
    for (const char* text : {
             "0", "-0", "-0.0", "1", "0.1", "-65.613616999999977", "44.73497199999998", "1.7976931348623157e308",
             "2.2250738585072014e-308", "2.2250738585072011e-308", "4.9e-324", "5e-324", "9007199254740992",
             "9007199254740993", // 2^53 + 1: halfway, to even
             "9007199254740995", "123456789012345678901234567890", "0.000000000000000000000000000123",
             "1.00000000000000011102230246251565404236316680908203125", // halfway between 1 and its successor
             "1.00000000000000011102230246251565404236316680908203124", "1.00000000000000011102230246251565404236316680908203126",
             "7.2057594037927933e16", "1e22", "1e23", "8.98846567431158e307", "123.456e-5", "1E+2", "0.5e-320",
         })
        expect_nearest<double>(text);
}

TEST(float_reading, random_doubles_read_back_exactly_in_every_form) {
    std::mt19937_64 random(49);
    char buffer[64];
    for (int i = 0; i < 20000; ++i) {
        double value;
        do value = std::bit_cast<double>(random());
        while (!std::isfinite(value));
        // Shortest, 17 significant digits, and 25 (a significand past 19 digits).
        const auto shortest = std::to_chars(buffer, buffer + sizeof buffer, value);
        const std::string forms[] = {std::string(buffer, shortest.ptr),
                                     (std::snprintf(buffer, sizeof buffer, "%.16e", value), std::string(buffer)),
                                     (std::snprintf(buffer, sizeof buffer, "%.24e", value), std::string(buffer))};
        for (const std::string& text : forms) {
            const auto read = forma::try_from_json<double>(text);
            ASSERT_TRUE(read.has_value()) << text;
            ASSERT_EQ(std::bit_cast<std::uint64_t>(*read), std::bit_cast<std::uint64_t>(nearest<double>(text))) << text;
        }
        ASSERT_EQ(forma::from_json<double>(forms[0]), value) << forms[0];
    }
}

TEST(float_reading, floats_are_rounded_once_from_the_decimal) {
    for (const char* text : {"0.1", "3.4028235e38", "1.17549435e-38", "1e-45", "16777217", "0.30000001192092896",
                             "1.00000005960464477539062500001", // just past halfway between 1 and its successor
                             "1.000000059604644775390625"})     // halfway: to even (1)
        expect_nearest<float>(text);
    std::mt19937 random(49);
    char buffer[64];
    for (int i = 0; i < 20000; ++i) {
        float value;
        do value = std::bit_cast<float>(static_cast<std::uint32_t>(random()));
        while (!std::isfinite(value));
        std::snprintf(buffer, sizeof buffer, "%.12e", static_cast<double>(value));
        expect_nearest<float>(buffer);
    }
}

TEST(float_reading, values_past_the_type_are_errors_and_tiny_ones_zero) {
    EXPECT_EQ(forma::try_from_json<double>("1.8e308").error().reason(), "1.8e308 does not fit in double");
    EXPECT_EQ(forma::try_from_json<double>("-1e99999999999999999999").error().reason(),
              "-1e99999999999999999999 does not fit in double");
    EXPECT_EQ(forma::try_from_json<float>("3.5e38").error().reason(), "3.5e38 does not fit in float");
    EXPECT_EQ(forma::from_json<double>("1e-99999999999999999999"), 0.0);
    EXPECT_TRUE(std::signbit(forma::from_json<double>("-2e-324")));
    EXPECT_EQ(forma::from_json<float>("1e-50"), 0.0f);
}

TEST(float_reading, long_doubles_are_read_with_their_own_range) {
    EXPECT_EQ(forma::from_json<long double>("0.1"), 0.1L);
    EXPECT_EQ(forma::from_json<long double>("-2.5e-3"), -2.5e-3L);
    EXPECT_EQ(forma::from_json<long double>("1e400"), 1e400L) << "past a double, within a long double";
    EXPECT_EQ(forma::from_json<long double>("1e-99999"), 0.0L);
    EXPECT_EQ(forma::try_from_json<long double>("1e99999").error().reason(), "1e99999 does not fit in long double");
    EXPECT_EQ(forma::from_json<std::vector<long double>>("[1.5, 2]"), (std::vector<long double>{1.5L, 2.0L}));
}

TEST(float_reading, the_grammar_is_checked_as_before) {
    for (const char* text : {"01", "-", "1.", ".5", "1e", "1e+", "--1", "1.e5", "+1", "0x10", "1.5e5.3"}) {
        const auto read = forma::try_from_json<double>(text);
        EXPECT_FALSE(read.has_value()) << text;
    }
    EXPECT_NE(forma::try_from_json<double>("01").error().reason().find("leading zeros"), std::string::npos);
    EXPECT_EQ(forma::try_from_json<std::vector<double>>("[1, 2.5, -3e2]").value(), (std::vector<double>{1, 2.5, -300}));
}

} // namespace float_reading_test
