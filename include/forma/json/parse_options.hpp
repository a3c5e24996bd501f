#pragma once

#include <cstddef>

namespace forma {

/// How from_json reads a document.
struct parse_options {
    /// Members the target type does not have are skipped (still checked to be valid JSON)
    /// unless this is set, in which case they are an error.
    bool reject_unknown_members = false;
    /// Arrays and objects nested deeper than this are an error, not a stack overflow.
    std::size_t max_depth = 64;
    /// A string value or member name longer than this many bytes (after unescaping) is an
    /// error: it bounds what one field of untrusted text can make the reader allocate.
    std::size_t max_string_length = 16 * 1024 * 1024;
};

} // namespace forma
