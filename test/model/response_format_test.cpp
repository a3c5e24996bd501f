#include "test_support.hpp"

#include <boost/describe/class.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include <optional>

namespace format_test {

struct person {
    std::string name;
    int age = 0;
    std::optional<std::string> occupation;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age, occupation))
FORMA_DESCRIBE_TYPE(person, .name = "person", .description = "A person in the text");

} // namespace format_test

namespace {

using namespace forma;
using namespace forma_test;
using format_test::person;

TEST(model_response_format, text_and_json) {
    EXPECT_EQ(response_format::text().kind(), response_format_kind::text);
    EXPECT_EQ(response_format::json().kind(), response_format_kind::json);
    EXPECT_TRUE(response_format::json().schema().empty());
    EXPECT_EQ(response_format::json().name(), "");
    EXPECT_NE(response_format::text(), response_format::json());
}

TEST(model_response_format, json_schema_from_an_object_is_kept_unchanged) {
    const boost::json::object schema{{"type", "array"}, {"items", {{"type", "integer"}}}};
    const auto f = response_format::json_schema("numbers", schema, "Some numbers", false);
    EXPECT_EQ(f.kind(), response_format_kind::json_schema);
    EXPECT_EQ(f.name(), "numbers");
    EXPECT_EQ(f.schema(), schema); // not wrapped, not rewritten
    EXPECT_EQ(f.description(), "Some numbers");
    EXPECT_EQ(f.strict(), false);
    EXPECT_EQ(response_format::json_schema("n", schema).strict(), std::nullopt);
}

// A schema read from a request body may be made in the body's arena, which is gone once the
// request is read (forma's OpenAI endpoints): the format keeps a copy in memory of its own.
TEST(model_response_format, json_schema_made_in_an_arena_outlives_it) {
    const std::string text = R"({"type":"object","properties":{"note":{"type":"string","description":")" +
                             std::string(3000, 'x') + R"("}}})";
    std::optional<response_format> format;
    {
        boost::json::monotonic_resource arena;
        boost::json::value schema = boost::json::parse(text, &arena);
        format = response_format::json_schema("noted", std::move(schema.as_object()));
    } // the arena's blocks are freed here: a format pointing into them reads freed memory (ASan)
    EXPECT_EQ(format->schema(), boost::json::parse(text).as_object());
    EXPECT_EQ(format->schema().storage().get(), boost::json::storage_ptr().get()); // the default resource
}

TEST(model_response_format, json_schema_from_text_is_parsed) {
    const auto f = response_format::json_schema(
        "city", R"({"type":"object","properties":{"name":{"type":"string"}}})");
    EXPECT_EQ(f.schema(), (boost::json::object{{"type", "object"},
                                               {"properties", {{"name", {{"type", "string"}}}}}}));
    const std::string owned = R"({"type":"string"})";
    EXPECT_EQ(response_format::json_schema("s", std::string_view(owned)).schema().at("type"),
              "string");
}

std::string schema_error_of(std::string name, std::string_view schema_text) {
    try {
        (void)response_format::json_schema(std::move(name), schema_text);
    } catch (const schema_error& e) {
        return e.what();
    }
    return "no error";
}

TEST(model_response_format, invalid_schema_text_is_a_schema_error_with_its_position) {
    EXPECT_EQ(schema_error_of("s", "{\n  \"type\": \"object\",\n  oops\n}"),
              "schema text of response format \"s\" is not valid JSON: syntax error at line 3, "
              "column 3");
    EXPECT_EQ(schema_error_of("s", R"({"type":"object"} extra)"),
              "schema text of response format \"s\" is not valid JSON: extra data at line 1, "
              "column 19");
    EXPECT_EQ(schema_error_of("s", R"({"type":)"),
              "schema text of response format \"s\" is not valid JSON: incomplete JSON at line 1, "
              "column 9");
    EXPECT_EQ(schema_error_of("s", "[1,2]"),
              "schema text of response format \"s\" must be a JSON object, got array");
    EXPECT_EQ(schema_error_of("s", ""), "schema text of response format \"s\" is not valid JSON: "
                                        "incomplete JSON at line 1, column 1");
}

// Boost.JSON reads these as NaN and infinity, and would write them back as `NaN` and
// `Infinity` in the request (a fuzz finding: the format did not equal its JSON round trip).
TEST(model_response_format, numbers_past_a_double_in_schema_text) {
    const auto format = response_format::json_schema(
        "s", R"({"type":"object","properties":{"a":{"type":"string","minLength":0e3082}}})");
    const auto& min_length = format.schema().at("properties").at("a").at("minLength");
    ASSERT_TRUE(min_length.is_double());
    EXPECT_EQ(min_length.as_double(), 0.0);
    EXPECT_EQ(boost::json::value_to<response_format>(boost::json::value_from(format)), format);
    EXPECT_EQ(schema_error_of("s", R"({"type":"object","properties":{"a":{"maximum":[1,-1e400]}}})"),
              "schema text of response format \"s\" has a number too large for a double at "
              "/properties/a/maximum/1");
}

