// The rich described types that fuzz_from_json and fuzz_partial_reader read:
// test/json's types (nested structs, containers, maps, enums, variants, optionals,
// recursion, constraints) and a document that holds them all.
#pragma once

#include "json/test_types.hpp"

#include <boost/describe.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace forma_fuzz {

using namespace test_types;

/// Every kind of member at once; most are optional so that small inputs get far.
struct document {
    person who;
    std::optional<widths> numbers;
    std::optional<containers> lists;
    std::vector<reading> readings;
    std::optional<drawing> picture;
    std::optional<employee> staff;
    std::optional<org_chart> org;
    std::optional<list_node> chain;
    std::optional<constrained> rules;
    std::optional<wide> record;
    bool operator==(const document&) const = default;
};
BOOST_DESCRIBE_STRUCT(document, (),
                      (who, numbers, lists, readings, picture, staff, org, chain, rules, record))

/** Calls `f(type_tag<T>{})` for the root type chosen by `selector` (its low 3 bits):
    the whole document, or one of its parts, so that short inputs reach each reader.
*/
template <class T>
struct type_tag {
    using type = T;
};

template <class F>
void with_root_type(std::uint8_t selector, F&& f) {
    switch (selector & 7) {
    case 0:
        return f(type_tag<document>{});
    case 1:
        return f(type_tag<person>{});
    case 2:
        return f(type_tag<widths>{});
    case 3:
        return f(type_tag<containers>{});
    case 4:
        return f(type_tag<drawing>{});
    case 5:
        return f(type_tag<constrained>{});
    case 6:
        return f(type_tag<tree>{});
    default:
        return f(type_tag<list_node>{});
    }
}

/// parse_options from the config byte: bit 3 rejects unknown members, bit 4 picks a small
/// max_depth.
inline forma::parse_options options_from(std::uint8_t config) {
    forma::parse_options options;
    options.reject_unknown_members = (config & 8) != 0;
    if (config & 16) options.max_depth = 1 + ((config >> 5) & 7);
    return options;
}

} // namespace forma_fuzz
