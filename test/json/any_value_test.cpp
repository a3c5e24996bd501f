// boost::json::value as a member: any JSON value, read with from_json's checks, written with
// to_json's rules, `{}` in a 2020-12 schema and refused by the strict dialect.

#include <forma/json/from_json.hpp>
#include <forma/json/json_schema.hpp>
#include <forma/json/partial_reader.hpp>
#include <forma/json/to_json.hpp>

#include <boost/describe.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>

// Its own namespace: the binary compiles its sources together (FORMA_UNITY_TESTS).
namespace any_value_test {

namespace json = boost::json;

struct tool_call {
    std::string name;
    json::value arguments;
    std::optional<json::value> metadata;
    friend bool operator==(const tool_call&, const tool_call&) = default;
};
BOOST_DESCRIBE_STRUCT(tool_call, (), (name, arguments, metadata))

TEST(any_value, is_a_mapped_kind_of_its_own) {
    EXPECT_EQ(forma::reflect::mapped_kind_v<json::value>, forma::reflect::mapped_kind::json_value);
    EXPECT_TRUE(forma::reflect::is_json_mappable_v<tool_call>);
}

TEST(any_value, reads_every_kind_of_value_as_it_came) {
    for (const char* text : {R"({"city": "Oslo", "days": [1, 2.5, -3], "when": null, "sure": true})", "[]", "{}", "null", "false",
                             "-0", "18446744073709551615", "-9223372036854775808", "1e300", R"("caf\u00e9 \"q\" \ud83d\ude00 \n")",
                             R"([[[{"deep": [{}]}]]])"}) {
        const std::string json = std::string(R"({"name": "f", "arguments": )") + text + "}";
        const tool_call call = forma::from_json<tool_call>(json);
        EXPECT_EQ(call.arguments, json::parse(text)) << text;
        EXPECT_FALSE(call.metadata.has_value());
        // Written back as Boost.JSON reads it: the same value.
        EXPECT_EQ(json::parse(forma::to_json(call)).at("arguments"), json::parse(text)) << forma::to_json(call);
    }
    const tool_call with = forma::from_json<tool_call>(R"({"name": "f", "arguments": 1, "metadata": {"k": ["v"]}})");
    EXPECT_EQ(with.metadata, json::value(json::parse(R"({"k": ["v"]})")));
    EXPECT_FALSE(forma::from_json<tool_call>(R"({"name": "f", "arguments": 1, "metadata": null})").metadata.has_value())
        << "null in an optional is no value, as for every optional";
    EXPECT_EQ(forma::from_json<json::value>(" [1, {\"a\": \"b\"}] "), json::parse(R"([1, {"a": "b"}])")) << "at the root too";
}

TEST(any_value, is_checked_as_every_value_is) {
    struct bad {
        std::string json;
        std::string path;
        std::string reason;
    };
    for (const bad& b : {bad{R"({"name": "f", "arguments": {"a": 1,}})", "/arguments", "member name"},
                         bad{R"({"name": "f", "arguments": {"a": 1, "a": 2}})", "/arguments", "duplicate"},
                         bad{"{\"name\": \"f\", \"arguments\": [\"\xff\"]}", "/arguments", "UTF-8"},
                         bad{R"({"name": "f", "arguments": [01]})", "/arguments", "leading zero"},
                         bad{R"({"name": "f", "arguments": tru})", "/arguments", ""},
                         bad{R"({"name": "f"})", "", "arguments"}}) {
        const auto read = forma::try_from_json<tool_call>(b.json);
        ASSERT_TRUE(read.has_error()) << b.json;
        EXPECT_EQ(read.error().path().substr(0, b.path.size()), b.path) << read.error().what();
        EXPECT_NE(std::string(read.error().what()).find(b.reason), std::string::npos) << read.error().what();
    }
    // The reader's depth limit holds inside the value.
    const std::string deep = std::string(R"({"name": "f", "arguments": )") + std::string(100, '[') + std::string(100, ']') + "}";
    EXPECT_TRUE(forma::try_from_json<tool_call>(deep).has_error());
    EXPECT_FALSE(forma::try_from_json<tool_call>(deep, {.max_depth = 200}).has_error());
    // Collecting errors goes on past it as past any other.
    const auto errors = forma::from_json_errors<tool_call>(R"({"name": 1, "arguments": {"a": [true]}, "metadata": 2})");
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].path(), "/name");
}

TEST(any_value, is_written_valid_or_not_at_all) {
    tool_call call{.name = "f", .arguments = json::object{{"text", "caf\xc3\xa9 \"\n"}, {"n", json::array{1, -2, 0.5, std::uint64_t{1} << 63}}}, .metadata = {}};
    EXPECT_EQ(forma::to_json(call), R"({"name":"f","arguments":{"text":"café \"\n","n":[1,-2,0.5,9223372036854775808]},"metadata":null})");
    call.arguments = json::object{{"list", json::array{"ok", "\xff"}}};
    try {
        (void)forma::to_json(call);
        ADD_FAILURE() << "invalid UTF-8 written";
    } catch (const forma::json_error& e) {
        EXPECT_EQ(e.path(), "/arguments/list/1");
        EXPECT_NE(std::string(e.what()).find("UTF-8"), std::string::npos) << e.what();
    }
    call.arguments = json::array{1.0, std::nan("")};
    EXPECT_THROW((void)forma::to_json(call), forma::json_error) << "JSON has no NaN";
}

TEST(any_value, has_every_type_in_a_schema_and_none_in_the_strict_dialect) {
    const json::object& schema = forma::json_schema<tool_call>();
    EXPECT_EQ(schema.at("properties").at("arguments"), json::object()) << json::serialize(schema);
    EXPECT_EQ(schema.at("required"), json::array({"name", "arguments"}));
    for (int attempt = 0; attempt < 2; ++attempt) // refused each time, not left half built
        EXPECT_THROW((void)forma::json_schema<tool_call>({.dialect = forma::schema_dialect::openai_strict}), forma::schema_error);
    EXPECT_EQ(&forma::json_schema<tool_call>(), &schema) << "the other dialect's schema is still built once";
}

TEST(any_value, streams_in_a_partial_only_when_whole) {
    forma::partial_reader<tool_call> reader;
    ASSERT_TRUE(reader.feed(R"({"name": "f", "arguments": {"city": "Os)"));
    EXPECT_FALSE(reader.get()[&tool_call::arguments].has_value());
    ASSERT_TRUE(reader.feed(R"(lo", "days": [1, 2]}, "metadata": [)"));
    EXPECT_EQ(reader.get()[&tool_call::arguments].value(), json::parse(R"({"city": "Oslo", "days": [1, 2]})"));
    ASSERT_TRUE(reader.feed("null]}"));
    EXPECT_EQ(reader.finish().value(), forma::from_json<tool_call>(R"({"name": "f", "arguments": {"city": "Oslo", "days": [1, 2]}, "metadata": [null]})"));
}

} // namespace any_value_test
