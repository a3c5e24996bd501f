// from_json_errors: every error of one answer, each at its JSON Pointer, the first one
// the error try_from_json gives.
#include <forma/json/detail/wrapped_reading.hpp>
#include <forma/json/from_json.hpp>

#include "test_types.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

using namespace test_types;

namespace {

struct team {
    std::string name;
    person lead;
    std::vector<person> members;
    std::map<std::string, int> scores;
};
BOOST_DESCRIBE_STRUCT(team, (), (name, lead, members, scores))

// "path: reason" for each error, to compare lists in one line.
std::vector<std::string> described(const std::vector<forma::json_error>& errors) {
    std::vector<std::string> out;
    for (const auto& e : errors) out.push_back(e.path() + ": " + e.reason());
    return out;
}

// The first error of the list is the one try_from_json reports.
template <class T>
void expect_first_is_the_single_error(std::string_view json, const std::vector<forma::json_error>& errors) {
    const auto single = forma::try_from_json<T>(json);
    ASSERT_TRUE(single.has_error());
    ASSERT_FALSE(errors.empty());
    EXPECT_EQ(errors.front().path(), single.error().path());
    EXPECT_EQ(errors.front().reason(), single.error().reason());
    EXPECT_EQ(errors.front().offset(), single.error().offset());
}

using strings = std::vector<std::string>;

} // namespace

TEST(from_json_all_errors, a_valid_document_has_none) {
    EXPECT_TRUE(forma::from_json_errors<person>(R"({"name":"Ada","age":36})").empty());
}

TEST(from_json_all_errors, every_wrong_member_of_an_object_is_listed_in_order) {
    const std::string json = R"({"name":7,"age":"old","occupation":false})";
    const auto errors = forma::from_json_errors<person>(json);
    EXPECT_EQ(described(errors), (strings{R"(/name: expected string, got number 7)",
                                          R"(/age: expected integer, got string "old")",
                                          R"(/occupation: expected string, got false)"}));
    expect_first_is_the_single_error<person>(json, errors);
}

TEST(from_json_all_errors, each_missing_required_member_is_an_error_of_its_object) {
    const std::string json = R"({"name":"x","lead":{"age":"?"},"members":[]})";
    const auto errors = forma::from_json_errors<team>(json);
    EXPECT_EQ(described(errors), (strings{R"(/lead/age: expected integer, got string "?")",
                                          R"(/lead: missing required member "name")",
                                          R"(: missing required member "scores")"}));
    expect_first_is_the_single_error<team>(json, errors);
}

TEST(from_json_all_errors, array_elements_and_map_values_are_stepped_over_one_by_one) {
    const std::string json =
        R"({"name":"t","lead":{"name":"a","age":1},)"
        R"("members":[{"name":"b","age":2},{"name":3,"age":4},{"name":"c"}],"scores":{"x":1,"y":"two","z~/":[]}})";
    const auto errors = forma::from_json_errors<team>(json);
    EXPECT_EQ(described(errors), (strings{R"(/members/1/name: expected string, got number 3)",
                                          R"(/members/2: missing required member "age")",
                                          R"(/scores/y: expected integer, got string "two")",
                                          R"(/scores/z~0~1: expected integer, got array)"}));
    expect_first_is_the_single_error<team>(json, errors);
}

// The first elements of an empty vector are staged before it allocates; errors on both sides of
// that point keep their index, and every element read stays in place.
TEST(from_json_all_errors, errors_before_and_after_the_staged_elements_keep_their_index) {
    std::string members;
    for (int i = 0; i < 20; ++i) {
        if (i) members += ',';
        if (i == 3 || i == 10) {
            members += R"({"name":"m","age":"?"})";
        } else {
            members += R"({"name":"m)";
            members += std::to_string(i);
            members += R"(","age":1})";
        }
    }
    const std::string json = R"({"name":"t","lead":{"name":"a","age":1},"members":[)" + members + R"(],"scores":{}})";
    const auto errors = forma::from_json_errors<team>(json);
    EXPECT_EQ(described(errors), (strings{R"(/members/3/age: expected integer, got string "?")",
                                          R"(/members/10/age: expected integer, got string "?")"}));
    expect_first_is_the_single_error<team>(json, errors);
}

TEST(from_json_all_errors, broken_constraints_are_listed_with_the_members_after_them) {
    const std::string json =
        R"({"code":"abcd","score":150,"tags":[],"ratio":1,"email":"nobody"})";
    const auto errors = forma::from_json_errors<constrained>(json);
    ASSERT_EQ(errors.size(), 5u) << ::testing::PrintToString(described(errors));
    EXPECT_EQ(errors[0].path(), "/code");
    EXPECT_EQ(errors[1].path(), "/score");
    EXPECT_EQ(errors[2].path(), "/tags");
    EXPECT_EQ(errors[3].path(), "/ratio");
    EXPECT_EQ(errors[4].path(), "/email");
    expect_first_is_the_single_error<constrained>(json, errors);
}

TEST(from_json_all_errors, a_syntax_error_ends_the_list_after_the_errors_before_it) {
    const std::string json = R"({"name":1,"age":tru,"occupation":2})";
    const auto errors = forma::from_json_errors<person>(json);
    ASSERT_EQ(errors.size(), 2u) << ::testing::PrintToString(described(errors));
    EXPECT_EQ(errors[0].path(), "/name");
    EXPECT_EQ(errors[1].path(), "/age");
    EXPECT_EQ(errors[1].reason(), "invalid JSON: invalid literal (line 1, column 17)");
}

