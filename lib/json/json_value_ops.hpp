#pragma once
// Comparing, hashing and describing boost::json values as JSON Schema sees them:
// numbers by value (1 equals 1.0), objects regardless of member order.

#include <boost/json/value.hpp>

#include <cstddef>
#include <string>

namespace forma::json_detail {

/// Whether v is a number with no fractional part (JSON Schema's "integer").
bool is_integral(const boost::json::value& v) noexcept;

/// -1, 0 or 1 as number a is less than, equal to or greater than number b, exactly.
int compare_numbers(const boost::json::value& a, const boost::json::value& b) noexcept;

/// JSON Schema equality. Recurses as deep as the shallower of the two values.
bool json_equal(const boost::json::value& a, const boost::json::value& b) noexcept;

/// A hash consistent with json_equal. Recurses as deep as v.
std::size_t json_hash(const boost::json::value& v) noexcept;

/// A number as JSON text, shortest form: `150`, `0.5`.
std::string number_text(const boost::json::value& v);

/// A value for an error message: `string "x"`, `number 1.5`, `object`, `true`, `null`.
std::string describe_value(const boost::json::value& v);

} // namespace forma::json_detail
