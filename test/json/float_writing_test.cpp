// Writing float and double: to_json's text is, character for character, what std::to_chars
// writes without a format (the shortest text that reads back as the value, fixed notation on a
// tie, a whole number's exact digits), and it reads back as the same bits.

#include <forma/json/from_json.hpp>
#include <forma/json/to_json.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

namespace float_writing_test {

template <class F>
std::string std_text(F v) {
    char buffer[64];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
    return std::string(buffer, r.ptr);
}

template <class F>
using bits_of = std::conditional_t<sizeof(F) == 8, std::uint64_t, std::uint32_t>;

// Counts a mismatch instead of failing on each: a million values, a few lines of failure.
template <class F>
bool writes_as_std(F v) {
    const std::string written = forma::to_json(v);
    if (written != std_text(v)) {
        ADD_FAILURE() << "to_json " << written << ", std::to_chars " << std_text(v);
        return false;
    }
    const auto back = forma::try_from_json<F>(written);
    if (!back.has_value() || std::bit_cast<bits_of<F>>(*back) != std::bit_cast<bits_of<F>>(v)) {
        ADD_FAILURE() << written << " does not read back as the same value";
        return false;
    }
    return true;
}

TEST(float_writing, the_edges_are_written_as_std_to_chars_writes_them) {
    using limits = std::numeric_limits<double>;
    for (double v : {0.0, -0.0, 1.0, -1.0, 0.1, 100.0, 1500.0, 1e15, 1e16, 1e21, 1e22, 1e23, 1e-5, 1e-7, 0.001, 0.0001,
                     123456789012345680000.0, 9007199254740993.0, 18446744073709551616.0, 9.999999999999999e21,
                     5e-324, limits::min(), limits::max(), limits::denorm_min(), -limits::max(), 2.5e-310, 1.7976931348623157e308,
                     -65.613616999999977, 0.30000000000000004})
        EXPECT_TRUE(writes_as_std(v)) << v;
    using float_limits = std::numeric_limits<float>;
    for (float v : {0.0f, -0.0f, 1.0f, 0.1f, 108592768.0f, 16777217.0f, 1e10f, 3.4028235e38f, 1e-45f, float_limits::min(),
                    float_limits::max(), float_limits::denorm_min(), 123.456f})
        EXPECT_TRUE(writes_as_std(v)) << v;
}

TEST(float_writing, random_values_are_written_as_std_to_chars_writes_them) {
    std::mt19937_64 random(20261129);
    int failures = 0;
    for (int i = 0; i < 200'000 && failures < 10; ++i) {
        const double any_bits = std::bit_cast<double>(random());
        if (std::isfinite(any_bits)) failures += !writes_as_std(any_bits);
        const float any_float = std::bit_cast<float>(static_cast<std::uint32_t>(random()));
        if (std::isfinite(any_float)) failures += !writes_as_std(any_float);
        // Values as data holds them: a few decimal digits at any scale, whole numbers, coordinates.
        failures += !writes_as_std(static_cast<double>(random() % 100'000'000) / std::pow(10.0, static_cast<double>(random() % 30)));
        failures += !writes_as_std(static_cast<double>(random() % 1000) * std::pow(10.0, static_cast<double>(static_cast<int>(random() % 44) - 22)));
        failures += !writes_as_std(static_cast<double>(random() >> 11)); // whole, to 2^53
        failures += !writes_as_std(static_cast<double>(random()));      // whole, past 2^53
        failures += !writes_as_std(static_cast<float>(random() % 100'000) / std::pow(10.0f, static_cast<float>(random() % 12)));
    }
    EXPECT_EQ(failures, 0);
}

TEST(float_writing, long_double_and_non_finite_values_keep_their_paths) {
    EXPECT_EQ(forma::to_json(1e400L), std_text(1e400L));
    EXPECT_EQ(forma::to_json(0.1L), std_text(0.1L));
    EXPECT_THROW(forma::to_json(std::numeric_limits<double>::quiet_NaN()), forma::json_error);
    EXPECT_THROW(forma::to_json(-std::numeric_limits<float>::infinity()), forma::json_error);
}

} // namespace float_writing_test
