#pragma once

#include <forma/reflect/detail/preprocessor.hpp>
#include <forma/reflect/type_traits.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace forma {

/** What a struct member means and which values it accepts.

    Declared next to the describe macro with `FORMA_DESCRIBE_FIELDS`; it becomes
    JSON Schema keywords and is checked by `from_json`. Set members with
    designated initializers, in this declaration order.

    `json_name` is the member's name in JSON when that cannot be its C++ name (twitter's
    "protected", "@type", "first-name"): from_json, to_json, the partial reader, schemas and
    error paths all use it. It may not hold a quote, a backslash or a control character, must
    be UTF-8, and two members may not share a JSON name (each does not compile).

    String constraints (`min_length`, `max_length`, `pattern`, `format`) and
    number constraints (`minimum` ... `exclusive_maximum`) apply to the member's
    value, or to each element when the member is an array; `min_items` and
    `max_items` apply to an array member itself.
*/
struct field_info {
    std::string_view json_name{}; ///< the member's name in JSON; its C++ name when empty
    std::string_view description{};
    std::optional<double> minimum{};
    std::optional<double> maximum{};
    std::optional<double> exclusive_minimum{};
    std::optional<double> exclusive_maximum{};
    std::optional<std::size_t> min_length{}; ///< in Unicode code points
    std::optional<std::size_t> max_length{}; ///< in Unicode code points
    std::optional<std::size_t> min_items{};
    std::optional<std::size_t> max_items{};
    std::string_view pattern{}; ///< ECMA-262 regular expression, searched (not anchored) over code points
    std::string_view format{};  ///< JSON Schema format: date-time, date, time, email, uuid, ...

    constexpr bool has_number_constraints() const noexcept {
        return minimum || maximum || exclusive_minimum || exclusive_maximum;
    }
    constexpr bool has_string_constraints() const noexcept {
        return min_length || max_length || !pattern.empty() || !format.empty();
    }
    constexpr bool has_items_constraints() const noexcept { return min_items || max_items; }
};

/// What a described type is called in schemas and what it means.
struct type_info {
    std::string_view name{}; ///< overrides schema_name<T>(); must match ^[A-Za-z0-9_-]{1,64}$
    std::string_view description{};
};

namespace reflect {

struct field_entry {
    std::string_view name;
    field_info info;
};

namespace detail {

template <class T, std::size_t N>
struct field_list {
    using owner = T;
    std::array<field_entry, N> entries;
};

template <class T, class... Entries>
constexpr field_list<T, sizeof...(Entries)> make_field_list(Entries... entries) {
    return {{entries...}};
}

template <class T>
struct owned_type_info {
    using owner = T;
    type_info info;
};

// Found by argument-dependent lookup in the namespace of the described type.
void forma_describe_fields() = delete;
void forma_describe_type() = delete;

template <class T>
concept has_field_list = requires {
    { forma_describe_fields(static_cast<T const*>(nullptr)) };
} && std::is_same_v<typename decltype(forma_describe_fields(static_cast<T const*>(nullptr)))::owner, T>;

template <class T>
concept has_type_info = requires {
    { forma_describe_type(static_cast<T const*>(nullptr)) };
} && std::is_same_v<typename decltype(forma_describe_type(static_cast<T const*>(nullptr)))::owner, T>;

template <template <class...> class L, class... D>
constexpr std::array<std::string_view, sizeof...(D)> names_of(L<D...>) {
    return {D::name...};
}

template <class T>
constexpr auto member_names() {
    return names_of(members_of<T>{});
}

template <class T>
constexpr bool fields_are_described() {
    constexpr auto list = forma_describe_fields(static_cast<T const*>(nullptr));
    constexpr auto names = member_names<T>();
    for (std::size_t i = 0; i < list.entries.size(); ++i) {
        bool found = false;
        for (std::string_view n : names) found = found || n == list.entries[i].name;
        if (!found) return false;
        for (std::size_t j = 0; j < i; ++j)
            if (list.entries[j].name == list.entries[i].name) return false;
    }
    return true;
}

constexpr bool is_valid_schema_name(std::string_view name) {
    if (name.empty() || name.size() > 64) return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return false;
    return true;
}

} // namespace detail

/** The field_info of member `D` (a Boost.Describe member descriptor) as seen
    from struct `T`: declared for `T` first, else for the class that declares
    the member (a base), else empty.
*/
template <class T, class D>
constexpr field_info field_info_of() {
    using declaring = member_class_t<decltype(D::pointer)>;
    struct holder {
        static constexpr field_info get() {
            if constexpr (detail::has_field_list<T>) {
                constexpr auto list = forma_describe_fields(static_cast<T const*>(nullptr));
                for (const field_entry& e : list.entries)
                    if (e.name == D::name) return e.info;
            }
            if constexpr (!std::is_same_v<declaring, T> && detail::has_field_list<declaring>) {
                constexpr auto list = forma_describe_fields(static_cast<declaring const*>(nullptr));
                for (const field_entry& e : list.entries)
                    if (e.name == D::name) return e.info;
            }
            return {};
        }
    };
    return holder::get();
}

/// The name member `D` of `T` has in JSON: its field_info's `json_name`, else its C++ name.
template <class T, class D>
constexpr std::string_view json_name_of() {
    constexpr field_info info = field_info_of<T, D>();
    return info.json_name.empty() ? std::string_view(D::name) : info.json_name;
}

namespace detail {

template <class T, template <class...> class L, class... D>
constexpr std::array<std::string_view, sizeof...(D)> json_names_of(L<D...>) {
    return {json_name_of<T, D>()...};
}

/// The JSON names of T's members, in declaration order.
template <class T>
constexpr auto json_names() {
    return json_names_of<T>(members_of<T>{});
}

/// Member I of T's JSON name as JSON text has it, a compile-time constant: in quotes, after a
/// ',' if `comma`, before a ':' if `colon` (the reader compares it with the input as it is, the
/// writer appends it whole).
template <class T, std::size_t I, bool comma = false, bool colon = false>
struct quoted_json_name {
    static constexpr std::string_view name = json_names<T>()[I];
    static constexpr auto text = [] {
        std::array<char, name.size() + 2 + comma + colon> out{};
        std::size_t at = 0;
        if (comma) out[at++] = ',';
        out[at++] = '"';
        for (const char c : name) out[at++] = c;
        out[at++] = '"';
        if (colon) out[at] = ':';
        return out;
    }();
};

/// Whether `name` goes between JSON's quotes as it is: valid UTF-8, no quote, backslash or
/// control character (the writer emits member names without escaping them).
constexpr bool is_plain_json_name(std::string_view name) {
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(name[i]); };
    for (std::size_t i = 0; i < name.size();) {
        const unsigned c = byte(i);
        if (c == '"' || c == '\\' || c < 0x20) return false;
        const std::size_t n = c < 0x80 ? 1 : c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
        if (n == 0 || i + n > name.size()) return false;
        for (std::size_t k = 1; k < n; ++k)
            if ((byte(i + k) & 0xC0) != 0x80) return false;
        // RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF.
        if ((c == 0xE0 && byte(i + 1) < 0xA0) || (c == 0xED && byte(i + 1) >= 0xA0) ||
            (c == 0xF0 && byte(i + 1) < 0x90) || (c == 0xF4 && byte(i + 1) >= 0x90))
            return false;
        i += n;
    }
    return true;
}

template <class T>
constexpr bool json_names_are_usable() {
    constexpr auto names = json_names<T>();
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (!is_plain_json_name(names[i])) return false;
        for (std::size_t j = 0; j < i; ++j)
            if (names[j] == names[i]) return false;
    }
    return true;
}

} // namespace detail

