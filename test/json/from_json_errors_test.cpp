#include <forma/json/from_json.hpp>

#include "test_types.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace test_types;

namespace {

struct order_item {
    std::string name;
    int quantity = 0;
};
BOOST_DESCRIBE_STRUCT(order_item, (), (name, quantity))

struct order {
    std::vector<order_item> items;
    address ship_to;
    std::uint8_t count = 0;
    unit units = unit::c;
};
BOOST_DESCRIBE_STRUCT(order, (), (items, ship_to, count, units))

struct contact {
    std::string name;
    int age = 0;
    std::string email;
    std::optional<std::string> nickname;
    bool operator==(const contact&) const = default;
};
BOOST_DESCRIBE_STRUCT(contact, (), (name, age, email, nickname))

struct nested {
    std::vector<nested> inner;
};
BOOST_DESCRIBE_STRUCT(nested, (), (inner))

// The error of parsing `json` as T; fails the test when parsing succeeds.
template <class T>
forma::json_error error_of(std::string_view json, const forma::parse_options& options = {}) {
    auto r = forma::try_from_json<T>(json, options);
    EXPECT_TRUE(r.has_error()) << "parsed without error: " << json;
    return r.has_error() ? r.error() : forma::json_error("", "no error");
}

using int_map = std::map<std::string, int>;

::testing::AssertionResult starts_with(const std::string& text, std::string_view prefix) {
    if (text.starts_with(prefix)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << '"' << text << "\" does not start with \"" << prefix << '"';
}

const char* valid_order_prefix = R"({"items":[],"ship_to":{"street":"s","zip":"z"},)";

} // namespace

TEST(from_json_errors, a_wrong_type_names_the_member_and_the_value) {
    const auto e = error_of<person>(R"({"name":"A","age":"x"})");
    EXPECT_STREQ(e.what(), R"(at /age: expected integer, got string "x")");
    EXPECT_EQ(e.path(), "/age");
    EXPECT_EQ(e.reason(), R"(expected integer, got string "x")");
    EXPECT_EQ(e.offset(), 18u);
}

TEST(from_json_errors, every_kind_of_found_value_is_described) {
    EXPECT_EQ(error_of<int>("true").reason(), "expected integer, got true");
    EXPECT_EQ(error_of<int>("null").reason(), "expected integer, got null");
    EXPECT_EQ(error_of<int>("[1]").reason(), "expected integer, got array");
    EXPECT_EQ(error_of<std::string>("{}").reason(), "expected string, got object");
    EXPECT_EQ(error_of<bool>("1.5").reason(), "expected boolean, got number 1.5");
    EXPECT_EQ(error_of<int>("1.5").reason(), "expected integer, got number 1.5");
    EXPECT_EQ(error_of<person>("[]").reason(), "expected object, got array");
    EXPECT_EQ(error_of<int>(std::string("\"") + std::string(60, 'a') + "\"").reason(),
              "expected integer, got string \"" + std::string(40, 'a') + "...\"")
        << "long strings are cut";
    // The found string is shown as the JSON text spells it, escapes whole and not doubled.
    EXPECT_EQ(error_of<int>(R"("a\"b\n\u00e9")").reason(), R"(expected integer, got string "a\"b\n\u00e9")");
    EXPECT_EQ(error_of<int>("\"" + std::string(39, 'a') + "\\u00e9\"").reason(),
              "expected integer, got string \"" + std::string(39, 'a') + "\\u00e9\"");
    EXPECT_EQ(error_of<int>("\"" + std::string(39, 'a') + "\\u00e9bbb\"").reason(),
              "expected integer, got string \"" + std::string(39, 'a') + "\\u00e9...\"");
}

TEST(from_json_errors, a_broken_literal_is_invalid_json_at_its_place_not_a_value_of_another_type) {
    // {"paid": tru} once read as "expected boolean, got true".
    const auto e = error_of<widths>(R"({"b": tru})");
    EXPECT_EQ(e.path(), "/b");
    EXPECT_EQ(e.reason(), "invalid JSON: invalid literal (line 1, column 7)");
    EXPECT_EQ(error_of<int>("nul").reason(), "invalid JSON: invalid literal (line 1, column 1)");
    EXPECT_EQ(error_of<bool>(" tr").reason(), "invalid JSON: invalid literal (line 1, column 2)");
    EXPECT_EQ(error_of<std::vector<std::string>>("[fals]").reason(), "invalid JSON: invalid literal (line 1, column 2)");
    // Whole literals of the wrong type are still type mismatches.
    EXPECT_EQ(error_of<int>("true").reason(), "expected integer, got true");
    EXPECT_EQ(error_of<bool>("null").reason(), "expected boolean, got null");
}

TEST(from_json_errors, a_missing_required_member_is_reported_on_its_object) {
    const auto e = error_of<order>(R"({"items":[],"ship_to":{"street":"s"},"count":1,"units":"c"})");
    EXPECT_STREQ(e.what(), R"(at /ship_to: missing required member "zip")");
}

TEST(from_json_errors, an_unknown_enum_value_lists_the_allowed_ones) {
    const auto e = error_of<order>(std::string(valid_order_prefix) + R"("count":1,"units":"k"})");
    EXPECT_STREQ(e.what(), R"(at /units: "k" is not one of "c", "f")");
    EXPECT_EQ(error_of<unit>("3").reason(), R"(expected one of "c", "f", got number 3)");
}

TEST(from_json_errors, an_integer_out_of_range_names_the_width) {
    EXPECT_STREQ(error_of<order>(std::string(valid_order_prefix) + R"("count":300,"units":"c"})").what(),
                 "at /count: 300 does not fit in uint8_t");
    EXPECT_EQ(error_of<std::uint32_t>("-1").reason(), "-1 does not fit in uint32_t");
    EXPECT_EQ(error_of<std::int64_t>("9223372036854775808").reason(),
              "9223372036854775808 does not fit in int64_t");
    EXPECT_EQ(error_of<std::uint64_t>("18446744073709551616").reason(),
              "18446744073709551616 does not fit in uint64_t");
    EXPECT_EQ(error_of<std::int16_t>("1e10").reason(), "1e10 does not fit in int16_t");
    EXPECT_EQ(error_of<float>("1e39").reason(), "1e39 does not fit in float");
    EXPECT_EQ(error_of<double>("1e400").reason(), "1e400 does not fit in double");
}

TEST(from_json_errors, paths_go_through_arrays_and_objects) {
    const auto e = error_of<order>(R"({"items":[{"name":"a","quantity":1},{"name":"b","quantity":2},
        {"name":"c","quantity":3},{"name":7,"quantity":4}],"ship_to":{"street":"s","zip":"z"},
        "count":1,"units":"c"})");
    EXPECT_EQ(e.path(), "/items/3/name");
    EXPECT_EQ(e.reason(), "expected string, got number 7");
}

