#include <forma/json/json_schema.hpp>

#include "test_types.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

using namespace test_types;
using forma::json_schema;
using forma::schema_dialect;
namespace json = boost::json;

namespace {

constexpr forma::schema_options strict{.dialect = schema_dialect::openai_strict};

std::string text(const json::object& o) { return json::serialize(o); }
// Expected documents are written readably; compare them as serialized text, so key order counts.
std::string canonical(std::string_view expected) { return json::serialize(json::parse(expected)); }

} // namespace

TEST(json_schema, person_in_2020_12_has_optional_member_outside_required) {
    EXPECT_EQ(text(json_schema<person>()), canonical(R"({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "age": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647},
            "occupation": {"anyOf": [{"type": "string"}, {"type": "null"}]}
        },
        "required": ["name", "age"],
        "additionalProperties": false
    })"));
}

TEST(json_schema, person_in_strict_dialect_requires_everything_and_has_no_schema_keyword) {
    EXPECT_EQ(text(json_schema<person>(strict)), canonical(R"({
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "age": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647},
            "occupation": {"anyOf": [{"type": "string"}, {"type": "null"}]}
        },
        "required": ["name", "age", "occupation"],
        "additionalProperties": false
    })"));
}

TEST(json_schema, integers_up_to_32_bits_carry_their_range) {
    const auto& p = json_schema<widths>().at("properties").as_object();
    EXPECT_EQ(text(p.at("i8").as_object()), canonical(R"({"type":"integer","minimum":-128,"maximum":127})"));
    EXPECT_EQ(text(p.at("u8").as_object()), canonical(R"({"type":"integer","minimum":0,"maximum":255})"));
    EXPECT_EQ(text(p.at("i16").as_object()), canonical(R"({"type":"integer","minimum":-32768,"maximum":32767})"));
    EXPECT_EQ(text(p.at("u16").as_object()), canonical(R"({"type":"integer","minimum":0,"maximum":65535})"));
    EXPECT_EQ(text(p.at("i32").as_object()), canonical(R"({"type":"integer","minimum":-2147483648,"maximum":2147483647})"));
    EXPECT_EQ(text(p.at("u32").as_object()), canonical(R"({"type":"integer","minimum":0,"maximum":4294967295})"));
    EXPECT_EQ(text(p.at("i64").as_object()), canonical(R"({"type":"integer"})"));
    EXPECT_EQ(text(p.at("u64").as_object()), canonical(R"({"type":"integer","minimum":0})"));
    EXPECT_EQ(text(p.at("f").as_object()), canonical(R"({"type":"number"})"));
    EXPECT_EQ(text(p.at("b").as_object()), canonical(R"({"type":"boolean"})"));
}

TEST(json_schema, containers_map_to_arrays_and_objects) {
    const auto& p = json_schema<containers>().at("properties").as_object();
    EXPECT_EQ(text(p.at("numbers").as_object()), canonical(R"({"type":"array","items":{"type":"integer","minimum":-2147483648,"maximum":2147483647}})"));
    EXPECT_EQ(text(p.at("words").as_object()), canonical(R"({"type":"array","items":{"type":"string"}})"));
    EXPECT_EQ(text(p.at("triple").as_object()),
              canonical(R"({"type":"array","items":{"type":"integer","minimum":-2147483648,"maximum":2147483647},"minItems":3,"maxItems":3})"));
    EXPECT_EQ(text(p.at("counts").as_object()),
              canonical(R"({"type":"object","additionalProperties":{"type":"integer","minimum":-2147483648,"maximum":2147483647}})"));
}

TEST(json_schema, strict_dialect_writes_maps_as_key_value_pairs) {
    const auto& counts = json_schema<containers>(strict).at("properties").at("counts").as_object();
    EXPECT_EQ(text(counts), canonical(R"({
        "type": "array",
        "description": "a map, as an array of key/value pairs",
        "items": {
            "type": "object",
            "properties": {"key": {"type": "string"}, "value": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647}},
            "required": ["key", "value"],
            "additionalProperties": false
        }
    })"));
}

TEST(json_schema, enums_are_string_enums_and_nested_structs_inline) {
    const auto& p = json_schema<reading>().at("properties").as_object();
    EXPECT_EQ(text(p.at("units").as_object()), canonical(R"({"type":"string","enum":["c","f"]})"));
    EXPECT_EQ(text(p.at("where").as_object()), canonical(R"({"anyOf":[{
        "type":"object",
        "properties":{"street":{"type":"string"},"zip":{"type":"string"}},
        "required":["street","zip"],"additionalProperties":false},{"type":"null"}]})"));
}

TEST(json_schema, variants_are_any_of) {
    const auto& p = json_schema<drawing>().at("properties").as_object();
    const auto& items = p.at("shapes").at("items").as_object();
    ASSERT_TRUE(items.contains("anyOf"));
    EXPECT_EQ(items.at("anyOf").as_array().size(), 2u);
    EXPECT_EQ(text(p.at("tag").as_object()),
              canonical(R"({"anyOf":[{"type":"integer","minimum":-2147483648,"maximum":2147483647},{"type":"string"},{"type":"null"}]})"));
}

TEST(json_schema, described_bases_contribute_their_members_first) {
    EXPECT_EQ(text(json_schema<employee>(strict)), canonical(R"({
        "type":"object",
        "properties":{"id":{"type":"string"},"name":{"type":"string"}},
        "required":["id","name"],"additionalProperties":false})"));
}

