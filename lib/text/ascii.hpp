#pragma once
// ASCII case folding for protocol tokens (header names, media types, URL schemes, roles), for
// the code in lib/: the one place it is written.

#include <algorithm>
#include <string>
#include <string_view>

namespace forma::text_detail {

constexpr char ascii_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
constexpr char ascii_upper(char c) noexcept { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

/// Whether `a` and `b` are equal but for ASCII letter case.
inline bool iequals(std::string_view a, std::string_view b) noexcept {
    // Names come mostly in the case they are looked up in: equal bytes are not folded.
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return x == y || ascii_lower(x) == ascii_lower(y); });
}

/// Whether `text` starts with `prefix` but for ASCII letter case.
inline bool istarts_with(std::string_view text, std::string_view prefix) noexcept {
    return text.size() >= prefix.size() && iequals(text.substr(0, prefix.size()), prefix);
}

inline std::string to_lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), ascii_lower);
    return s;
}

inline std::string to_upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), ascii_upper);
    return s;
}

} // namespace forma::text_detail