TEST(from_json_errors, path_tokens_escape_tilde_and_slash) {
    const auto e = error_of<int_map>(R"({"a/b~c":"x"})");
    EXPECT_EQ(e.path(), "/a~1b~0c");
}

TEST(from_json_errors, invalid_json_reports_line_and_column) {
    const auto e = error_of<person>("{\"name\":\"A\",\n \"age\" 3}");
    EXPECT_EQ(e.reason(), "invalid JSON: expected ':' after a member name (line 2, column 8)");
    EXPECT_EQ(error_of<person>(R"({"name":"A","age":1,})").reason(),
              "invalid JSON: expected a member name in double quotes (line 1, column 21)");
    EXPECT_EQ(error_of<std::vector<int>>("[1,2").reason(),
              "invalid JSON: unexpected end of input (expected ',' or ']' after an array element)");
    EXPECT_EQ(error_of<std::vector<int>>("[1 2]").reason(),
              "invalid JSON: expected ',' or ']' after an array element (line 1, column 4)");
    EXPECT_EQ(error_of<int>("").reason(),
              "invalid JSON: unexpected end of input, expected a value (line 1, column 1)");
    EXPECT_EQ(error_of<int>("01").reason(),
              "invalid JSON: invalid number: leading zeros are not allowed (line 1, column 1)");
    EXPECT_EQ(error_of<double>("1.").reason(), "invalid JSON: invalid number (line 1, column 1)");
    EXPECT_EQ(error_of<double>("-").reason(), "invalid JSON: invalid number (line 1, column 1)");
    EXPECT_EQ(error_of<bool>("tru").reason(), "invalid JSON: invalid literal (line 1, column 1)");
    EXPECT_EQ(error_of<person>(R"({"name":"A","age":1,"x":nul})").path(), "/x");
}

