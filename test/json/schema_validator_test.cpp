#include <forma/json/schema_validator.hpp>

#include "test_types.hpp"
#include "testing/instance_types.hpp"

#include <forma/json/from_json.hpp>
#include <forma/json/json_schema.hpp>
#include <forma/json/to_json.hpp>
#include <forma/testing/schema_instance.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/mp11/algorithm.hpp>
#include <gtest/gtest.h>

#include "support/numbered.hpp"

#include <functional>
#include <string>

namespace {

namespace json = boost::json;
using forma_test::numbered;
using forma::schema_validator;

// "valid", or what() of the first violation: "at /a: expected string, got number 1".
std::string verdict(std::string_view schema, std::string_view instance) {
    const auto r = schema_validator::from_text(schema).try_validate(json::parse(instance));
    return r ? "valid" : r.error().what();
}

// what() of the schema_error that compiling `schema` throws, or "compiled".
std::string schema_value_failure(const json::value& schema) {
    try {
        schema_validator v(schema);
        return "compiled";
    } catch (const forma::schema_error& e) {
        return e.what();
    }
}
std::string schema_failure(std::string_view schema) {
    return schema_value_failure(json::parse(schema));
}

// `depth` arrays, each holding the next: [[[...]]].
json::value nested_arrays(std::size_t depth) {
    json::value v = json::array{};
    for (std::size_t i = 1; i < depth; ++i) {
        json::array outer;
        outer.push_back(std::move(v)); // not an initializer list, which would copy
        v = std::move(outer);
    }
    return v;
}

std::string zeros_path(std::size_t n) {
    std::string p;
    for (std::size_t i = 0; i < n; ++i)
        p += "/0";
    return p;
}

constexpr forma::schema_options strict{.dialect = forma::schema_dialect::openai_strict};

} // namespace

// ---- keywords, each accepting and rejecting --------------------------------------------

TEST(schema_validator, type_integer_accepts_integral_doubles_as_2020_12_says) {
    EXPECT_EQ(verdict(R"({"type":"integer"})", "1"), "valid");
    EXPECT_EQ(verdict(R"({"type":"integer"})", "1.0"), "valid");
    EXPECT_EQ(verdict(R"({"type":"integer"})", "-0.0"), "valid");
    EXPECT_EQ(verdict(R"({"type":"integer"})", "18446744073709551615"), "valid");
    EXPECT_EQ(verdict(R"({"type":"integer"})", "1.5"), "expected integer, got number 1.5");
    EXPECT_EQ(verdict(R"({"type":"integer"})", R"("1")"), R"(expected integer, got string "1")");
    EXPECT_EQ(verdict(R"({"type":"number"})", "1"), "valid");
    EXPECT_EQ(verdict(R"({"type":"number"})", "true"), "expected number, got true");
}

TEST(schema_validator, type_lists_and_every_kind) {
    EXPECT_EQ(verdict(R"({"type":["string","null"]})", "null"), "valid");
    EXPECT_EQ(verdict(R"({"type":["string","null"]})", "5"),
              "expected string or null, got number 5");
    EXPECT_EQ(verdict(R"({"type":["object","array","boolean"]})", "null"),
              "expected object, array or boolean, got null");
    EXPECT_EQ(verdict(R"({"type":"object"})", "[]"), "expected object, got array");
    EXPECT_EQ(verdict(R"({"type":"array"})", "{}"), "expected array, got object");
    EXPECT_EQ(verdict(R"({"type":"boolean"})", "false"), "valid");
    EXPECT_EQ(verdict(R"({"type":"null"})", "0"), "expected null, got number 0");
}

TEST(schema_validator, properties_required_and_closed_objects) {
    constexpr std::string_view s =
        R"({"type":"object","properties":{"a":{"type":"string"},"b/c":{"type":"integer"}},
                                      "required":["a"],"additionalProperties":false})";
    EXPECT_EQ(verdict(s, R"({"a":"x","b/c":1})"), "valid");
    EXPECT_EQ(verdict(s, R"({})"), R"(missing required member "a")");
    EXPECT_EQ(verdict(s, R"({"a":1})"), "at /a: expected string, got number 1");
    EXPECT_EQ(verdict(s, R"({"a":"x","b/c":"y"})"),
              R"(at /b~1c: expected integer, got string "y")");
    // Like from_json's unknown members: reported at the object, naming the member.
    EXPECT_EQ(verdict(s, R"({"a":"x","z":1})"),
              R"(unknown member "z" (additionalProperties is false))");
}

TEST(schema_validator, additional_properties_as_a_schema_and_pattern_properties) {
    constexpr std::string_view s = R"({"patternProperties":{"^n_":{"type":"number"}},
                                      "additionalProperties":{"type":"string"}})";
    EXPECT_EQ(verdict(s, R"({"n_1":2,"other":"x"})"), "valid");
    EXPECT_EQ(verdict(s, R"({"n_1":"2"})"), R"(at /n_1: expected number, got string "2")");
    EXPECT_EQ(verdict(s, R"({"other":3})"), "at /other: expected string, got number 3");
}

