// Reading integers: digits are gathered eight at a time where eight bytes can be read, so each
// length, each place in the input (its end within eight bytes or not) and each byte that can
// end a number must give what std::from_chars gives, and the same errors as before.

#include <forma/json/from_json.hpp>

#include <boost/describe/class.hpp>
#include <gtest/gtest.h>

#include <charconv>
#include <optional>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace integer_reading_test {

struct counters {
    std::uint64_t big = 0;
    std::optional<std::int64_t> signed_value;
    std::optional<int> small;
};
BOOST_DESCRIBE_STRUCT(counters, (), (big, signed_value, small))

template <class I>
I expected(const std::string& digits) {
    I out{};
    EXPECT_EQ(std::from_chars(digits.data(), digits.data() + digits.size(), out).ec, std::errc()) << digits;
    return out;
}

TEST(integer_reading, every_length_at_every_place_reads_as_from_chars) {
    std::mt19937_64 random(49);
    for (int length = 1; length <= 19; ++length) {
        for (int trial = 0; trial < 50; ++trial) {
            std::string digits(1, static_cast<char>('1' + random() % 9));
            while (static_cast<int>(digits.size()) < length) digits += static_cast<char>('0' + random() % 10);
            const auto value = expected<std::uint64_t>(digits);
            // Alone (the input ends within eight bytes of the digits or not), and in an object
            // whose next byte is each one that can end a number.
            EXPECT_EQ(forma::from_json<std::uint64_t>(digits), value) << digits;
            for (const char* after : {",", "}", " }", "\n}", "\t,"}) {
                const std::string text = R"({"big":)" + digits + after + (after[0] == '}' || after[1] == '}' ? "" : R"("small":1})");
                const auto read = forma::try_from_json<counters>(text);
                ASSERT_TRUE(read.has_value()) << text << ": " << read.error().what();
                EXPECT_EQ(read->big, value) << text;
            }
            if (length <= 18) {
                const auto negative = expected<std::int64_t>("-" + digits);
                EXPECT_EQ(forma::from_json<std::int64_t>("-" + digits), negative);
                EXPECT_EQ(forma::from_json<counters>(R"({"big":0,"signed_value":-)" + digits + R"(,"small":7})").signed_value, negative);
                EXPECT_EQ(forma::from_json<counters>(R"({"big":0,"small":-)" + digits.substr(0, 9) + "}").small,
                          -expected<int>(digits.substr(0, 9)));
            }
        }
    }
}

TEST(integer_reading, the_limits_and_what_is_no_integer_stay_errors) {
    EXPECT_EQ(forma::from_json<std::uint64_t>("18446744073709551615"), 18446744073709551615u);
    EXPECT_EQ(forma::from_json<std::int64_t>("-9223372036854775808"), INT64_MIN);
    EXPECT_TRUE(forma::try_from_json<std::uint64_t>("18446744073709551616").has_error());
    EXPECT_TRUE(forma::try_from_json<std::uint64_t>("123456789012345678901234").has_error());
    EXPECT_TRUE(forma::try_from_json<std::int64_t>("9223372036854775808").has_error());
    EXPECT_TRUE(forma::try_from_json<int>("2147483648").has_error());
    EXPECT_EQ(forma::from_json<int>("-2147483648"), INT32_MIN);
    // A whole number written with a fraction or an exponent is that integer; a fraction is not.
    EXPECT_EQ(forma::from_json<int>("12345678.0"), 12345678);
    EXPECT_EQ(forma::from_json<int>("1234567e1"), 12345670);
    EXPECT_TRUE(forma::try_from_json<int>("12345678.5").has_error());
    EXPECT_TRUE(forma::try_from_json<std::uint64_t>("0123456789").has_error()) << "a leading zero";
    EXPECT_TRUE(forma::try_from_json<std::uint64_t>("123456789x").has_error());
    EXPECT_TRUE(forma::try_from_json<std::uint64_t>("12345678/").has_error()) << "'/' is the byte below '0'";
    EXPECT_TRUE(forma::try_from_json<std::uint64_t>("12345678:").has_error()) << "':' is the byte above '9'";
    EXPECT_EQ(forma::from_json<std::vector<int>>("[12345678,9,1234567890]"), (std::vector<int>{12345678, 9, 1234567890}));
}

} // namespace integer_reading_test
