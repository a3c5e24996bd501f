#pragma once
// Fixed-width decimal fields of dates and times, for the parsers in lib/.

#include <cstddef>
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

} // namespace forma::text_detail
