#pragma once
// Decimal digits for the code in lib/: fixed-width fields of dates and times read, integers
// appended to a text being written.

#include <charconv>
#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>

namespace forma::text_detail {

/// Whether s[pos, pos+n) exists and is all ASCII digits.
inline bool digits(std::string_view s, std::size_t pos, std::size_t n) noexcept {
    if (pos + n > s.size()) return false;
    for (std::size_t i = pos; i < pos + n; ++i)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

/// The value of the digits s[pos, pos+n) (check them with digits() first).
inline int number_at(std::string_view s, std::size_t pos, std::size_t n) noexcept {
    int v = 0;
    for (std::size_t i = pos; i < pos + n; ++i) v = v * 10 + (s[i] - '0');
    return v;
}

/// Appends `value` in decimal, without the string std::to_string would make.
template <std::integral Integer>
void append_decimal(std::string& out, Integer value) {
    char digits[20];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
}

} // namespace forma::text_detail
