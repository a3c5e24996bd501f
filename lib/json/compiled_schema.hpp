#pragma once
// A JSON Schema compiled for schema_validator: one node of checks per subschema,
// subschemas referred to by index so that `$ref` cycles are plain indices. make_instance
// walks the same nodes, so that both read the keywords alike.

#include "ecma_pattern.hpp"

#include <forma/json/schema_validator.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace forma {

namespace json_detail {

using node_id = std::size_t;

/// JSON Schema's primitive types, as bits of a set.
enum type_bit : unsigned {
    type_null = 1,
    type_boolean = 2,
    type_object = 4,
    type_array = 8,
    type_number = 16,
    type_string = 32,
    type_integer = 64,
};

/// The checks of one subschema. Absent keywords are empty / nullopt / null.
struct schema_node {
    std::string location;                 // JSON Pointer of this subschema in the schema
    std::optional<bool> constant_verdict; // `true` / `false` schemas

    unsigned types = 0; // 0: no `type` keyword
    std::optional<node_id> ref;
    const boost::json::value* const_value = nullptr;
    const boost::json::array* enum_values = nullptr;
    std::vector<node_id> all_of, any_of, one_of;
    std::optional<node_id> not_schema, if_schema, then_schema, else_schema;

    const boost::json::value* minimum = nullptr;
    const boost::json::value* maximum = nullptr;
    const boost::json::value* exclusive_minimum = nullptr;
    const boost::json::value* exclusive_maximum = nullptr;
    const boost::json::value* multiple_of = nullptr;

    std::optional<std::size_t> min_length, max_length;
    std::optional<compiled_pattern> pattern;
    std::string format; // only formats forma checks; others are annotations

    std::vector<node_id> prefix_items;
    std::optional<node_id> items, contains;
    std::optional<std::size_t> min_items, max_items, min_contains, max_contains;
    bool unique_items = false;

    std::map<std::string, node_id, std::less<>> properties;
    std::vector<std::string_view> property_order; // the names as written: the map sorts them
    std::vector<std::pair<compiled_pattern, node_id>> pattern_properties;
    std::optional<node_id> additional_properties, property_names;
    std::vector<std::string> required;
    std::optional<std::size_t> min_properties, max_properties;
    std::vector<std::pair<std::string, std::vector<std::string>>> dependent_required;
    std::vector<std::pair<std::string, node_id>> dependent_schemas;

    /// Subschemas applied to the same instance value ($ref, allOf, ...), with the keyword's
    /// location: a cycle among these would never end.
    std::vector<std::pair<node_id, std::string>> in_place;
};

class compiled_schema {
public:
    compiled_schema(boost::json::value schema, const schema_validator_options& options);

    const boost::json::value& schema() const noexcept { return schema_; }
    const schema_node& node(node_id id) const { return nodes_[id]; }
    /// The node of the subschema at `location` (a JSON Pointer), or null.
    const schema_node* find_node(const std::string& location) const;
    /// Whether the failure at `schema_path` rejects every value: a `false` schema.
    bool rejects_everything(const std::string& schema_path) const;
    node_id root() const noexcept { return 0; }
    /// How many nodes there are: their ids run from 0 to size() - 1.
    std::size_t size() const noexcept { return nodes_.size(); }
    const schema_validator_options& options() const noexcept { return options_; }
    /// How deep validation may recurse through nested and referenced subschemas.
    std::size_t max_frames() const noexcept { return 8 * options_.max_depth + 16; }

private:
    friend class schema_compiler;
    boost::json::value schema_;     // nodes point into it: never modified
    std::deque<schema_node> nodes_; // a deque: references stay valid as it grows
    std::unordered_map<std::string, node_id> by_location_;
    schema_validator_options options_;
};

} // namespace json_detail
} // namespace forma
