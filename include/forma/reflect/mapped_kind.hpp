#pragma once

#include <forma/reflect/type_traits.hpp>

#include <string_view>
#include <type_traits>
#include <variant>

namespace boost::json {
class value;
} // namespace boost::json

namespace forma::reflect {

/** The kind of a C++ type that forma maps to JSON. Every mapped type has exactly one,
    decided here once (mapped_kind_v); the reader, the writer, the schema builder and
    partial<T> each dispatch on it instead of testing the traits again.
*/
enum class mapped_kind {
    boolean,          // bool
    integer,          // every integer type but bool and the character types
    number,           // float, double, long double
    string,           // std::string
    null,             // std::monostate
    enumeration,      // a described enum, as the string of its enumerator's name
    nullable,         // std::optional, std::unique_ptr
    sequence,         // std::vector, std::list, std::deque
    fixed_array,      // std::array
    string_map,       // std::map and std::unordered_map keyed by std::string
    variant,          // std::variant of mapped types
    described_struct, // a struct with BOOST_DESCRIBE_STRUCT
    json_value,       // boost::json::value: any JSON value, kept as it came
    unmapped,         // anything else: a compile-time error where it is used
};

namespace detail {
template <class T>
constexpr mapped_kind kind_of() noexcept {
    if constexpr (std::is_same_v<T, bool>) return mapped_kind::boolean;
    else if constexpr (std::is_same_v<T, boost::json::value>) return mapped_kind::json_value;
    else if constexpr (is_integer_v<T>) return mapped_kind::integer;
    else if constexpr (std::is_floating_point_v<T>) return mapped_kind::number;
    else if constexpr (std::is_same_v<T, std::string>) return mapped_kind::string;
    else if constexpr (std::is_same_v<T, std::monostate>) return mapped_kind::null;
    else if constexpr (is_described_enum_v<T>) return mapped_kind::enumeration;
    else if constexpr (is_nullable_v<T>) return mapped_kind::nullable;
    else if constexpr (is_sequence_v<T>) return mapped_kind::sequence;
    else if constexpr (is_std_array_v<T>) return mapped_kind::fixed_array;
    else if constexpr (is_string_map_v<T>) return mapped_kind::string_map;
    else if constexpr (is_variant_v<T>) return mapped_kind::variant;
    else if constexpr (is_described_struct_v<T>) return mapped_kind::described_struct;
    else return mapped_kind::unmapped;
}
} // namespace detail

template <class T>
inline constexpr mapped_kind mapped_kind_v = detail::kind_of<T>();

/// True for every type forma can map to JSON and back (its members, elements and
/// alternatives are checked where they are read or written).
template <class T>
inline constexpr bool is_json_mappable_v = mapped_kind_v<T> != mapped_kind::unmapped;
template <class T>
struct is_json_mappable : std::bool_constant<is_json_mappable_v<T>> {};

/// Kinds written as a JSON array.
constexpr bool is_array_kind(mapped_kind k) noexcept {
    return k == mapped_kind::sequence || k == mapped_kind::fixed_array;
}

/// Kinds whose values are JSON numbers.
constexpr bool is_number_kind(mapped_kind k) noexcept {
    return k == mapped_kind::integer || k == mapped_kind::number;
}

/** The JSON Schema type of a kind's values: "boolean", "integer", "number", "string",
    "null", "array" or "object"; empty for nullable and variant, whose type is their
    alternatives', and for json_value, which has every type.
*/
constexpr std::string_view json_type_name(mapped_kind k) noexcept {
    switch (k) {
    case mapped_kind::boolean: return "boolean";
    case mapped_kind::integer: return "integer";
    case mapped_kind::number: return "number";
    case mapped_kind::string:
    case mapped_kind::enumeration: return "string";
    case mapped_kind::null: return "null";
    case mapped_kind::sequence:
    case mapped_kind::fixed_array: return "array";
    case mapped_kind::string_map:
    case mapped_kind::described_struct: return "object";
    default: return {};
    }
}

} // namespace forma::reflect
