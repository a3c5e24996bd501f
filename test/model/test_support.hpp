#pragma once

// Printers that make failed comparisons readable (the JSON of the value), and
// JSON helpers shared by the model tests.

#include <forma/model.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <chrono>
#include <ostream>
#include <string>
#include <string_view>

namespace forma {

template <class T>
void print_as_json(const T& value, std::ostream* os) {
    try {
        *os << boost::json::serialize(boost::json::value_from(value));
    } catch (const std::exception& e) {
        *os << "<unprintable: " << e.what() << ">";
    }
}

inline void PrintTo(const chat_role& v, std::ostream* os) { *os << v.value(); }
inline void PrintTo(const finish_reason& v, std::ostream* os) { *os << v.value(); }
inline void PrintTo(const usage_details& v, std::ostream* os) { print_as_json(v, os); }
inline void PrintTo(const continuation_token& v, std::ostream* os) { print_as_json(v, os); }
inline void PrintTo(const content& v, std::ostream* os) { print_as_json(v, os); }
inline void PrintTo(const chat_message& v, std::ostream* os) { print_as_json(v, os); }
inline void PrintTo(const agent_response<>& v, std::ostream* os) { print_as_json(v, os); }
inline void PrintTo(const agent_response_update& v, std::ostream* os) { print_as_json(v, os); }
inline void PrintTo(const response_format& v, std::ostream* os) { print_as_json(v, os); }

} // namespace forma

namespace forma_test {

using namespace std::chrono_literals;
using time_point = std::chrono::system_clock::time_point;

/// A time `seconds` after the epoch.
inline time_point at(std::int64_t seconds) { return time_point(std::chrono::seconds(seconds)); }

/// Compact JSON of `value`, for comparing against expected text.
template <class T>
std::string json_text(const T& value) {
    return boost::json::serialize(boost::json::value_from(value));
}

/// Writes `value` to JSON text, parses the text, and reads it back.
template <class T>
T through_json_text(const T& value) {
    return boost::json::value_to<T>(boost::json::parse(json_text(value)));
}

/// Reads a T from JSON text.
template <class T>
T from_text(std::string_view text) {
    return boost::json::value_to<T>(boost::json::parse(text));
}

} // namespace forma_test