// Through $defs, never "#", which llama.cpp's schema converter refuses; the root stays an object.
TEST(json_schema, a_recursive_root_refers_to_itself_through_defs) {
    EXPECT_EQ(text(json_schema<tree>(strict)), canonical(R"({
        "type":"object",
        "properties":{"label":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/tree"}}},
        "required":["label","children"],"additionalProperties":false,
        "$defs":{"tree":{
            "type":"object",
            "properties":{"label":{"type":"string"},
                          "children":{"type":"array","items":{"$ref":"#/$defs/tree"}}},
            "required":["label","children"],"additionalProperties":false}}})"));
}

TEST(json_schema, recursion_through_optional_unique_ptr) {
    const auto schema = json_schema<list_node>();
    const auto& next = schema.at("properties").at("next").as_object();
    EXPECT_EQ(text(next), canonical(R"({"anyOf":[{"$ref":"#/$defs/list_node"},{"type":"null"}]})"));
    EXPECT_TRUE(schema.at("$defs").as_object().contains("list_node"));
}

TEST(json_schema, a_recursive_member_goes_to_defs) {
    EXPECT_EQ(text(json_schema<org_chart>(strict)), canonical(R"({
        "type":"object",
        "properties":{"company":{"type":"string"},"root":{"$ref":"#/$defs/tree"}},
        "required":["company","root"],"additionalProperties":false,
        "$defs":{"tree":{
            "type":"object",
            "properties":{"label":{"type":"string"},
                          "children":{"type":"array","items":{"$ref":"#/$defs/tree"}}},
            "required":["label","children"],"additionalProperties":false}}})"));
}

TEST(json_schema, constraints_and_descriptions_in_2020_12) {
    EXPECT_EQ(text(json_schema<constrained>()), canonical(R"({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type":"object",
        "description":"A record with rules",
        "properties":{
            "code":{"type":"string","minLength":3,"maxLength":3,"pattern":"^[A-Z]+$",
                    "description":"Three capital letters"},
            "score":{"type":"integer","minimum":0,"maximum":100},
            "tags":{"type":"array","items":{"type":"string","maxLength":5},"minItems":1,"maxItems":3},
            "ratio":{"anyOf":[{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1},{"type":"null"}]},
            "email":{"type":"string","format":"email"}},
        "required":["code","score","tags","email"],
        "additionalProperties":false})"));
}

TEST(json_schema, strict_dialect_moves_unsupported_keywords_into_the_description) {
    const auto& p = json_schema<constrained>(strict).at("properties").as_object();
    EXPECT_EQ(text(p.at("code").as_object()), canonical(R"j({"type":"string","pattern":"^[A-Z]+$",
        "description":"Three capital letters (minLength: 3, maxLength: 3)"})j"));
    EXPECT_EQ(text(p.at("tags").as_object()), canonical(R"({"type":"array",
        "items":{"type":"string"},"minItems":1,"maxItems":3,"description":"maxLength: 5"})"));
    EXPECT_EQ(p.at("email").at("format"), "email"); // a format strict mode supports stays
}

TEST(json_schema, top_level_non_struct_types) {
    EXPECT_EQ(text(json_schema<int>()),
              canonical(R"({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"integer",
                                   "minimum":-2147483648,"maximum":2147483647})"));
    EXPECT_EQ(text(json_schema<unit>(strict)), canonical(R"({"type":"string","enum":["c","f"]})"));
    const auto& people = json_schema<std::vector<person>>(strict);
    EXPECT_EQ(people.at("type"), "array");
    EXPECT_EQ(people.at("items").at("type"), "object");
    EXPECT_EQ(text(json_schema<std::optional<int>>(strict)),
              canonical(R"({"anyOf":[{"type":"integer","minimum":-2147483648,"maximum":2147483647},{"type":"null"}]})"));
}

TEST(json_schema, is_built_once_and_returned_by_reference) {
    const auto& first = json_schema<person>();
    const auto& second = json_schema<person>();
    EXPECT_EQ(&first, &second);
    EXPECT_NE(&json_schema<person>(strict), &first);
}

TEST(json_schema, an_invalid_dialect_value_is_a_schema_error) {
    EXPECT_THROW(json_schema<person>({.dialect = static_cast<schema_dialect>(7)}), forma::schema_error);
}

TEST(schema_name, is_derived_from_the_type_and_valid) {
    EXPECT_EQ(forma::schema_name<person>(), "person");
    EXPECT_EQ(forma::schema_name<constrained>(), "constrained_record");
    EXPECT_EQ(forma::schema_name<std::vector<person>>(), "person_list");
    EXPECT_EQ(forma::schema_name<std::optional<int>>(), "optional_integer");
    EXPECT_EQ((forma::schema_name<std::variant<shape_circle, shape_square>>()), "shape_circle_or_shape_square");
    EXPECT_EQ((forma::schema_name<std::map<std::string, double>>()), "number_map");
}

TEST(schema_name, sanitizes_and_truncates_to_the_openai_rule) {
    using forma::reflect::detail::sanitize_schema_name;
    EXPECT_EQ(sanitize_schema_name("page<app::item>"), "page_app_item");
    EXPECT_EQ(sanitize_schema_name("::"), "schema");
    EXPECT_EQ(sanitize_schema_name(std::string(100, 'a')).size(), 64u);
    EXPECT_TRUE(forma::reflect::detail::is_valid_schema_name(sanitize_schema_name("a b-c_d")));
}
