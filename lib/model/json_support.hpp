#pragma once

// Helpers shared by the model's JSON conversions: typed member access that
// throws json_error with a JSON Pointer, RFC 3339 times, ASCII case folding.

#include <forma/json/json_error.hpp>
#include <forma/model/rate_limits.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/string.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace forma::model_detail {

using time_point = std::chrono::system_clock::time_point;

/// A set time that is after the epoch: the epoch and earlier mean "unknown".
inline bool is_known_time(const std::optional<time_point>& t) noexcept {
    return t && t->time_since_epoch().count() > 0;
}

/// RFC 3339 in UTC, e.g. "2024-05-01T12:34:56.5Z": as many fraction digits as needed.
std::string format_time(time_point t);
/// Reads RFC 3339 with any offset; nullopt if malformed or out of the clock's range.
std::optional<time_point> parse_time(std::string_view text);

/// "number 5", "string \"abc\"", "array", ... for error messages.
std::string describe(const boost::json::value& v);

/// "/key" as a JSON Pointer ("~" and "/" in the key escaped).
std::string member_path(std::string_view key);

[[noreturn]] void fail(std::string path, std::string reason);
[[noreturn]] void fail_type(std::string path, std::string_view expected, const boost::json::value& got);

/// Runs `f`, adding "/key" in front of the path of any json_error it throws.
template <class F>
decltype(auto) at_member(std::string_view key, F&& f) {
    try {
        return std::forward<F>(f)();
    } catch (const json_error& e) {
        std::string path = member_path(key);
        path += e.path();
        throw json_error(std::move(path), e.reason());
    }
}

template <class F>
decltype(auto) at_index(std::size_t index, F&& f) {
    try {
        return std::forward<F>(f)();
    } catch (const json_error& e) {
        std::string path = "/";
        path += std::to_string(index);
        path += e.path();
        throw json_error(std::move(path), e.reason());
    }
}

/// `json` as an object. @throws json_error "expected <what> object, got ..." at the root.
const boost::json::object& expect_object(const boost::json::value& json, std::string_view what);

/// The member, or null when absent.
const boost::json::value* find(const boost::json::object& o, std::string_view key);

/// A string member; "" when absent or null.
std::string read_string(const boost::json::object& o, std::string_view key);
/// A string member that must be present.
std::string read_required_string(const boost::json::object& o, std::string_view key);
std::optional<std::string> read_optional_string(const boost::json::object& o, std::string_view key);
std::optional<std::int64_t> read_optional_int(const boost::json::object& o, std::string_view key);
std::optional<bool> read_optional_bool(const boost::json::object& o, std::string_view key);
/// Any member; null when absent.
boost::json::value read_value(const boost::json::object& o, std::string_view key);
/// An object member; empty when absent or null.
boost::json::object read_object(const boost::json::object& o, std::string_view key);
std::optional<time_point> read_time(const boost::json::object& o, std::string_view key);
/// The "rate_limits" member; nullopt when absent or null.
std::optional<rate_limits> read_rate_limits(const boost::json::object& o);

/// A member converted with boost::json::value_to; nullopt when absent or null.
template <class T>
std::optional<T> read_optional(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = find(o, key);
    if (!v || v->is_null()) return std::nullopt;
    return at_member(key, [&] { return boost::json::value_to<T>(*v); });
}

template <class T>
T read_required(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = find(o, key);
    if (!v) fail("", "missing required member \"" + std::string(key) + "\"");
    return at_member(key, [&] { return boost::json::value_to<T>(*v); });
}

/// An array member, each element converted; empty when absent or null.
template <class T>
std::vector<T> read_array(const boost::json::object& o, std::string_view key) {
    std::vector<T> out;
    const boost::json::value* v = find(o, key);
    if (!v || v->is_null()) return out;
    at_member(key, [&] {
        if (!v->is_array()) fail_type("", "array", *v);
        const boost::json::array& a = v->get_array();
        out.reserve(a.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            at_index(i, [&] { out.push_back(boost::json::value_to<T>(a[i])); });
    });
    return out;
}

template <class T>
boost::json::array write_array(const std::vector<T>& items) {
    boost::json::array a;
    a.reserve(items.size());
    for (const T& item : items) a.push_back(boost::json::value_from(item));
    return a;
}

inline void write_if_not_empty(boost::json::object& o, std::string_view key, const std::string& s) {
    if (!s.empty()) o[key] = s;
}
void write_time(boost::json::object& o, std::string_view key, const std::optional<time_point>& t);
/// Writes "rate_limits" when set.
void write_rate_limits(boost::json::object& o, const std::optional<rate_limits>& limits);
/// Writes "raw_representation" unless null and "additional_properties" unless empty.
void write_metadata(boost::json::object& o, const boost::json::value& raw,
                    const boost::json::object& properties);

} // namespace forma::model_detail