TEST(schema_validator, property_names_and_member_counts_and_dependencies) {
    EXPECT_EQ(verdict(R"({"propertyNames":{"maxLength":2}})", R"({"ab":1})"), "valid");
    EXPECT_EQ(verdict(R"({"propertyNames":{"maxLength":2}})", R"({"abc":1})"),
              R"(member name "abc" is invalid: "abc" is longer than the maximum length 2)");
    EXPECT_EQ(verdict(R"({"minProperties":2})", R"({"a":1})"),
              "object has 1 members, fewer than the minimum 2");
    EXPECT_EQ(verdict(R"({"maxProperties":1})", R"({"a":1,"b":2})"),
              "object has 2 members, more than the maximum 1");
    EXPECT_EQ(verdict(R"({"dependentRequired":{"card":["cvv"]}})", R"({"card":1,"cvv":2})"),
              "valid");
    EXPECT_EQ(verdict(R"({"dependentRequired":{"card":["cvv"]}})", R"({"card":1})"),
              R"(member "card" requires member "cvv")");
    EXPECT_EQ(verdict(R"({"dependentSchemas":{"card":{"required":["cvv"]}}})", R"({"card":1})"),
              R"(missing required member "cvv")");
}

TEST(schema_validator, items_prefix_items_and_counts) {
    constexpr std::string_view s = R"({"prefixItems":[{"type":"string"}],"items":{"type":"integer"},
                                      "minItems":1,"maxItems":3})";
    EXPECT_EQ(verdict(s, R"(["a",1,2])"), "valid");
    EXPECT_EQ(verdict(s, R"(["a","b"])"), R"(at /1: expected integer, got string "b")");
    EXPECT_EQ(verdict(s, R"([])"), "array has 0 items, fewer than the minimum 1");
    EXPECT_EQ(verdict(s, R"(["a",1,2,3])"), "array has 4 items, more than the maximum 3");
    EXPECT_EQ(verdict(R"({"prefixItems":[{}],"items":false})", R"([1])"), "valid");
    EXPECT_EQ(verdict(R"({"prefixItems":[{}],"items":false})", R"([1,2])"),
              "array has 2 items, more than the 1 allowed (items is false)");
}

TEST(schema_validator, unique_items_compares_numbers_by_value_and_objects_by_content) {
    EXPECT_EQ(verdict(R"({"uniqueItems":true})", R"([1,2,"1",[1]])"), "valid");
    EXPECT_EQ(verdict(R"({"uniqueItems":true})", R"([1,2,1.0])"),
              "items 0 and 2 are equal (uniqueItems is true)");
    EXPECT_EQ(verdict(R"({"uniqueItems":true})", R"([{"a":1,"b":[2]},{"b":[2.0],"a":1}])"),
              "items 0 and 1 are equal (uniqueItems is true)");
    EXPECT_EQ(verdict(R"({"uniqueItems":false})", R"([1,1])"), "valid");
}

TEST(schema_validator, contains_with_min_and_max) {
    EXPECT_EQ(verdict(R"({"contains":{"type":"string"}})", R"([1,"a"])"), "valid");
    EXPECT_EQ(verdict(R"({"contains":{"type":"string"}})", R"([1,2])"),
              R"(array has 0 items that match "contains", fewer than the minimum 1)");
    EXPECT_EQ(verdict(R"({"contains":{"type":"string"},"maxContains":1})", R"(["a","b"])"),
              R"(array has 2 items that match "contains", more than the maximum 1)");
    EXPECT_EQ(verdict(R"({"contains":{"type":"string"},"minContains":0})", R"([1])"), "valid");
}

TEST(schema_validator, enum_and_const_compare_by_json_value) {
    EXPECT_EQ(verdict(R"({"enum":["c","f"]})", R"("c")"), "valid");
    EXPECT_EQ(verdict(R"({"enum":["c","f"]})", R"("k")"), R"("k" is not one of "c", "f")");
    EXPECT_EQ(verdict(R"({"enum":[1,null]})", "1.0"), "valid");
    EXPECT_EQ(verdict(R"({"enum":[1,null]})", "[1]"), "[1] is not one of 1, null");
    EXPECT_EQ(verdict(R"({"const":{"a":[1]}})", R"({"a":[1.0]})"), "valid");
    EXPECT_EQ(verdict(R"({"const":{"a":[1]}})", R"({"a":[2]})"),
              R"(expected {"a":[1]}, got object)");
    EXPECT_EQ(verdict(R"({"const":"x"})", R"("y")"), R"(expected "x", got string "y")");
}

