#pragma once

#include <forma/json/detail/writer.hpp>
#include <forma/json/json_error.hpp>

#include <boost/json/value.hpp>

#include <string>

namespace forma {
namespace json_detail {
boost::json::value parse_value(std::string_view json);
}

/** Writes `value` as compact JSON that from_json<T> reads back to an equal value.

    Null optionals are written as `null` (valid in both schema dialects).
    @throws json_error for what JSON cannot hold: NaN or infinity, a string that
    is not valid UTF-8, an enum value without a described name. The error's
    path names the member.
*/
template <class T>
std::string to_json(const T& value);

/// Appends the JSON of `value` to `out` (see to_json), reusing its capacity; when it throws,
/// `out` is as it was.
template <class T>
void to_json(const T& value, std::string& out) {
    json_detail::writer w(out); // cuts `out` back to what was written when it ends
    if (!json_detail::write_value(w, value)) throw w.take_error();
}

template <class T>
std::string to_json(const T& value) {
    std::string out;
    to_json(value, out);
    return out;
}

/// `value` as a boost::json::value (see to_json).
template <class T>
boost::json::value to_json_value(const T& value) {
    return json_detail::parse_value(to_json(value));
}

} // namespace forma
