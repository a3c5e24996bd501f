#pragma once

// Boost 1.81 converts a described struct only from an object with exactly its members, so an
// absent optional member fails. This is the same conversion with absent optionals (and
// std::unique_ptrs) left empty and every other member still required, for the Boost.JSON
// readers here (read_boost_json.cpp, corpus_boost_json.cpp).

#include <boost/describe/members.hpp>
#include <boost/json/value_to.hpp>
#include <boost/mp11/algorithm.hpp>

#include <memory>
#include <optional>
#include <string_view>
#include <type_traits>

namespace forma_bench {

template <class T>
constexpr bool is_nullable_v = false;
template <class T>
constexpr bool is_nullable_v<std::optional<T>> = true;
template <class T>
constexpr bool is_nullable_v<std::unique_ptr<T>> = true;

/// `json_name` maps a member's C++ name to its name in JSON.
template <class T, class JsonName>
boost::json::result<T> described_with_absent_optionals(const boost::json::value& jv, JsonName json_name) {
    const boost::json::object* object = jv.if_object();
    if (!object) return boost::json::make_error_code(boost::json::error::not_object);
    T out{};
    boost::system::error_code ec;
    using members = boost::describe::describe_members<T, boost::describe::mod_public>;
    boost::mp11::mp_for_each<members>([&](auto D) {
        if (ec) return;
        using M = std::remove_cvref_t<decltype(out.*D.pointer)>;
        const boost::json::value* member = object->if_contains(json_name(std::string_view(D.name)));
        if (!member) {
            if constexpr (!is_nullable_v<M>) ec = boost::json::make_error_code(boost::json::error::unknown_name);
            return;
        }
        auto converted = boost::json::try_value_to<M>(*member);
        if (!converted) {
            ec = converted.error();
            return;
        }
        out.*D.pointer = std::move(*converted);
    });
    if (ec) return ec;
    return out;
}

template <class T>
boost::json::result<T> described_with_absent_optionals(const boost::json::value& jv) {
    return described_with_absent_optionals<T>(jv, [](std::string_view name) { return name; });
}

} // namespace forma_bench
