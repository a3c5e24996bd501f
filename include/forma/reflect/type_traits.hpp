#pragma once

#include <boost/describe/enumerators.hpp>
#include <boost/describe/members.hpp>

#include <array>
#include <cstddef>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <variant>
#include <vector>

/// Classification of the C++ types that forma maps to JSON.
namespace forma::reflect {

template <class T>
inline constexpr bool is_described_struct_v =
    std::is_class_v<T> && boost::describe::has_describe_members<T>::value;

template <class T>
inline constexpr bool is_described_enum_v =
    std::is_enum_v<T> && boost::describe::has_describe_enumerators<T>::value;

/// Every integer type except bool and the character types (which are text, not numbers).
template <class T>
inline constexpr bool is_integer_v =
    std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char> &&
    !std::is_same_v<T, wchar_t> && !std::is_same_v<T, char8_t> && !std::is_same_v<T, char16_t> &&
    !std::is_same_v<T, char32_t>;

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
inline constexpr bool is_optional_v = is_optional<T>::value;

template <class T>
struct is_unique_ptr : std::false_type {};
template <class T>
struct is_unique_ptr<std::unique_ptr<T>> : std::true_type {};
template <class T>
inline constexpr bool is_unique_ptr_v = is_unique_ptr<T>::value;

/// A member that may be null in JSON and absent from an object: optional and unique_ptr.
template <class T>
inline constexpr bool is_nullable_v = is_optional_v<T> || is_unique_ptr_v<T>;

/// Growable sequences read element by element: vector, list, deque.
template <class T>
struct is_sequence : std::false_type {};
template <class T, class A>
struct is_sequence<std::vector<T, A>> : std::true_type {};
template <class T, class A>
struct is_sequence<std::list<T, A>> : std::true_type {};
template <class T, class A>
struct is_sequence<std::deque<T, A>> : std::true_type {};
template <class T>
inline constexpr bool is_sequence_v = is_sequence<T>::value;

template <class T>
struct is_std_vector : std::false_type {};
template <class T, class A>
struct is_std_vector<std::vector<T, A>> : std::true_type {};
template <class T>
inline constexpr bool is_std_vector_v = is_std_vector<T>::value;

template <class T>
struct is_std_array : std::false_type {};
template <class T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};
template <class T>
inline constexpr bool is_std_array_v = is_std_array<T>::value;

/// Maps keyed by std::string: JSON objects with arbitrary member names.
template <class T>
struct is_string_map : std::false_type {};
template <class V, class C, class A>
struct is_string_map<std::map<std::string, V, C, A>> : std::true_type {};
template <class V, class H, class E, class A>
struct is_string_map<std::unordered_map<std::string, V, H, E, A>> : std::true_type {};
template <class T>
inline constexpr bool is_string_map_v = is_string_map<T>::value;

template <class T>
struct is_variant : std::false_type {};
template <class... Ts>
struct is_variant<std::variant<Ts...>> : std::true_type {};
template <class T>
inline constexpr bool is_variant_v = is_variant<T>::value;

/// The element type of a nullable, sequence, array or the value type of a map.
template <class T>
using element_t = typename T::value_type;
template <class T>
struct nullable_element;
template <class T>
struct nullable_element<std::optional<T>> {
    using type = T;
};
template <class T>
struct nullable_element<std::unique_ptr<T>> {
    using type = T;
};
template <class T>
using nullable_element_t = typename nullable_element<T>::type;

/// Described members of a struct, its public bases' members included.
template <class T>
using members_of = boost::describe::describe_members<
    T, boost::describe::mod_public | boost::describe::mod_inherited>;

/// The class that declares a data member, from the member pointer's type.
template <class P>
struct member_class;
template <class M, class C>
struct member_class<M C::*> {
    using type = C;
};
template <class P>
using member_class_t = typename member_class<std::remove_cv_t<P>>::type;

template <class P>
struct member_type;
template <class M, class C>
struct member_type<M C::*> {
    using type = M;
};
template <class P>
using member_type_t = typename member_type<std::remove_cv_t<P>>::type;

} // namespace forma::reflect
