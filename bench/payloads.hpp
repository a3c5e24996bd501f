#pragma once

#include "catalog_types.hpp"

#include <cstddef>
#include <string>

namespace forma_bench {

/// Spare capacity every payload's text keeps past its end: simdjson reads up to
/// SIMDJSON_PADDING (64 in 3.x) bytes beyond the input, and accepts a std::string
/// whose capacity covers them instead of copying it into a padded_string.
inline constexpr std::size_t input_padding = 64;

/// A payload: the JSON text and the value it encodes, generated together.
template <class T>
struct payload {
    T value;
    std::string json; // capacity() >= size() + input_padding
};

/// One person object, every member present, a few non-ASCII letters.
payload<person> make_person_payload();

/// A JSON array of products of at least `min_bytes` bytes, always the same for a
/// given size (fixed seed): nested objects, escapes, non-ASCII UTF-8 (raw and as
/// \u escapes), doubles, enums, optionals both null and absent.
payload<catalog> make_catalog_payload(std::size_t min_bytes = 100 * 1024);

} // namespace forma_bench