TEST(schema_validator, numeric_bounds_are_exact_even_past_double_precision) {
    EXPECT_EQ(verdict(R"({"minimum":1,"maximum":4})", "4"), "valid");
    EXPECT_EQ(verdict(R"({"minimum":1,"maximum":4})", "0"), "0 is less than the minimum 1");
    EXPECT_EQ(verdict(R"({"minimum":1,"maximum":4})", "4.5"), "4.5 is greater than the maximum 4");
    EXPECT_EQ(verdict(R"({"exclusiveMinimum":0})", "0"),
              "0 is not greater than the exclusive minimum 0");
    EXPECT_EQ(verdict(R"({"exclusiveMaximum":1})", "1.0"),
              "1 is not less than the exclusive maximum 1");
    EXPECT_EQ(verdict(R"({"exclusiveMaximum":1})", "0.999"), "valid");
    EXPECT_EQ(verdict(R"({"maximum":9007199254740992})", "9007199254740993"),
              "9007199254740993 is greater than the maximum 9007199254740992");
    EXPECT_EQ(verdict(R"({"minimum":-1})", "18446744073709551615"), "valid");
    EXPECT_EQ(verdict(R"({"maximum":-1})", "18446744073709551615"),
              "18446744073709551615 is greater than the maximum -1");
}

TEST(schema_validator, multiple_of_integers_exactly_and_decimals_as_people_mean_them) {
    EXPECT_EQ(verdict(R"({"multipleOf":5})", "-15"), "valid");
    EXPECT_EQ(verdict(R"({"multipleOf":5})", "7"), "7 is not a multiple of 5");
    EXPECT_EQ(verdict(R"({"multipleOf":3})", "9007199254740993"), "valid");
    EXPECT_EQ(verdict(R"({"multipleOf":0.1})", "0.3"), "valid");
    EXPECT_EQ(verdict(R"({"multipleOf":0.1})", "0.35"), "0.35 is not a multiple of 0.1");
    EXPECT_EQ(verdict(R"({"multipleOf":0.5})", "2"), "valid");
}

TEST(schema_validator, string_lengths_count_code_points_not_bytes) {
    EXPECT_EQ(verdict(R"({"maxLength":3})", R"("äöü")"), "valid"); // 6 bytes
    EXPECT_EQ(verdict(R"({"maxLength":3})", R"("äöüß")"),
              R"("äöüß" is longer than the maximum length 3)");
    EXPECT_EQ(verdict(R"({"minLength":2})", R"("€")"),
              R"("€" is shorter than the minimum length 2)");
    EXPECT_EQ(verdict(R"({"minLength":1,"maxLength":1})", R"("😀")"),
              "valid"); // 4 bytes, 1 code point
}

TEST(schema_validator, pattern_searches_unanchored_over_code_points) {
    EXPECT_EQ(verdict(R"({"pattern":"b+"})", R"("abbc")"), "valid");
    EXPECT_EQ(verdict(R"({"pattern":"b+"})", R"("ac")"), R"("ac" does not match the pattern "b+")");
    EXPECT_EQ(verdict(R"({"pattern":"^[A-Z]{3}$"})", R"("ABCD")"),
              R"("ABCD" does not match the pattern "^[A-Z]{3}$")");
    EXPECT_EQ(verdict(R"({"pattern":"^.$"})", R"("é")"), "valid");
    EXPECT_EQ(verdict(R"({"pattern":"^[à-ÿ]+$"})", R"("café")"),
              R"("café" does not match the pattern "^[à-ÿ]+$")");
    EXPECT_EQ(verdict(R"({"pattern":"^[à-ÿ]+$"})", R"("éè")"), "valid");
}

TEST(schema_validator, pattern_anchors_hold_at_the_ends_of_the_text_only) {
    // Without ECMA-262's `m` flag, a line break inside the text is no anchor.
    EXPECT_EQ(verdict(R"({"pattern":"^[a-z]+$"})", R"("abc\nX Y")"),
              R"("abc\nX Y" does not match the pattern "^[a-z]+$")");
    EXPECT_EQ(verdict(R"({"pattern":"^[a-z]+$"})", R"("abc\n")"),
              R"("abc\n" does not match the pattern "^[a-z]+$")");
    EXPECT_EQ(verdict(R"({"pattern":"^a.c$"})", R"("a\nc")"),
              R"("a\nc" does not match the pattern "^a.c$")");
    EXPECT_EQ(verdict(R"({"patternProperties":{"^x$":false}})", R"({"y\nx":1})"), "valid");
}

TEST(schema_validator, formats_forma_checks_and_others_as_annotations) {
    EXPECT_EQ(verdict(R"({"format":"email"})", R"("a@example.com")"), "valid");
    EXPECT_EQ(verdict(R"({"format":"email"})", R"("a.example.com")"),
              R"("a.example.com" is not a valid email)");
    EXPECT_EQ(verdict(R"({"format":"date"})", R"("2023-02-29")"),
              R"("2023-02-29" is not a valid date)");
    EXPECT_EQ(verdict(R"({"format":"uuid"})", R"("123e4567-e89b-12d3-a456-426614174000")"),
              "valid");
    EXPECT_EQ(verdict(R"({"format":"color"})", R"("anything")"), "valid");
    EXPECT_EQ(verdict(R"({"format":"email"})", "5"), "valid"); // formats apply to strings only
}

