// field_info::json_name: a member whose JSON name cannot be its C++ name ("protected",
// "@type", "first-name") is read, written, streamed, described in schemas and named in
// errors by its JSON name, never by its C++ one.

#include <forma/json/from_json.hpp>
#include <forma/json/json_schema.hpp>
#include <forma/json/partial_reader.hpp>
#include <forma/json/to_json.hpp>

#include <boost/describe.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include <optional>
#include <string>

// Its own namespace: the binary compiles its sources together (FORMA_UNITY_TESTS).
namespace json_name_test {

struct account {
    std::string first_name;
    bool is_protected = false;
    std::optional<std::string> kind;
    int followers = 0;
    friend bool operator==(const account&, const account&) = default;
};
BOOST_DESCRIBE_STRUCT(account, (), (first_name, is_protected, kind, followers))
FORMA_DESCRIBE_FIELDS(account, (first_name, .json_name = "first-name", .min_length = 1),
                      (is_protected, .json_name = "protected"), (kind, .json_name = "@type", .description = "what it is"),
                      (followers, .json_name = "Anzahl der Folgenden: \u00e4"));

const std::string account_json =
    R"({"first-name":"Ada","protected":true,"@type":"person","Anzahl der Folgenden: \u00e4":12})";
const std::string account_utf8 =
    "{\"first-name\":\"Ada\",\"protected\":true,\"@type\":\"person\",\"Anzahl der Folgenden: \xc3\xa4\":12}";
const account ada{.first_name = "Ada", .is_protected = true, .kind = "person", .followers = 12};

TEST(json_name, a_member_is_read_and_written_under_its_json_name) {
    EXPECT_EQ(forma::from_json<account>(account_json), ada) << "an escaped name matches too";
    EXPECT_EQ(forma::from_json<account>(account_utf8), ada);
    EXPECT_EQ(forma::to_json(ada), account_utf8);
    EXPECT_EQ(forma::from_json<account>(forma::to_json(ada)), ada);
}

TEST(json_name, the_cpp_name_is_an_unknown_member_and_errors_name_the_json_one) {
    const auto skipped = forma::try_from_json<account>(
        R"({"first-name":"Ada","protected":true,"is_protected":false,"Anzahl der Folgenden: )"
        "\xc3\xa4\":1}");
    ASSERT_TRUE(skipped.has_value()) << skipped.error().what();
    EXPECT_TRUE(skipped->is_protected) << "is_protected is not a name in JSON";

    const auto missing = forma::try_from_json<account>(R"({"first-name":"Ada","is_protected":true})");
    ASSERT_FALSE(missing.has_value());
    EXPECT_NE(std::string(missing.error().what()).find("missing required member \"protected\""), std::string::npos)
        << missing.error().what();

    const auto wrong = forma::try_from_json<account>(R"({"first-name":"Ada","protected":"yes"})");
    ASSERT_FALSE(wrong.has_value());
    EXPECT_EQ(wrong.error().path(), "/protected");

    const auto short_name = forma::try_from_json<account>(R"({"first-name":"","protected":true})");
    ASSERT_FALSE(short_name.has_value());
    EXPECT_EQ(short_name.error().path(), "/first-name") << "a constraint declared beside the json_name holds";

    const auto twice = forma::try_from_json<account>(R"({"protected":true,"protected":false})");
    ASSERT_FALSE(twice.has_value());
    EXPECT_NE(std::string(twice.error().what()).find("duplicate member \"protected\""), std::string::npos)
        << twice.error().what();
}

TEST(json_name, schemas_list_the_json_names_in_both_dialects) {
    for (const auto dialect : {forma::schema_dialect::json_schema_2020_12, forma::schema_dialect::openai_strict}) {
        const boost::json::value schema = forma::json_schema<account>({.dialect = dialect});
        const boost::json::object& properties = schema.at("properties").as_object();
        EXPECT_TRUE(properties.contains("protected")) << boost::json::serialize(schema);
        EXPECT_TRUE(properties.contains("first-name"));
        EXPECT_FALSE(properties.contains("is_protected"));
        EXPECT_EQ(properties.at("@type").at("description"), "what it is") << boost::json::serialize(schema);
        const boost::json::array& required = schema.at("required").as_array();
        EXPECT_NE(std::find(required.begin(), required.end(), boost::json::value("protected")), required.end());
    }
}

TEST(json_name, the_partial_reader_fills_members_by_their_json_names) {
    forma::partial_reader<account> reader;
    const std::string_view text = account_utf8;
    const std::size_t cut = text.find("\"@type\"");
    ASSERT_TRUE(reader.feed(text.substr(0, cut)));
    EXPECT_EQ(reader.get()[&account::first_name].value(), "Ada");
    EXPECT_EQ(reader.get()[&account::is_protected].value(), true);
    ASSERT_TRUE(reader.feed(text.substr(cut)));
    EXPECT_EQ(reader.finish().value(), ada);
    std::vector<std::string> names;
    reader.get().for_each_member([&](std::string_view name, const auto&) { names.emplace_back(name); });
    EXPECT_EQ(names, (std::vector<std::string>{"first-name", "protected", "@type", "Anzahl der Folgenden: \xc3\xa4"}));
}

} // namespace json_name_test
