#pragma once

#include <forma/reflect/field_info.hpp>
#include <forma/reflect/type_traits.hpp>

#include <string>
#include <string_view>

namespace forma {
namespace reflect {
namespace detail {

template <class T>
constexpr std::string_view pretty_function() {
    return __PRETTY_FUNCTION__;
}

// Extracts "T = ..." from GCC's and Clang's __PRETTY_FUNCTION__.
constexpr std::string_view type_from_pretty(std::string_view pretty) {
    const auto start = pretty.find("T = ") + 4;
    int depth = 0;
    for (auto i = start; i < pretty.size(); ++i) {
        const char c = pretty[i];
        if (c == '<' || c == '(' || c == '[') ++depth;
        if ((c == ';' || c == ']') && depth == 0) return pretty.substr(start, i - start);
        if (c == '>' || c == ')' || c == ']') --depth;
    }
    return pretty.substr(start);
}

/// Turns any text into a name matching ^[A-Za-z0-9_-]{1,64}$.
std::string sanitize_schema_name(std::string_view text);

/// The last component of a qualified C++ name: "app::v1::person<int>" -> "person<int>".
std::string_view unqualified(std::string_view name);

template <class T>
std::string derive_schema_name();

template <class... Ts>
std::string join_schema_names(std::string_view separator) {
    std::string out;
    ((out += (out.empty() ? "" : separator), out += derive_schema_name<Ts>()), ...);
    return out;
}

template <class V>
struct variant_names;
template <class... Ts>
struct variant_names<std::variant<Ts...>> {
    static std::string get() { return join_schema_names<Ts...>("_or_"); }
};

template <class T>
std::string derive_schema_name() {
    constexpr type_info info = type_info_of<T>();
    if constexpr (!info.name.empty())
        return std::string(info.name);
    else if constexpr (std::is_same_v<T, bool>)
        return "boolean";
    else if constexpr (is_integer_v<T>)
        return "integer";
    else if constexpr (std::is_floating_point_v<T>)
        return "number";
    else if constexpr (std::is_same_v<T, std::string>)
        return "string";
    else if constexpr (std::is_same_v<T, std::monostate>)
        return "null";
    else if constexpr (is_nullable_v<T>)
        return "optional_" + derive_schema_name<nullable_element_t<T>>();
    else if constexpr (is_sequence_v<T> || is_std_array_v<T>)
        return derive_schema_name<element_t<T>>() + "_list";
    else if constexpr (is_string_map_v<T>)
        return derive_schema_name<typename T::mapped_type>() + "_map";
    else if constexpr (is_variant_v<T>)
        return variant_names<T>::get();
    else
        return std::string(unqualified(type_from_pretty(pretty_function<T>())));
}

} // namespace detail

/// The C++ name of `T` as the compiler spells it, e.g. "app::person".
template <class T>
constexpr std::string_view type_name() noexcept {
    return detail::type_from_pretty(detail::pretty_function<T>());
}

} // namespace reflect

/** A name for `T`'s schema that matches `^[A-Za-z0-9_-]{1,64}$`, as OpenAI's
    `response_format.json_schema.name` requires.

    It is the `.name` given with FORMA_DESCRIBE_TYPE, else derived from the
    type: "person" for `app::person`, "person_list" for `std::vector<person>`,
    "integer", "optional_string", "a_or_b" for `std::variant<a, b>`.
    Computed once per type.
*/
template <class T>
std::string_view schema_name() {
    static const std::string name =
        reflect::detail::sanitize_schema_name(reflect::detail::derive_schema_name<T>());
    return name;
}

} // namespace forma
