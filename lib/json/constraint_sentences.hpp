#pragma once
// The sentences of broken constraints, written once for from_json's checks of described
// types (string_checks.cpp) and the runtime schema_validator: both report a value the same
// way. Values and limits come as text already (quoted excerpts, numbers as written).

#include <cstddef>
#include <string>
#include <string_view>

namespace forma::json_detail::sentence {

inline std::string shorter_than(std::string_view quoted_value, std::size_t min_length) {
    return std::string(quoted_value) + " is shorter than the minimum length " + std::to_string(min_length);
}
inline std::string longer_than(std::string_view quoted_value, std::size_t max_length) {
    return std::string(quoted_value) + " is longer than the maximum length " + std::to_string(max_length);
}
inline std::string no_pattern_match(std::string_view quoted_value, std::string_view quoted_pattern) {
    return std::string(quoted_value) + " does not match the pattern " + std::string(quoted_pattern);
}
inline std::string not_a_valid(std::string_view quoted_value, std::string_view format) {
    return std::string(quoted_value) + " is not a valid " + std::string(format);
}
inline std::string less_than_minimum(std::string_view value, std::string_view minimum) {
    return std::string(value) + " is less than the minimum " + std::string(minimum);
}
inline std::string greater_than_maximum(std::string_view value, std::string_view maximum) {
    return std::string(value) + " is greater than the maximum " + std::string(maximum);
}
inline std::string not_above_exclusive_minimum(std::string_view value, std::string_view minimum) {
    return std::string(value) + " is not greater than the exclusive minimum " + std::string(minimum);
}
inline std::string not_below_exclusive_maximum(std::string_view value, std::string_view maximum) {
    return std::string(value) + " is not less than the exclusive maximum " + std::string(maximum);
}
inline std::string fewer_items(std::size_t count, std::size_t min_items) {
    return "array has " + std::to_string(count) + " items, fewer than the minimum " + std::to_string(min_items);
}
inline std::string more_items(std::size_t count, std::size_t max_items) {
    return "array has " + std::to_string(count) + " items, more than the maximum " + std::to_string(max_items);
}

} // namespace forma::json_detail::sentence
