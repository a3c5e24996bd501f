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

    String constraints (`min_length`, `max_length`, `pattern`, `format`) and
    number constraints (`minimum` ... `exclusive_maximum`) apply to the member's
    value, or to each element when the member is an array; `min_items` and
    `max_items` apply to an array member itself.
*/
struct field_info {
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
            (age, .minimum = 0, .maximum = 150))

    A misspelled member, or one the describe macro does not list, does not compile.
*/
#define FORMA_DESCRIBE_FIELDS(T, ...)                                                              \
    constexpr auto forma_describe_fields(T const*) {                                               \
        return ::forma::reflect::detail::make_field_list<T>(                                       \
            FORMA_PP_FOR_EACH(FORMA_DETAIL_FIELD_ENTRY, T, __VA_ARGS__));                          \
    }                                                                                              \
    static_assert(::forma::reflect::detail::fields_are_described<T>(),                             \
                  "FORMA_DESCRIBE_FIELDS(" #T ", ...) names a member twice or one that its "      \
                  "describe macro does not list")

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
