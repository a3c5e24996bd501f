// JSON Schema `pattern` on Boost.Regex, with ECMA-262's line and code point rules.
#include "ecma_pattern.hpp"

#include <forma/json/detail/reader.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace forma::json_detail {

namespace {

std::size_t saturating_product(std::size_t a, std::size_t b) noexcept {
    constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
    return a != 0 && b > max / a ? max : a * b;
}

std::size_t saturating_sum(std::size_t a, std::size_t b) noexcept {
    constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
    return b > max - a ? max : a + b;
}

} // namespace

compiled_pattern compile_pattern(std::string_view source) {
    // Boost's ECMAScript mode lets `^`/`$` match at line breaks and `.` match them: the
    // flags turn both off, as ECMA-262 has it without the `m` and `s` flags.
    constexpr auto flags = boost::wregex::ECMAScript | boost::wregex::no_mod_m | boost::wregex::no_mod_s;
    const std::wstring text = utf32_text(source);
    return {std::string(source), boost::wregex(text.begin(), text.end(), flags)};
}

match_result search(const compiled_pattern& pattern, std::string_view text) {
    const std::wstring code_points = utf32_text(text);
    try {
        return boost::regex_search(code_points.begin(), code_points.end(), pattern.regex)
                   ? match_result::yes
                   : match_result::no;
    } catch (const std::runtime_error&) {
        return match_result::too_complex; // Boost.Regex bounds its work instead of recursing
    }
}

std::size_t search_step_bound(const compiled_pattern& pattern, std::size_t text_code_points) noexcept {
    // As perl_matcher::estimate_max_state_count computes it: the greater of N·S² + k
    // and min(N² + k, BOOST_REGEX_MAX_STATE_COUNT), k = 100000.
    constexpr std::size_t k = 100000;
    const std::size_t n = std::max<std::size_t>(text_code_points, 1);
    const std::size_t s = std::max<std::size_t>(pattern.regex.size(), 1);
    const std::size_t by_states = saturating_sum(saturating_product(saturating_product(s, s), n), k);
    const std::size_t by_length = std::min<std::size_t>(saturating_sum(saturating_product(n, n), k),
                                                        BOOST_REGEX_MAX_STATE_COUNT);
    return std::max(by_states, by_length);
}

std::wstring utf32_text(std::string_view s) {
    std::wstring out;
    out.reserve(s.size());
    const char* p = s.data();
    const char* const end = p + s.size();
    while (p < end) {
        const auto c = static_cast<unsigned char>(*p);
        if (c < 0x80) {
            out += static_cast<wchar_t>(c);
            ++p;
            continue;
        }
        const int n = utf8_sequence_length(p, end);
        if (n == 0) {
            out += static_cast<wchar_t>(0xFFFD);
            ++p;
            continue;
        }
        std::uint32_t cp = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
        for (int i = 1; i < n; ++i)
            cp = (cp << 6) | (static_cast<unsigned char>(p[i]) & 0x3F);
        out += static_cast<wchar_t>(cp);
        p += n;
    }
    return out;
}

} // namespace forma::json_detail
