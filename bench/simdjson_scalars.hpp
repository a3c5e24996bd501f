#pragma once

// The scalar conversions every simdjson on-demand reader here shares (read_simdjson.cpp,
// corpus_simdjson.cpp): a value converted in place, a range error thrown as forma reports one.

#include <simdjson.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

namespace forma_bench::simdjson_scalars {

namespace od = simdjson::ondemand;

inline void read(od::value v, std::string& out) { out.assign(std::string_view(v.get_string())); }
inline void read(od::value v, double& out) { out = v.get_double(); }
inline void read(od::value v, bool& out) { out = v.get_bool(); }
inline void read(od::value v, std::int64_t& out) { out = v.get_int64(); }
inline void read(od::value v, std::uint64_t& out) { out = v.get_uint64(); }

inline void read(od::value v, int& out) {
    const std::int64_t i = v.get_int64();
    if (i < std::numeric_limits<int>::min() || i > std::numeric_limits<int>::max())
        throw std::runtime_error("integer out of range for int");
    out = static_cast<int>(i);
}

inline void read(od::value v, std::uint32_t& out) {
    const std::uint64_t u = v.get_uint64();
    if (u > std::numeric_limits<std::uint32_t>::max()) throw std::runtime_error("integer out of range for uint32_t");
    out = static_cast<std::uint32_t>(u);
}

/// A member that is null in every object of a document.
inline void read(od::value v, std::monostate&) {
    if (!v.is_null()) throw std::runtime_error("expected null");
}

} // namespace forma_bench::simdjson_scalars