TEST(model_response_format, names_must_match_the_provider_pattern) {
    const boost::json::object schema{{"type", "object"}};
    EXPECT_NO_THROW(response_format::json_schema("A-z_0-9", schema));
    EXPECT_NO_THROW(response_format::json_schema(std::string(64, 'a'), schema));
    for (const std::string& bad : {std::string(), std::string(65, 'a'), std::string("has space"),
                                  std::string("dot.name"), std::string("caf\xc3\xa9")}) {
        EXPECT_THROW(response_format::json_schema(bad, schema), schema_error) << bad;
        EXPECT_THROW(response_format::json_schema(bad, "{}"), schema_error) << bad;
    }
    EXPECT_EQ(schema_error_of("bad name", "{}"),
              "response format name \"bad name\" is invalid: it must match ^[A-Za-z0-9_-]{1,64}$");
}

TEST(model_response_format, for_type_uses_the_strict_schema_and_the_types_name) {
    const auto f = response_format::for_type<person>();
    EXPECT_EQ(f.kind(), response_format_kind::json_schema);
    EXPECT_EQ(f.name(), "person");
    EXPECT_EQ(f.description(), "A person in the text");
    EXPECT_EQ(f.strict(), true);
    EXPECT_EQ(&f.schema(), &response_format::for_type<person>().schema()); // shared, not copied
    EXPECT_EQ(f.schema(), json_schema<person>({.dialect = schema_dialect::openai_strict}));
    // Strict mode: every property required, the object closed.
    EXPECT_EQ(f.schema().at("required").as_array().size(), 3u);
    EXPECT_EQ(f.schema().at("additionalProperties"), false);
}

TEST(model_response_format, for_type_without_strict_uses_standard_json_schema) {
    const auto f = response_format::for_type<person>(false);
    EXPECT_EQ(f.strict(), false);
    EXPECT_EQ(f.schema(), json_schema<person>());
    EXPECT_NE(f.schema(), response_format::for_type<person>(true).schema());
}

TEST(model_response_format, for_type_of_an_undescribed_type_takes_a_derived_name) {
    const auto f = response_format::for_type<std::vector<int>>();
    EXPECT_EQ(f.name(), "integer_list");
    EXPECT_EQ(f.description(), "");
}

TEST(model_response_format, for_type_wraps_a_root_that_is_not_an_object_in_either_dialect) {
    EXPECT_FALSE(response_format::wraps<person>());
    EXPECT_TRUE(response_format::wraps<std::vector<int>>());
    EXPECT_TRUE(response_format::wraps<int>());
    for (const bool strict : {true, false}) {
        const auto f = response_format::for_type<std::vector<int>>(strict);
        EXPECT_EQ(f.schema().at("type"), "object");
        EXPECT_EQ(f.schema().at("required"), boost::json::array{"data"});
        EXPECT_EQ(f.schema().at("additionalProperties"), false);
        const auto dialect = strict ? schema_dialect::openai_strict : schema_dialect::json_schema_2020_12;
        boost::json::object inner = json_schema<std::vector<int>>({.dialect = dialect});
        EXPECT_EQ(f.schema().contains("$schema"), inner.erase("$schema") == 1); // at the root only
        EXPECT_EQ(f.schema().at("properties").at("data"), inner);
    }
}

TEST(model_response_format, json_round_trips) {
    EXPECT_EQ(json_text(response_format::text()), R"({"type":"text"})");
    EXPECT_EQ(json_text(response_format::json()), R"({"type":"json"})");
    const auto f = response_format::json_schema("n", R"({"type":"integer"})", "d", true);
    EXPECT_EQ(json_text(f), R"({"type":"json_schema","name":"n","schema":{"type":"integer"},)"
                            R"("description":"d","strict":true})");
    for (const auto& format : {response_format::text(), response_format::json(), f,
                               response_format::json_schema("m", boost::json::object{}),
                               response_format::for_type<person>()}) {
        EXPECT_EQ(through_json_text(format), format);
    }
}

TEST(model_response_format, bad_json_is_a_json_error_or_a_schema_error) {
    EXPECT_THROW(from_text<response_format>(R"({"type":"yaml"})"), json_error);
    EXPECT_THROW(from_text<response_format>(R"({"type":"json_schema","name":"n"})"), json_error);
    EXPECT_THROW(from_text<response_format>(R"({"type":"json_schema","name":"n","schema":[]})"),
                 json_error);
    EXPECT_THROW(from_text<response_format>(R"({"type":"json_schema","name":"bad name","schema":{}})"),
                 schema_error);
}

} // namespace