TEST(from_json_errors, trailing_garbage_is_an_error) {
    EXPECT_EQ(error_of<int>("1 2").reason(),
              "invalid JSON: unexpected characters after the JSON value (line 1, column 3)");
    EXPECT_EQ(error_of<person>(R"({"name":"A","age":1}})").reason(),
              "invalid JSON: unexpected characters after the JSON value (line 1, column 21)");
}

TEST(from_json_errors, strings_must_be_valid_utf8_without_raw_control_characters) {
    for (const char* bad : {"\"\x80\"", "\"\xc3\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"",
                            "\"\xff\""}) {
        EXPECT_TRUE(starts_with(error_of<std::string>(bad).reason(), "invalid JSON: invalid UTF-8 in string"))
            << bad;
    }
    EXPECT_TRUE(starts_with(error_of<std::string>("\"a\nb\"").reason(), "invalid JSON: unescaped control character in string"));
    // Invalid UTF-8 in a member name and in a skipped member is found too.
    EXPECT_TRUE(starts_with(error_of<person>("{\"\xff\":1}").reason(), "invalid JSON: invalid UTF-8 in string"));
    EXPECT_EQ(error_of<person>("{\"name\":\"A\",\"age\":1,\"x\":[\"\xff\"]}").path(), "/x/0");
}

