#include <forma/json/to_json.hpp>

#include <forma/json/from_json.hpp>

#include "test_types.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace test_types;
using forma::to_json;

TEST(to_json, writes_compact_json_with_null_for_empty_optionals) {
    EXPECT_EQ(to_json(person{"Ann", 35, std::nullopt}), R"({"name":"Ann","age":35,"occupation":null})");
    EXPECT_EQ(to_json(person{"Ann", 35, "pilot"}), R"({"name":"Ann","age":35,"occupation":"pilot"})");
}

TEST(to_json, escapes_what_json_requires_and_keeps_utf8) {
    EXPECT_EQ(to_json(std::string("a\"b\\c\n\t\x01/é")), R"("a\"b\\c\n\t\u0001/é")");
    const std::string long_text = std::string(30, 'x') + "\"" + std::string(30, 'y');
    EXPECT_EQ(to_json(long_text), "\"" + std::string(30, 'x') + "\\\"" + std::string(30, 'y') + "\"");
}

TEST(to_json, writes_numbers_that_read_back_exactly) {
    EXPECT_EQ(to_json(0.1), "0.1");
    EXPECT_EQ(to_json(std::numeric_limits<std::int64_t>::min()), "-9223372036854775808");
    EXPECT_EQ(to_json(std::numeric_limits<std::uint64_t>::max()), "18446744073709551615");
    for (double d : {0.1, 1e300, -2.5e-308, 123456789.125, 5e-324})
        EXPECT_EQ(forma::from_json<double>(to_json(d)), d);
}

TEST(to_json, writes_enums_variants_maps_and_recursion) {
    EXPECT_EQ(to_json(unit::f), R"("f")");
    drawing d{{shape_circle{1.5}, shape_square{2, "s"}}, std::monostate{}};
    EXPECT_EQ(to_json(d), R"({"shapes":[{"radius":1.5},{"side":2,"label":"s"}],"tag":null})");
    EXPECT_EQ(to_json(std::map<std::string, int>{{"a", 1}, {"b", 2}}), R"({"a":1,"b":2})");
    list_node l{1, std::make_unique<list_node>(list_node{2, std::nullopt})};
    EXPECT_EQ(to_json(l), R"({"value":1,"next":{"value":2,"next":null}})");
}

TEST(to_json, round_trips_with_from_json) {
    containers c{{1, 2}, {"a", "é"}, {0.5}, {1, 2, 3}, {{"k", 1}}, {{"p", {"s", "z"}}}, {true, false}};
    EXPECT_EQ(forma::from_json<containers>(to_json(c)), c);
    tree t{"root", {tree{"a", {}}, tree{"b", {tree{"c", {}}}}}};
    EXPECT_EQ(forma::from_json<tree>(to_json(t)), t);
    employee e;
    e.id = "1";
    e.name = "x";
    EXPECT_EQ(forma::from_json<employee>(to_json(e)), e);
}

TEST(to_json, what_json_cannot_hold_is_a_json_error_with_a_path) {
    try {
        (void)to_json(reading{std::nan(""), unit::c, std::nullopt});
        FAIL() << "NaN was written";
    } catch (const forma::json_error& e) {
        EXPECT_EQ(e.path(), "/value");
    }
    try {
        (void)to_json(std::vector<std::string>{"ok", "bad \xff"});
        FAIL() << "invalid UTF-8 was written";
    } catch (const forma::json_error& e) {
        EXPECT_EQ(e.path(), "/1");
        EXPECT_EQ(e.reason(), "cannot write JSON: string is not valid UTF-8 (byte 4)");
    }
    EXPECT_THROW((void)to_json(static_cast<unit>(9)), forma::json_error);
}

TEST(to_json, value_form_matches_the_text_form) {
    const auto v = forma::to_json_value(person{"A", 1, {}});
    EXPECT_EQ(v.at("name"), "A");
    EXPECT_EQ(v.at("age"), 1);
    EXPECT_TRUE(v.at("occupation").is_null());
}