TEST(schema_validator, combinators) {
    constexpr std::string_view nullable = R"({"anyOf":[{"type":"integer"},{"type":"null"}]})";
    EXPECT_EQ(verdict(nullable, "null"), "valid");
    // Alternatives that reject the value's type are summed up as one type error...
    EXPECT_EQ(verdict(nullable, R"("x")"), R"(expected integer or null, got string "x")");
    // ...and when one alternative takes the type, its own violations are the answer.
    constexpr std::string_view nullable_object =
        R"({"anyOf":[{"properties":{"r":{"type":"number","minimum":0}}},{"type":"null"}]})";
    EXPECT_EQ(verdict(nullable_object, R"({"r":"x"})"),
              R"(at /r: expected number, got string "x")");
    EXPECT_EQ(verdict(nullable_object, R"({"r":-1})"), "at /r: -1 is less than the minimum 0");
    // Otherwise every alternative's first reason, where it is.
    constexpr std::string_view shapes =
        R"({"anyOf":[{"required":["radius"]},{"required":["side"]},false]})";
    EXPECT_EQ(
        verdict(shapes, R"({"r":1})"),
        R"(matches none of the alternatives (alternative 0: missing required member "radius"; )"
        R"(alternative 1: missing required member "side"))");
    EXPECT_EQ(
        verdict(
            R"({"oneOf":[{"type":"number"},{"type":"object","properties":{"a":{"type":"string"}}}]})",
            R"({"a":1})"),
        R"(at /a: expected string, got number 1)");
    EXPECT_EQ(verdict(R"({"oneOf":[{"type":"integer"},{"type":"number"}]})", "1.5"), "valid");
    EXPECT_EQ(verdict(R"({"oneOf":[{"type":"integer"},{"type":"number"}]})", "1"),
              "matches alternatives 0 and 1, but oneOf allows exactly one");
    EXPECT_EQ(verdict(R"({"allOf":[{"minimum":0},{"maximum":10}]})", "11"),
              "11 is greater than the maximum 10");
    EXPECT_EQ(verdict(R"({"not":{"type":"null"}})", "0"), "valid");
    EXPECT_EQ(verdict(R"({"not":{"type":"null"}})", "null"),
              R"(matches the schema in "not", which it must not)");
    constexpr std::string_view conditional =
        R"({"if":{"properties":{"kind":{"const":"card"}}},"then":{"required":["number"]},"else":{"required":["iban"]}})";
    EXPECT_EQ(verdict(conditional, R"({"kind":"card","number":"4111"})"), "valid");
    EXPECT_EQ(verdict(conditional, R"({"kind":"card"})"), R"(missing required member "number")");
    EXPECT_EQ(verdict(conditional, R"({"kind":"bank"})"), R"(missing required member "iban")");
}

TEST(schema_validator, boolean_schemas) {
    EXPECT_EQ(verdict("true", "[1]"), "valid");
    EXPECT_EQ(verdict("false", "1"), "no value is allowed here (the schema is false)");
    EXPECT_EQ(verdict(R"({"properties":{"gone":false}})", R"({"gone":1})"),
              "at /gone: no value is allowed here (the schema is false)");
}

TEST(schema_validator, refs_resolve_local_pointers_and_apply_with_siblings) {
    constexpr std::string_view s =
        R"({"$defs":{"pos":{"type":"integer","minimum":1},"a~b":{"type":"string"}},
        "properties":{"n":{"$ref":"#/$defs/pos","maximum":5},"s":{"$ref":"#/$defs/a~0b"},
                      "e":{"$ref":"#/properties/n"},"p":{"$ref":"#/%24defs/pos"}}})";
    EXPECT_EQ(verdict(s, R"({"n":3,"s":"x","e":5,"p":1})"), "valid");
    EXPECT_EQ(verdict(s, R"({"n":0})"), "at /n: 0 is less than the minimum 1");
    EXPECT_EQ(verdict(s, R"({"n":6})"), "at /n: 6 is greater than the maximum 5");
    EXPECT_EQ(verdict(s, R"({"s":1})"), "at /s: expected string, got number 1");
    EXPECT_EQ(verdict(s, R"({"e":6})"), "at /e: 6 is greater than the maximum 5");
    EXPECT_EQ(verdict(s, R"({"p":0})"), "at /p: 0 is less than the minimum 1");
    // A recursive schema through "#", and a root $id that refs may repeat.
    constexpr std::string_view tree = R"({"$id":"https://example.com/tree","type":"object",
        "properties":{"children":{"type":"array","items":{"$ref":"https://example.com/tree#"}}}})";
    EXPECT_EQ(verdict(tree, R"({"children":[{"children":[]}]})"), "valid");
    EXPECT_EQ(verdict(tree, R"({"children":[{"children":[1]}]})"),
              "at /children/0/children/0: expected object, got number 1");
}

// ---- violations(): all of them, where they are in the instance and in the schema ---------

