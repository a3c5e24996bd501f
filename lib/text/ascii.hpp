#pragma once
// ASCII case folding for protocol tokens (header names, URL schemes), for the code in lib/.

#include <algorithm>
#include <string_view>

namespace forma::lib_detail {

constexpr char ascii_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// Whether `a` and `b` are equal but for ASCII letter case.
inline bool iequals(std::string_view a, std::string_view b) noexcept {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return ascii_lower(x) == ascii_lower(y); });
}

} // namespace forma::lib_detail
