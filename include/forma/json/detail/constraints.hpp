#pragma once

#include <forma/reflect/field_info.hpp>
#include <forma/reflect/type_traits.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace forma::json_detail {

/// Unicode code points in valid UTF-8 text (JSON Schema's string length).
std::size_t count_code_points(std::string_view utf8) noexcept;

/// ECMA-262 `pattern` search over code points (as with the `u` flag; `^` and `$` only
/// at the text's ends), compiled once per pattern per thread.
/// Throws schema_error when the pattern itself is invalid.
bool matches_pattern(std::string_view pattern, std::string_view text);

/// Whether `format` is one forma checks (date-time, date, time, duration, email,
/// hostname, ipv4, ipv6, uuid, uri); others are annotations only.
bool is_checked_format(std::string_view format) noexcept;
bool matches_format(std::string_view format, std::string_view text);

/// The reason a value breaks a constraint of `info`, or "" when it does not.
std::string check_string(const field_info& info, std::string_view value);
std::string check_number(const field_info& info, double value);
std::string check_item_count(const field_info& info, std::size_t count);

} // namespace forma::json_detail