TEST(from_json_all_errors, a_syntax_error_inside_a_value_being_stepped_over_ends_the_list) {
    const auto errors = forma::from_json_errors<team>(R"({"name":"t","lead":{"name":1,"age":[1,}})");
    EXPECT_EQ(described(errors), (strings{R"(/lead/name: expected string, got number 1)",
                                          R"(/lead/age: expected integer, got array)",
                                          R"(/lead/age/1: invalid JSON: invalid number (line 1, column 39))"}));
}

TEST(from_json_all_errors, text_that_is_not_json_is_one_error) {
    const auto errors = forma::from_json_errors<person>("Here is the person: {\"name\":\"Ada\"}");
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].path(), "");
    EXPECT_TRUE(errors[0].reason().starts_with("invalid JSON")) << errors[0].reason();
}

TEST(from_json_all_errors, a_variant_no_alternative_takes_is_one_error) {
    const std::string json = R"({"shapes":[{"radius":"r"},{"side":1,"label":"ok"},{"side":"s"}],"tag":[]})";
    const auto errors = forma::from_json_errors<drawing>(json);
    EXPECT_EQ(described(errors).size(), 3u) << ::testing::PrintToString(described(errors));
    ASSERT_GE(errors.size(), 3u);
    EXPECT_EQ(errors[0].path(), "/shapes/0");
    EXPECT_EQ(errors[1].path(), "/shapes/2");
    EXPECT_EQ(errors[2].path(), "/tag");
    expect_first_is_the_single_error<drawing>(json, errors);
}

TEST(from_json_all_errors, the_list_stops_at_its_limit) {
    std::string json = "[";
    for (int i = 0; i < 50; ++i) json += (i ? ",\"x\"" : "\"x\"");
    json += "]";
    EXPECT_EQ(forma::from_json_errors<std::vector<int>>(json).size(), 20u);
    EXPECT_EQ(forma::from_json_errors<std::vector<int>>(json, {}, 3).size(), 3u);
    EXPECT_TRUE(forma::from_json_errors<std::vector<int>>(json, {}, 0).empty());
}

TEST(from_json_all_errors, unknown_members_are_listed_when_rejected) {
    const auto errors = forma::from_json_errors<person>(R"({"name":"a","extra":{"deep":[1]},"age":"x","more":1})",
                                                        {.reject_unknown_members = true});
    EXPECT_EQ(described(errors),
              (strings{R"(: unknown member "extra" (parse_options::reject_unknown_members is set))",
                       R"(/age: expected integer, got string "x")",
                       R"(: unknown member "more" (parse_options::reject_unknown_members is set))"}));
}

TEST(from_json_all_errors, paths_inside_deep_documents_are_found_again_from_the_start) {
    const std::string json = R"({"label":"r","children":[{"label":"a","children":[]},)"
                             R"({"label":"b","children":[{"label":1,"children":[]},{"label":"d","children":{}}]}]})";
    const auto errors = forma::from_json_errors<tree>(json);
    EXPECT_EQ(described(errors), (strings{R"(/children/1/children/0/label: expected string, got number 1)",
                                          R"(/children/1/children/1/children: expected array, got object)"}));
    expect_first_is_the_single_error<tree>(json, errors);
}

// Found by fuzz_from_json: finding a path again skipped each enclosing value of a document
// cut short, and every failed skip left its depth behind, until a skip before the error
// failed on depth and the path went into the wrong element.
TEST(from_json_all_errors, paths_are_found_again_in_a_deep_document_cut_short) {
    std::string json;
    for (int level = 0; level < 4; ++level) json += R"({"children":[)";
    json += R"({"label":"","children":[]},{},)";
    for (int level = 0; level < 8; ++level) json += R"({"":[)";
    const auto errors = forma::from_json_errors<tree>(json);
    ASSERT_GE(errors.size(), 2u);
    EXPECT_EQ(errors[0].path(), "/children/0/children/0/children/0/children/1");
    EXPECT_EQ(errors[0].reason(), R"(missing required member "label")");
    expect_first_is_the_single_error<tree>(json, errors);
}

TEST(from_json_all_errors, a_wrapped_answer_reports_errors_inside_data) {
    const auto wrapped_errors = [](std::string_view text) {
        std::vector<int> value;
        return forma::json_detail::read_wrapped_listing_errors(text, value, {}, 20);
    };
    EXPECT_EQ(described(wrapped_errors(R"({"data":[1,"x",3,"y"]})")),
              (strings{R"(/data/1: expected integer, got string "x")", R"(/data/3: expected integer, got string "y")"}));
    // Without "data", the text is read as the value itself.
    EXPECT_EQ(described(wrapped_errors(R"([true,2])")), (strings{R"(/0: expected integer, got true)"}));
}

TEST(from_json_all_errors, a_wrapped_answer_without_errors_is_kept_whole_either_way) {
    std::vector<int> value;
    EXPECT_TRUE(forma::json_detail::read_wrapped_listing_errors(R"({"data":[1,2,3]})", value, {}, 20).empty());
    EXPECT_EQ(value, (std::vector<int>{1, 2, 3}));
    std::vector<int> bare;
    EXPECT_TRUE(forma::json_detail::read_wrapped_listing_errors("[4,5]", bare, {}, 20).empty());
    EXPECT_EQ(bare, (std::vector<int>{4, 5}));
}
