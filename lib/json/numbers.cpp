#include <forma/json/detail/value_reader.hpp>

#include <fast_float/fast_float.h>

#include <cmath>

namespace forma::json_detail {

bool is_underflow(std::string_view text) noexcept {
    // The decimal exponent of the first significant digit decides: below zero is tiny.
    std::size_t i = text[0] == '-' ? 1 : 0;
    long position = 0; // exponent of the digit at i, relative to the decimal point
    std::size_t int_digits = 0;
    while (i + int_digits < text.size() && text[i + int_digits] >= '0' && text[i + int_digits] <= '9')
        ++int_digits;
    long lead = 0;
    bool found = false;
    for (std::size_t k = 0; k < int_digits && !found; ++k)
        if (text[i + k] != '0') lead = static_cast<long>(int_digits - k - 1), found = true;
    i += int_digits;
    if (i < text.size() && text[i] == '.') {
        ++i;
        for (position = -1; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, --position)
            if (!found && text[i] != '0') lead = position, found = true;
    }
    long exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        const bool negative = i < text.size() && text[i] == '-';
        if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
        for (; i < text.size() && exponent < 100000; ++i) exponent = exponent * 10 + (text[i] - '0');
        if (negative) exponent = -exponent;
    }
    return found && lead + exponent < 0;
}

namespace {

template <class F>
bool to_binary(std::string_view text, bool negative, std::uint64_t significand, std::int64_t exponent, bool whole,
               F& out) noexcept {
    using format = fast_float::binary_format<F>;
    if (whole) {
        const fast_float::adjusted_mantissa nearest = fast_float::compute_float<format>(exponent, significand);
        if (nearest.power2 >= 0) { // else too close to halfway between two values to tell from 64 bits
            fast_float::to_float(negative, nearest, out);
            return std::isfinite(out);
        }
    }
    // The digits themselves decide: checked JSON number text is what from_chars reads.
    if (fast_float::from_chars(text.data(), text.data() + text.size(), out).ec != std::errc()) return false;
    return std::isfinite(out);
}

} // namespace

bool decimal_to_binary(std::string_view text, bool negative, std::uint64_t significand, std::int64_t exponent,
                       bool whole, double& out) noexcept {
    return to_binary(text, negative, significand, exponent, whole, out);
}

bool decimal_to_binary(std::string_view text, bool negative, std::uint64_t significand, std::int64_t exponent,
                       bool whole, float& out) noexcept {
    return to_binary(text, negative, significand, exponent, whole, out);
}

bool read_integral_number(reader& r, std::string_view type_name, bool& negative,
                          std::uint64_t& magnitude) {
    const char* start = r.p;
    scanned_number number;
    if (!r.scan_number(number)) return false;
    const std::string_view text = number.text;
    const bool integral = number.integral;
    negative = text[0] == '-';
    const std::string_view digits = text.substr(negative ? 1 : 0);
    if (integral) {
        const auto res = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude);
        if (res.ec == std::errc()) return true;
    } else {
        double d = 0;
        const auto res = std::from_chars(text.data(), text.data() + text.size(), d);
        if (res.ec == std::errc() && std::trunc(d) != d) {
            r.p = start;
            return r.fail_type("integer");
        }
        if (res.ec == std::errc() && std::fabs(d) < 18446744073709551616.0) {
            magnitude = static_cast<std::uint64_t>(std::fabs(d));
            return true;
        }
        if (res.ec == std::errc::result_out_of_range && is_underflow(text)) {
            r.p = start;
            return r.fail_type("integer");
        }
    }
    r.p = start;
    return r.fail(std::string(text) + " does not fit in " + std::string(type_name));
}

} // namespace forma::json_detail