TEST(schema_validator, violations_lists_every_problem_in_document_order_up_to_the_limit) {
    const auto v = schema_validator::from_text(R"({"type":"object",
        "properties":{"a":{"type":"string"},"b":{"items":{"$ref":"#/$defs/small"}}},
        "required":["a","c"],"$defs":{"small":{"maximum":2}}})");
    const json::value instance = json::parse(R"({"a":1,"b":[1,3,4]})");
    const std::vector<forma::schema_violation> expected = {
        {"", "/required", R"(missing required member "c")"},
        {"/a", "/properties/a/type", "expected string, got number 1"},
        {"/b/1", "/$defs/small/maximum", "3 is greater than the maximum 2"},
        {"/b/2", "/$defs/small/maximum", "4 is greater than the maximum 2"},
    };
    EXPECT_EQ(v.violations(instance), expected);
    EXPECT_EQ(v.violations(instance, 2), std::vector(expected.begin(), expected.begin() + 2));
    EXPECT_TRUE(v.violations(instance, 0).empty());
    EXPECT_FALSE(v.is_valid(instance));
    EXPECT_TRUE(v.is_valid(json::parse(R"({"a":"x","c":null,"b":[2]})")));
}

TEST(schema_validator, validate_throws_json_error_with_the_path) {
    const auto v = schema_validator::from_text(R"({"properties":{"age":{"maximum":120}}})");
    EXPECT_NO_THROW(v.validate(json::parse(R"({"age":35})")));
    try {
        v.validate(json::parse(R"({"age":150})"));
        FAIL() << "no json_error";
    } catch (const forma::json_error& e) {
        EXPECT_EQ(e.path(), "/age");
        EXPECT_EQ(e.reason(), "150 is greater than the maximum 120");
        EXPECT_STREQ(e.what(), "at /age: 150 is greater than the maximum 120");
    }
    EXPECT_EQ(v.schema(), json::parse(R"({"properties":{"age":{"maximum":120}}})"));
}

TEST(schema_validator, copies_share_the_compiled_schema) {
    std::optional<schema_validator> original = schema_validator::from_text(R"({"type":"string"})");
    const schema_validator copy = *original;
    original.reset();
    EXPECT_TRUE(copy.is_valid("x"));
    EXPECT_FALSE(copy.is_valid(1));
}

// ---- schemas refused at construction -----------------------------------------------------

TEST(schema_validator, unsupported_or_misspelt_keywords_are_refused_not_ignored) {
    EXPECT_EQ(
        schema_failure(R"({"properties":{"a":{"unevaluatedProperties":false}}})"),
        R"(invalid schema at #/properties/a/unevaluatedProperties: keyword "unevaluatedProperties" is not supported)");
    EXPECT_EQ(schema_failure(R"({"requried":["a"]})"),
              R"(invalid schema at #/requried: keyword "requried" is not supported)");
    EXPECT_EQ(schema_failure(R"({"items":{"$dynamicRef":"#meta"}})"),
              R"(invalid schema at #/items/$dynamicRef: keyword "$dynamicRef" is not supported)");
    EXPECT_EQ(schema_failure(R"({"properties":{"a":{"$id":"a.json"}}})"),
              R"(invalid schema at #/properties/a/$id: "$id" is supported only at the root)");
    // Annotations and x- extensions change no verdict.
    EXPECT_EQ(
        schema_failure(R"({"title":"t","description":"d","default":1,"examples":[1],"$comment":"c",
        "deprecated":true,"readOnly":false,"x-order":3,"$schema":"https://json-schema.org/draft/2020-12/schema"})"),
        "compiled");
}