TEST(from_json_errors, bad_escapes_are_errors) {
    EXPECT_TRUE(starts_with(error_of<std::string>(R"("\x")").reason(), "invalid JSON: invalid escape sequence in string"));
    EXPECT_TRUE(starts_with(error_of<std::string>(R"("\u12")").reason(), "invalid JSON: invalid \\u escape: expected four hex digits"));
    EXPECT_TRUE(starts_with(error_of<std::string>(R"("\ud800")").reason(), "invalid JSON: invalid \\u escape: unpaired high surrogate"));
    EXPECT_TRUE(starts_with(error_of<std::string>(R"("\udc00")").reason(), "invalid JSON: invalid \\u escape: unpaired low surrogate"));
    EXPECT_EQ(error_of<std::string>(R"("abc)").reason(), "invalid JSON: unexpected end of input (unterminated string)");
}

TEST(from_json_errors, nesting_deeper_than_the_limit_is_an_error_not_a_crash) {
    std::string deep;
    for (int i = 0; i < 100000; ++i) deep += R"({"inner":[)";
    const auto e = error_of<nested>(deep);
    EXPECT_EQ(e.reason(), "nesting is deeper than the limit of 64 (parse_options::max_depth)");
    // 64 levels of arrays in a skipped member pass; one more does not.
    const auto skipped = [](int levels) {
        return R"({"name":"A","age":1,"x":)" + std::string(levels, '[') + std::string(levels, ']') + "}";
    };
    EXPECT_TRUE(forma::try_from_json<person>(skipped(63)).has_value());
    EXPECT_TRUE(forma::try_from_json<person>(skipped(64)).has_error());
    EXPECT_TRUE(forma::try_from_json<person>(skipped(64), {.max_depth = 65}).has_value());
}

TEST(from_json_errors, strings_past_the_length_limit_are_errors_at_their_opening_quote) {
    const forma::parse_options limit{.max_string_length = 5};
    EXPECT_TRUE(forma::try_from_json<person>(R"({"name":"Alice","age":1})", limit).has_value());
    const auto e = error_of<person>(R"({"name":"Alice!","age":1})", limit);
    EXPECT_EQ(e.reason(), "a string is longer than the limit of 5 bytes (parse_options::max_string_length)");
    EXPECT_EQ(e.path(), "/name");
    EXPECT_EQ(e.offset(), 8u);
    // The limit counts bytes after unescaping: "\u0041" is one byte.
    EXPECT_TRUE(forma::try_from_json<person>(R"({"name":"\u0041\u0042\u0043\u0044\u0045","age":1})", limit)
                    .has_value());
    EXPECT_EQ(error_of<person>(R"({"name":"ABCD\nE","age":1})", limit).path(), "/name");
    // Member names count too, known or skipped, and so do strings inside skipped members.
    EXPECT_EQ(error_of<person>(R"({"name":"A","age":1,"toolong":1})", limit).offset(), 20u);
    EXPECT_EQ(error_of<person>(R"({"name":"A","age":1,"x":["ok","toolong"]})", limit).path(), "/x/1");
    EXPECT_TRUE(forma::try_from_json<person>(R"({"name":"A","age":1,"x":["ok","fine!"]})", limit).has_value());
    // The default is generous: a megabyte-long value passes.
    EXPECT_TRUE(forma::try_from_json<person>(R"({"name":")" + std::string(1 << 20, 'a') + R"(","age":1})")
                    .has_value());
}

TEST(from_json_errors, text_ending_where_a_pair_key_should_start_is_an_end_of_input_error) {
    // Found by fuzz_from_json: the byte after the text was read. An exact-size buffer lets
    // AddressSanitizer see such a read (a std::string has a terminator behind its text).
    const std::string_view json = R"([{"key":)";
    const auto exact = std::make_unique<char[]>(json.size());
    std::copy(json.begin(), json.end(), exact.get());
    const auto e = forma::try_from_json<std::map<std::string, int>>(std::string_view(exact.get(), json.size())).error();
    EXPECT_EQ(e.path(), "/0/key");
    EXPECT_NE(e.reason().find("unexpected end of input"), std::string::npos) << e.reason();
}

TEST(from_json_errors, duplicate_members_are_errors_known_or_not) {
    EXPECT_STREQ(error_of<person>(R"({"name":"A","age":1,"name":"B"})").what(), R"(duplicate member "name")");
    EXPECT_STREQ(error_of<person>(R"({"name":"A","age":1,"x":1,"x":2})").what(), R"(duplicate member "x")");
    EXPECT_EQ(error_of<person>(R"({"name":"A","age":1,"x":{"y":1,"y":2}})").path(), "/x");
    EXPECT_STREQ(error_of<int_map>(R"({"a":1,"a":2})").what(), R"(duplicate member "a")");
    // Many distinct unknown members stay linear and a duplicate among them is still found.
    std::string many = R"({"name":"A","age":1)";
    for (int i = 0; i < 200; ++i) many += ",\"k" + std::to_string(i) + "\":0";
    EXPECT_TRUE(forma::try_from_json<person>(many + "}").has_value());
    EXPECT_STREQ(error_of<person>(many + ",\"k7\":1}").what(), R"(duplicate member "k7")");
}

// A member expected next is recognized by its bytes in place; every other spelling still reads.
TEST(from_json_errors, member_names_are_the_same_however_they_are_written) {
    const auto alice = forma::try_from_json<person>(R"({"n\u0061me":"Alice","\u0061ge":30})");
    ASSERT_TRUE(alice.has_value());
    EXPECT_EQ(alice.value().name, "Alice");
    EXPECT_EQ(alice.value().age, 30);
    EXPECT_STREQ(error_of<person>(R"({"name":"A","n\u0061me":"B","age":1})").what(), R"(duplicate member "name")");
    EXPECT_STREQ(error_of<person>(R"({"age":1,"name":"A","age":2})").what(), R"(duplicate member "age")");
    // A name that starts with the expected one is another member.
    EXPECT_STREQ(error_of<person>(R"({"names":"A","age":1})", {.reject_unknown_members = true}).what(),
                 R"(unknown member "names" (parse_options::reject_unknown_members is set))");
    EXPECT_EQ(error_of<person>(R"({"name)").reason(), "invalid JSON: unexpected end of input (unterminated string)");
    EXPECT_EQ(error_of<person>(R"({"name")").reason(), "invalid JSON: unexpected end of input (expected ':' after a member name)");
    EXPECT_EQ(error_of<person>(R"({"name" "A"})").offset(), 8u);
    // A name longer than the string limit is refused as any string is.
    const auto limited = error_of<person>(R"({"name":"A","age":1})", {.max_string_length = 3});
    EXPECT_EQ(limited.reason(), "a string is longer than the limit of 3 bytes (parse_options::max_string_length)");
    EXPECT_EQ(limited.offset(), 1u);
}

// Members are read in declaration order by their constant names, and out of it by a lookup: the
// reader goes back and forth between the two. Every order, with an unknown member anywhere, reads
// the same, and a member given twice is an error wherever the second one stands.
TEST(from_json_errors, members_in_any_order_read_the_same_and_a_second_one_is_found) {
    using member_list = std::vector<std::pair<std::string, std::string>>;
    const member_list members = {{"name", R"("Alice")"}, {"age", "30"}, {"email", R"("a@example.com")"}, {"nickname", R"("Al")"}};
    const contact expected{"Alice", 30, "a@example.com", "Al"};
    auto object = [](const member_list& list) {
        std::string json = "{";
        for (const auto& [name, value] : list) json += (json.size() > 1 ? ",\"" : "\"") + name + "\":" + value;
        return json + "}";
    };
    std::vector<std::size_t> order = {0, 1, 2, 3};
    int reads = 0;
    do {
        member_list list;
        for (const std::size_t i : order) list.push_back(members[i]);
        std::vector<member_list> variants = {list};
        for (std::size_t at = 0; at <= list.size(); ++at) {
            variants.push_back(list);
            variants.back().insert(variants.back().begin() + static_cast<std::ptrdiff_t>(at), {"extra", "[1,{}]"});
        }
        for (const member_list& variant : variants) {
            const auto read = forma::try_from_json<contact>(object(variant));
            ASSERT_TRUE(read.has_value()) << object(variant) << ": " << read.error().what();
            EXPECT_EQ(read.value(), expected) << object(variant);
            ++reads;
        }
        for (std::size_t first = 0; first < list.size(); ++first)
            for (std::size_t at = first + 1; at <= list.size(); ++at) {
                member_list twice = list;
                twice.insert(twice.begin() + static_cast<std::ptrdiff_t>(at), list[first]);
                EXPECT_EQ(error_of<contact>(object(twice)).reason(), "duplicate member \"" + list[first].first + "\"")
                    << object(twice);
            }
    } while (std::next_permutation(order.begin(), order.end()));
    EXPECT_EQ(reads, 24 * 6);
}

TEST(from_json_errors, unknown_members_are_rejected_when_asked) {
    const auto e = error_of<person>(R"({"name":"A","age":1,"extra":true})", {.reject_unknown_members = true});
    EXPECT_EQ(e.reason(), R"(unknown member "extra" (parse_options::reject_unknown_members is set))");
}

TEST(from_json_errors, std_array_needs_exactly_its_size) {
    EXPECT_EQ((error_of<std::array<int, 3>>("[1,2]").reason()), "expected exactly 3 items, got 2");
    EXPECT_EQ((error_of<std::array<int, 3>>("[1,2,3,4]").reason()), "expected exactly 3 items, got more");
}

TEST(from_json_errors, a_variant_reports_why_each_alternative_failed) {
    const auto e = error_of<drawing>(R"({"shapes":[{"radius":"big"}],"tag":1})");
    EXPECT_EQ(e.path(), "/shapes/0");
    EXPECT_EQ(e.reason(), "matches none of the alternatives (as shape_circle: at /radius: expected number, "
                          "got string \"big\"; as shape_square: missing required member \"side\")");
    EXPECT_EQ(error_of<drawing>(R"({"shapes":[],"tag":true})").reason(),
              "expected integer or string or null, got true");
}

TEST(from_json_errors, a_map_pair_needs_key_and_value) {
    EXPECT_EQ(error_of<int_map>(R"([{"key":"a"}])").reason(), R"(missing required member "value")");
    EXPECT_EQ(error_of<int_map>(R"([{"key":"a","value":1},{"key":"a","value":2}])").path(), "/1");
}

TEST(from_json_errors, declared_constraints_are_checked) {
    const auto base = [](std::string_view member, std::string_view value) {
        std::string json = R"({"code":"ABC","score":1,"tags":["x"],"ratio":null,"email":"a@b.io"})";
        std::string key(1, '"');
        key.append(member).append("\":");
        const auto start = json.find(key) + key.size();
        const auto end = json.find_first_of(",}", json[start] == '[' ? json.find(']', start) : start);
        return json.substr(0, start) + std::string(value) + json.substr(end);
    };
    EXPECT_STREQ(error_of<constrained>(base("code", R"("AB")")).what(),
                 R"(at /code: "AB" is shorter than the minimum length 3)");
    EXPECT_STREQ(error_of<constrained>(base("code", R"("ABCD")")).what(),
                 R"(at /code: "ABCD" is longer than the maximum length 3)");
    EXPECT_STREQ(error_of<constrained>(base("code", R"("abc")")).what(),
                 R"(at /code: "abc" does not match the pattern "^[A-Z]+$")");
    // `$` holds at the string's end only, and the line break is quoted as JSON writes it.
    EXPECT_STREQ(error_of<constrained>(base("code", R"("AB\n")")).what(),
                 R"(at /code: "AB\n" does not match the pattern "^[A-Z]+$")");
    EXPECT_STREQ(error_of<constrained>(base("score", "101")).what(), "at /score: 101 is greater than the maximum 100");
    EXPECT_STREQ(error_of<constrained>(base("score", "-1")).what(), "at /score: -1 is less than the minimum 0");
    EXPECT_STREQ(error_of<constrained>(base("tags", "[]")).what(),
                 "at /tags: array has 0 items, fewer than the minimum 1");
    EXPECT_STREQ(error_of<constrained>(base("tags", R"(["a","b","c","d"])")).what(),
                 "at /tags: array has 4 items, more than the maximum 3");
    EXPECT_STREQ(error_of<constrained>(base("tags", R"(["ok","toolong"])")).what(),
                 R"(at /tags/1: "toolong" is longer than the maximum length 5)");
    EXPECT_STREQ(error_of<constrained>(base("ratio", "1")).what(),
                 "at /ratio: 1 is not less than the exclusive maximum 1");
    EXPECT_STREQ(error_of<constrained>(base("email", R"("nobody")")).what(),
                 R"(at /email: "nobody" is not a valid email)");
}

TEST(from_json_errors, lengths_count_code_points_not_bytes) {
    // "ÉÉÉ" is 6 bytes but 3 characters: within min_length 3 / max_length 3, yet not [A-Z].
    EXPECT_EQ(error_of<constrained>(
                  "{\"code\":\"\xc3\x89\xc3\x89\xc3\x89\",\"score\":1,\"tags\":[\"x\"],\"email\":\"a@b.io\"}")
                  .reason(),
              "\"\xc3\x89\xc3\x89\xc3\x89\" does not match the pattern \"^[A-Z]+$\"");
}
