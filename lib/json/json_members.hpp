#pragma once
// Members of the JSON objects servers send, read for the code in lib/.

#include "json_text.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

namespace forma::json_detail {

/// `v` as valid UTF-8 text, or "" when it is absent (null) or not a string.
inline std::string string_of(const boost::json::value* v) { return v && v->is_string() ? valid_utf8(v->get_string()) : std::string(); }

/// The string member `key` of `o` as valid UTF-8, or "" when it is absent or not a string.
inline std::string string_member(const boost::json::object& o, std::string_view key) { return string_of(o.if_contains(key)); }

} // namespace forma::json_detail
