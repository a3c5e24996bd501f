// JSON Schema `pattern`: the one place forma compiles and runs regular expressions.
#pragma once

#include <boost/regex.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace forma::json_detail {

/// A pattern read as ECMA-262 with the `u` flag, as JSON Schema validators do: over
/// code points (UTF-32), `^` and `$` only at the ends of the text, `.` matching all but
/// \n, \r, U+2028 and U+2029, `\uXXXX` and `\u{X...}` escapes, ASCII `\d` and `\w`
/// whatever the global locale. Boost.Regex runs it, translated where its Perl syntax
/// differs; `\s` there is ASCII white space only, and `\p{...}` is refused.
struct compiled_pattern {
    std::string source;
    boost::wregex regex;
};

/// Throws boost::regex_error when `source` is not a valid expression (a bad `\u`
/// escape included).
compiled_pattern compile_pattern(std::string_view source);

enum class match_result { yes, no, too_complex };

/// Searches (unanchored) UTF-8 `text`; `too_complex` when Boost.Regex gives up.
match_result search(const compiled_pattern& pattern, std::string_view text);

/// The most steps Boost.Regex lets one search of `text_code_points` take before it
/// gives up as too complex: about N·S² + N², S the pattern's length.
std::size_t search_step_bound(const compiled_pattern& pattern, std::size_t text_code_points) noexcept;

/// UTF-8 text as code points (invalid bytes become U+FFFD).
std::wstring utf32_text(std::string_view utf8);

} // namespace forma::json_detail