/// The type_info declared for `T` with FORMA_DESCRIBE_TYPE, or an empty one.
template <class T>
constexpr type_info type_info_of() {
    if constexpr (detail::has_type_info<T>)
        return forma_describe_type(static_cast<T const*>(nullptr)).info;
    else
        return {};
}

} // namespace reflect
} // namespace forma

#define FORMA_DETAIL_FIELD_ENTRY(T, entry) FORMA_DETAIL_FIELD_ENTRY_I(T, FORMA_PP_UNPAREN entry)
#define FORMA_DETAIL_FIELD_ENTRY_I(T, ...) FORMA_DETAIL_FIELD_ENTRY_II(T, __VA_ARGS__)
#define FORMA_DETAIL_FIELD_ENTRY_II(T, member, ...)                                                \
    ::forma::reflect::field_entry {                                                                \
        (static_cast<void>(&T::member), #member), ::forma::field_info { __VA_ARGS__ }               \
    }

/** Declares descriptions and constraints of the members of a described struct.

    Place it at namespace scope after BOOST_DESCRIBE_STRUCT, in the struct's namespace:

        FORMA_DESCRIBE_FIELDS(person,
            (name, .description = "Full name", .min_length = 1),
            (age, .minimum = 0, .maximum = 150),
            (is_protected, .json_name = "protected"))

    A misspelled member, or one the describe macro does not list, does not compile.
*/
#define FORMA_DESCRIBE_FIELDS(T, ...)                                                              \
    constexpr auto forma_describe_fields(T const*) {                                               \
        return ::forma::reflect::detail::make_field_list<T>(                                       \
            FORMA_PP_FOR_EACH(FORMA_DETAIL_FIELD_ENTRY, T, __VA_ARGS__));                          \
    }                                                                                              \
    static_assert(::forma::reflect::detail::fields_are_described<T>(),                             \
                  "FORMA_DESCRIBE_FIELDS(" #T ", ...) names a member twice or one that its "      \
                  "describe macro does not list");                                         \
    static_assert(::forma::reflect::detail::json_names_are_usable<T>(),                            \
                  "FORMA_DESCRIBE_FIELDS(" #T ", ...) gives two members one JSON name, or a "       \
                  "json_name that is not UTF-8 or holds a quote, a backslash or a control character")

/** Declares the schema name and description of a described struct or enum:

        FORMA_DESCRIBE_TYPE(person, .name = "person", .description = "A person in the text");
*/
#define FORMA_DESCRIBE_TYPE(T, ...)                                                                \
    constexpr auto forma_describe_type(T const*) {                                                 \
        return ::forma::reflect::detail::owned_type_info<T>{::forma::type_info{__VA_ARGS__}};      \
    }                                                                                              \
    static_assert(forma_describe_type(static_cast<T const*>(nullptr)).info.name.empty() ||         \
                      ::forma::reflect::detail::is_valid_schema_name(                              \
                          forma_describe_type(static_cast<T const*>(nullptr)).info.name),          \
                  "FORMA_DESCRIBE_TYPE(" #T ", .name = ...) must match ^[A-Za-z0-9_-]{1,64}$")
