#include "json_value_ops.hpp"

#include <forma/json/detail/reader.hpp>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>

namespace forma::json_detail {
namespace {

// long double holds every int64, uint64 and double exactly on x86-64 and AArch64 Linux,
// so one comparison serves all pairs of number kinds.
long double exact(const boost::json::value& v) noexcept {
    if (v.is_int64()) return static_cast<long double>(v.get_int64());
    if (v.is_uint64()) return static_cast<long double>(v.get_uint64());
    return static_cast<long double>(v.get_double());
}

std::size_t mix(std::size_t seed, std::size_t h) noexcept {
    return seed ^ (h + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

} // namespace

bool is_integral(const boost::json::value& v) noexcept {
    if (v.is_int64() || v.is_uint64()) return true;
    if (!v.is_double()) return false;
    const double d = v.get_double();
    return std::isfinite(d) && std::trunc(d) == d;
}

int compare_numbers(const boost::json::value& a, const boost::json::value& b) noexcept {
    if (a.is_int64() && b.is_int64())
        return a.get_int64() < b.get_int64() ? -1 : a.get_int64() > b.get_int64();
    const long double x = exact(a), y = exact(b);
    return x < y ? -1 : x > y;
}

bool json_equal(const boost::json::value& a, const boost::json::value& b) noexcept {
    if (a.is_number() && b.is_number()) return compare_numbers(a, b) == 0;
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
    case boost::json::kind::array: {
        const auto &x = a.get_array(), &y = b.get_array();
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!json_equal(x[i], y[i])) return false;
        return true;
    }
    case boost::json::kind::object: {
        const auto &x = a.get_object(), &y = b.get_object();
        if (x.size() != y.size()) return false;
        for (const auto& member : x) {
            const auto* other = y.if_contains(member.key());
            if (!other || !json_equal(member.value(), *other)) return false;
        }
        return true;
    }
    case boost::json::kind::string:
        return a.get_string() == b.get_string();
    case boost::json::kind::bool_:
        return a.get_bool() == b.get_bool();
    default:
        return true; // null
    }
}

std::size_t json_hash(const boost::json::value& v) noexcept {
    switch (v.kind()) {
    case boost::json::kind::array: {
        std::size_t h = 0x51;
        for (const auto& item : v.get_array())
            h = mix(h, json_hash(item));
        return h;
    }
    case boost::json::kind::object: {
        std::size_t h = 0x0b; // members in any order: a commutative sum
        for (const auto& member : v.get_object())
            h += mix(std::hash<std::string_view>{}(member.key()), json_hash(member.value()));
        return h;
    }
    case boost::json::kind::string:
        return std::hash<std::string_view>{}(v.get_string());
    case boost::json::kind::bool_:
        return v.get_bool() ? 0x71 : 0x72;
    case boost::json::kind::null:
        return 0x73;
    default:
        break;
    }
    // Equal numbers of different kinds hash alike: integral values as int64 when they fit.
    const long double x = exact(v);
    if (x == std::trunc(x) && std::fabs(x) < 9.2e18L)
        return std::hash<std::int64_t>{}(static_cast<std::int64_t>(x));
    return std::hash<double>{}(static_cast<double>(x));
}

std::string number_text(const boost::json::value& v) {
    if (v.is_int64()) return std::to_string(v.get_int64());
    if (v.is_uint64()) return std::to_string(v.get_uint64());
    std::array<char, 32> buf{};
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v.get_double());
    return std::string(buf.data(), r.ptr);
}

std::string describe_value(const boost::json::value& v) {
    switch (v.kind()) {
    case boost::json::kind::string:
        return "string " + quoted_excerpt(v.get_string());
    case boost::json::kind::object:
        return "object";
    case boost::json::kind::array:
        return "array";
    case boost::json::kind::bool_:
        return v.get_bool() ? "true" : "false";
    case boost::json::kind::null:
        return "null";
    default:
        return "number " + number_text(v);
    }
}

} // namespace forma::json_detail