TEST(schema_validator, malformed_keyword_values_are_refused_with_their_location) {
    EXPECT_EQ(schema_failure(R"({"minimum":"x"})"),
              R"(invalid schema at #/minimum: "minimum" must be a number, got string "x")");
    EXPECT_EQ(
        schema_failure(R"({"items":{"maxLength":-1}})"),
        R"(invalid schema at #/items/maxLength: "maxLength" must be a non-negative integer, got number -1)");
    EXPECT_EQ(
        schema_failure(R"({"minItems":1.5})"),
        R"(invalid schema at #/minItems: "minItems" must be a non-negative integer, got number 1.5)");
    EXPECT_EQ(schema_failure(R"({"minItems":2.0})"), "compiled");
    EXPECT_EQ(schema_failure(R"({"multipleOf":0})"),
              R"(invalid schema at #/multipleOf: "multipleOf" must be greater than 0, got 0)");
    EXPECT_EQ(
        schema_failure(R"({"type":"int"})"),
        R"(invalid schema at #/type: unknown type string "int" (expected null, boolean, object, array, number, string or integer))");
    EXPECT_EQ(
        schema_failure(R"({"anyOf":[]})"),
        R"(invalid schema at #/anyOf: "anyOf" must be a non-empty array of schemas, got array)");
    EXPECT_EQ(
        schema_failure(R"({"properties":{"a":3}})"),
        "invalid schema at #/properties/a: a schema must be an object or a boolean, got number 3");
    EXPECT_EQ(
        schema_failure(R"({"required":"a"})"),
        R"(invalid schema at #/required: "required" must be an array of strings, got string "a")");
    const std::string bad_pattern =
        schema_failure(R"({"properties":{"code":{"pattern":"([A-Z]"}}})");
    EXPECT_TRUE(bad_pattern.starts_with(
        R"(invalid schema at #/properties/code/pattern: invalid pattern "([A-Z]": )"))
        << bad_pattern;
    EXPECT_TRUE(
        schema_failure(R"({"patternProperties":{"[":{}}})")
            .starts_with(R"(invalid schema at #/patternProperties/[: invalid pattern "[": )"));
}

TEST(schema_validator, refs_that_do_not_resolve_or_leave_the_document_are_refused) {
    EXPECT_EQ(
        schema_failure(R"({"properties":{"a":{"$ref":"#/$defs/missing"}}})"),
        R"(invalid schema at #/properties/a/$ref: "$ref" "#/$defs/missing" does not resolve)");
    EXPECT_EQ(
        schema_failure(R"({"$ref":"other.json#/a"})"),
        R"(invalid schema at #/$ref: "$ref" "other.json#/a" is not supported: only local references ("#...") are)");
    EXPECT_EQ(
        schema_failure(R"({"$ref":"#node"})"),
        R"(invalid schema at #/$ref: "$ref" "#node" is not supported: anchors are not, JSON Pointers are)");
    EXPECT_EQ(schema_failure(R"({"$ref":5})"),
              R"(invalid schema at #/$ref: "$ref" must be a string, got number 5)");
    EXPECT_EQ(schema_failure(R"({"$defs":{"a":{"type":"string"}},"$ref":"#/$defs/a/type"})"),
              "invalid schema at #/$defs/a/type: a schema must be an object or a boolean, got "
              "string \"string\"");
}

TEST(schema_validator, ref_cycles_that_consume_no_input_are_refused_at_construction) {
    EXPECT_EQ(
        schema_failure(R"({"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"})"),
        "invalid schema at #/$defs/a/$ref: refers back to #/$defs/a without descending into the "
        "instance, so validation would never end");
    EXPECT_EQ(schema_failure(R"({"$ref":"#"})"),
              "invalid schema at #/$ref: refers back to # without descending into the instance, so "
              "validation would never end");
    EXPECT_EQ(schema_failure(R"({"anyOf":[{"type":"string"},{"$ref":"#"}]})"),
              "invalid schema at #/anyOf/1/$ref: refers back to # without descending into the "
              "instance, so validation would never end");
    EXPECT_EQ(
        schema_failure(
            R"({"$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"}]},"b":{"not":{"$ref":"#/$defs/a"}}},"$ref":"#/$defs/a"})")
                .find("so validation would never end") != std::string::npos,
        true);
    // Recursion through items or properties descends, so it ends: allowed.
    EXPECT_EQ(schema_failure(R"({"items":{"$ref":"#"}})"), "compiled");
}

TEST(schema_validator, schema_text_that_is_not_json_is_a_schema_error) {
    try {
        schema_validator::from_text("{\"type\":\n \"string\",}");
        FAIL() << "no schema_error";
    } catch (const forma::schema_error& e) {
        EXPECT_TRUE(std::string(e.what()).starts_with("schema text is not valid JSON: "))
            << e.what();
        EXPECT_NE(std::string(e.what()).find(" at line 2, column "), std::string::npos) << e.what();
    }
}

TEST(schema_validator, schema_text_numbers_past_a_double) {
    // Boost.JSON reads 0e999 as NaN, which no bound would compare with.
    EXPECT_EQ(verdict(R"({"minimum":0e999})", "-1"), "-1 is less than the minimum 0");
    EXPECT_THROW(
        {
            try {
                schema_validator::from_text(R"({"properties":{"a":{"maximum":1e400}}})");
            } catch (const forma::schema_error& e) {
                EXPECT_STREQ(e.what(), "schema text has a number too large for a double at "
                                       "/properties/a/maximum");
                throw;
            }
        },
        forma::schema_error);
}

// ---- bounded work on hostile input ---------------------------------------------------------

TEST(schema_validator, deep_instances_are_a_violation_not_a_stack_overflow) {
    const auto v = schema_validator::from_text(R"({"items":{"$ref":"#"}})");
    EXPECT_TRUE(v.is_valid(nested_arrays(64)));
    const auto found = v.violations(nested_arrays(65));
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].path, zeros_path(64));
    EXPECT_EQ(found[0].reason,
              "nesting is deeper than the limit of 64 (schema_validator_options::max_depth)");
    // Far deeper than any stack would take recursively.
    EXPECT_FALSE(v.is_valid(nested_arrays(5000)));
    const schema_validator shallow(json::parse(R"({"items":{"$ref":"#"}})"), {.max_depth = 3});
    EXPECT_EQ(shallow.violations(nested_arrays(4)).at(0).path, "/0/0/0");
    EXPECT_TRUE(shallow.is_valid(nested_arrays(3)));
}

TEST(schema_validator, long_ref_chains_are_bounded_at_validation) {
    json::object defs;
    for (int i = 0; i < 2000; ++i)
        defs[numbered("d", i)] = json::object{{"$ref", numbered("#/$defs/d", i + 1)}};
    defs["d2000"] = json::object{{"type", "integer"}};
    const json::value schema = json::object{{"$defs", std::move(defs)}, {"$ref", "#/$defs/d0"}};
    const schema_validator v(schema);
    const auto found = v.violations(1);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].reason, "subschemas and $refs nest deeper than the limit of 528 here (8 x "
                               "schema_validator_options::max_depth)");
}

TEST(schema_validator, exponential_alternatives_stop_at_max_steps_and_count_as_invalid) {
    // Each level tries both branches: 2^40 checks for a value that fails them all.
    json::object defs;
    for (int i = 0; i < 40; ++i) {
        const std::string next = numbered("#/$defs/d", i + 1);
        defs[numbered("d", i)] = json::object{
            {"anyOf", json::array{json::object{{"$ref", next}}, json::object{{"$ref", next}}}}};
    }
    defs["d40"] = json::object{{"type", "string"}};
    const json::value schema =
        json::object{{"$defs", defs}, {"not", json::object{{"$ref", "#/$defs/d0"}}}};
    const schema_validator v(schema, {.max_steps = 100000});
    const auto found = v.violations(1);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].reason,
              "validation stopped after 100000 steps (schema_validator_options::max_steps): "
              "the schema's alternatives multiply beyond it");
    EXPECT_FALSE(v.is_valid(1));   // never "valid" because "not" saw an unfinished check fail
    EXPECT_FALSE(v.is_valid("x")); // "x" matches the first branch at once: d0 holds, so "not" fails
}

TEST(schema_validator, deeply_nested_schemas_are_refused) {
    json::value schema = json::object{};
    for (int i = 0; i < 5000; ++i) {
        json::object outer;
        outer["items"] = std::move(schema);
        schema = std::move(outer);
    }
    const std::string failure = schema_value_failure(schema);
    EXPECT_NE(failure.find("subschemas nest deeper than the limit of 528"), std::string::npos)
        << failure;
    EXPECT_TRUE(failure.starts_with("invalid schema at #/items/items/")) << failure.substr(0, 80);
}

TEST(schema_validator, catastrophic_patterns_end_with_a_violation) {
    const auto v = schema_validator::from_text(R"({"pattern":"^(a|a)*(a*)*$"})");
    const std::string input = std::string(3000, 'a') + "b";
    const auto found = v.violations(json::value(input));
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].schema_path, "/pattern");
    EXPECT_TRUE(found[0].reason.find("does not match the pattern") != std::string::npos ||
                found[0].reason.find("the match is too complex") != std::string::npos)
        << found[0].reason;
    // Long input: Boost.Regex matches without recursion, within bounds of its own.
    const std::string long_input(20000, 'a');
    EXPECT_TRUE(
        schema_validator::from_text(R"({"pattern":"^[a-z]+$"})").is_valid(json::value(long_input)));
    const auto grouped = schema_validator::from_text(R"({"pattern":"^(ab|a)+$"})")
                             .violations(json::value(long_input));
    if (!grouped.empty()) { // past Boost.Regex's memory bound: refused, never a crash
        EXPECT_NE(grouped[0].reason.find("the match is too complex"), std::string::npos)
            << grouped[0].reason;
    }
}

TEST(schema_validator, long_unique_arrays_are_checked_by_hash) {
    json::array items;
    for (int i = 0; i < 100000; ++i)
        items.push_back(i);
    items.push_back(5.0);
    const auto v = schema_validator::from_text(R"({"uniqueItems":true})");
    EXPECT_EQ(v.violations(items).at(0).reason,
              "items 5 and 100000 are equal (uniqueItems is true)");
}

// ---- forma's own schemas ---------------------------------------------------------------

namespace {

template <class T>
void expect_round_trip_valid(const T& value, forma::schema_options options = {}) {
    const schema_validator v(forma::json_schema<T>(options));
    const json::value instance = forma::to_json_value(value);
    const auto found = v.violations(instance);
    EXPECT_TRUE(found.empty()) << json::serialize(instance) << ": " << found.front().path << ": "
                               << found.front().reason;
}

// Changes one member of T's JSON; the validator must fail where from_json fails.
template <class T>
void expect_same_path_as_from_json(const T& value,
                                   const std::function<void(json::value&)>& tamper) {
    json::value instance = forma::to_json_value(value);
    tamper(instance);
    const std::string text = json::serialize(instance);
    const auto parsed = forma::try_from_json<T>(text);
    ASSERT_TRUE(parsed.has_error()) << "from_json accepted " << text;
    const auto checked = schema_validator(forma::json_schema<T>()).try_validate(instance);
    ASSERT_TRUE(checked.has_error()) << "the validator accepted " << text;
    EXPECT_EQ(checked.error().path(), parsed.error().path())
        << text << "\n  validator: " << checked.error().what()
        << "\n  from_json: " << parsed.error().what();
}

} // namespace

TEST(schema_validator, accepts_to_json_of_good_values_against_json_schema_of_their_type) {
    using namespace test_types;
    expect_round_trip_valid(person{"Ann", 41, "pilot"});
    expect_round_trip_valid(person{"Ann", 41, std::nullopt});
    expect_round_trip_valid(widths{-128, 255, -32768, 65535, -5, 7, -9, 9, 1.5f, 2.5, true});
    expect_round_trip_valid(
        containers{{1, 2}, {"a"}, {0.5}, {1, 2, 3}, {{"k", 1}}, {{"home", {"s", "z"}}}, {true}});
    expect_round_trip_valid(reading{21.5, unit::f, address{"Main", "12345"}});
    expect_round_trip_valid(drawing{{shape_circle{1}, shape_square{2, "sq"}}, std::string("t")});
    expect_round_trip_valid(drawing{{}, std::monostate{}});
    expect_round_trip_valid(employee{{"e1"}, "Eve"});
    expect_round_trip_valid(tree{"root", {tree{"a", {}}, tree{"b", {tree{"c", {}}}}}});
    expect_round_trip_valid(org_chart{"ACME", tree{"ceo", {tree{"cto", {}}}}});
    expect_round_trip_valid(constrained{"ABC", 100, {"x"}, 0.5, "a@example.com"});
    list_node chain{1, std::nullopt};
    chain.next.emplace(std::make_unique<list_node>(list_node{2, std::nullopt}));
    expect_round_trip_valid(chain);
    // Strict dialect (maps travel as pairs there, so types without maps).
    expect_round_trip_valid(person{"Ann", 41, std::nullopt}, strict);
    expect_round_trip_valid(reading{21.5, unit::c, std::nullopt}, strict);
    expect_round_trip_valid(drawing{{shape_circle{1}}, 7}, strict);
    expect_round_trip_valid(tree{"root", {tree{"a", {}}}}, strict);
    expect_round_trip_valid(constrained{"ABC", 0, {"x", "y", "z"}, std::nullopt, "a@example.com"},
                            strict);
}

TEST(schema_validator, rejects_tampered_values_where_from_json_does) {
    using namespace test_types;
    const person ann{"Ann", 41, "pilot"};
    expect_same_path_as_from_json(ann, [](json::value& v) { v.as_object()["age"] = "x"; });
    expect_same_path_as_from_json(ann, [](json::value& v) { v.as_object()["age"] = 1.5; });
    expect_same_path_as_from_json(ann, [](json::value& v) { v.as_object().erase("name"); });
    expect_same_path_as_from_json(ann, [](json::value& v) { v.as_object()["occupation"] = 3; });
    const widths w{};
    expect_same_path_as_from_json(w, [](json::value& v) { v.as_object()["i8"] = 128; });
    expect_same_path_as_from_json(w, [](json::value& v) { v.as_object()["u16"] = -1; });
    expect_same_path_as_from_json(w, [](json::value& v) { v.as_object()["b"] = 0; });
    const reading r{21.5, unit::f, address{"Main", "12345"}};
    expect_same_path_as_from_json(r, [](json::value& v) { v.as_object()["units"] = "k"; });
    expect_same_path_as_from_json(
        r, [](json::value& v) { v.at_pointer("/where").as_object()["zip"] = 5; });
    const constrained c{"ABC", 100, {"x"}, 0.5, "a@example.com"};
    expect_same_path_as_from_json(c, [](json::value& v) { v.as_object()["code"] = "ABCD"; });
    expect_same_path_as_from_json(c, [](json::value& v) { v.as_object()["code"] = "abc"; });
    expect_same_path_as_from_json(c, [](json::value& v) { v.as_object()["score"] = 101; });
    expect_same_path_as_from_json(c, [](json::value& v) { v.as_object()["tags"] = json::array{}; });
    expect_same_path_as_from_json(
        c, [](json::value& v) { v.as_object()["tags"] = json::array{"toolong"}; });
    expect_same_path_as_from_json(c, [](json::value& v) { v.as_object()["ratio"] = 1; });
    expect_same_path_as_from_json(c, [](json::value& v) { v.as_object()["email"] = "nope"; });
    const tree t{"root", {tree{"a", {tree{"b", {}}}}}};
    expect_same_path_as_from_json(
        t, [](json::value& v) { v.at_pointer("/children/0/children/0").as_object()["label"] = 1; });
    const drawing d{{shape_circle{1}, shape_square{2, "sq"}}, 3};
    expect_same_path_as_from_json(
        d, [](json::value& v) { v.at_pointer("/shapes/1").as_object()["side"] = "wide"; });
    expect_same_path_as_from_json(d, [](json::value& v) { v.as_object()["tag"] = json::array{}; });
}

// The property: whatever the schema-driven generator makes from forma's schemas, the
// validator accepts, across many seeds, in both dialects.
TEST(schema_validator, accepts_every_instance_make_instance_generates) {
    boost::mp11::mp_for_each<boost::mp11::mp_transform<std::type_identity, instance_types::roots>>(
        [](auto type) {
            using T = typename decltype(type)::type;
            for (const forma::schema_options options : {forma::schema_options{}, strict}) {
                const json::object& schema = forma::json_schema<T>(options);
                const schema_validator v(schema);
                for (std::uint64_t seed = 0; seed < 200; ++seed) {
                    const json::value instance =
                        forma::testing::make_instance(schema, instance_types::prompt, seed);
                    const auto found = v.violations(instance);
                    ASSERT_TRUE(found.empty())
                        << forma::reflect::type_name<T>() << " seed " << seed << ": "
                        << json::serialize(instance) << "\n  at " << found.front().path << ": "
                        << found.front().reason;
                }
            }
        });
}
