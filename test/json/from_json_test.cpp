#include <forma/json/from_json.hpp>

#include "test_types.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <utility>

using namespace test_types;
using forma::from_json;

TEST(from_json, reads_a_struct_with_optional_present_absent_and_null) {
    EXPECT_EQ(from_json<person>(R"({"name":"Ann","age":35,"occupation":"pilot"})"),
              (person{"Ann", 35, "pilot"}));
    EXPECT_EQ(from_json<person>(R"({"name":"Ann","age":35})"), (person{"Ann", 35, std::nullopt}));
    EXPECT_EQ(from_json<person>(R"({"age":35,"occupation":null,"name":"Ann"})"),
              (person{"Ann", 35, std::nullopt}));
}

TEST(from_json, accepts_whitespace_everywhere_json_allows_it) {
    EXPECT_EQ(from_json<person>(" \n\t{ \"name\" : \"A\" ,\r\n \"age\" : 1 } \n"), (person{"A", 1, {}}));
}

TEST(from_json, ignores_unknown_members_of_every_kind_by_default) {
    EXPECT_EQ(from_json<person>(R"({"x":{"a":[1,2,{"b":null}]},"name":"A","y":"s","age":2,"z":-1.5e3})"),
              (person{"A", 2, {}}));
}

TEST(from_json, reads_every_integer_width_at_its_bounds) {
    const auto w = from_json<widths>(
        R"({"i8":-128,"u8":255,"i16":-32768,"u16":65535,"i32":-2147483648,"u32":4294967295,
            "i64":-9223372036854775808,"u64":18446744073709551615,"f":1.5,"d":-2.25e-3,"b":true})");
    EXPECT_EQ(w.i8, std::numeric_limits<std::int8_t>::min());
    EXPECT_EQ(w.u8, 255);
    EXPECT_EQ(w.i16, std::numeric_limits<std::int16_t>::min());
    EXPECT_EQ(w.u16, 65535);
    EXPECT_EQ(w.i32, std::numeric_limits<std::int32_t>::min());
    EXPECT_EQ(w.u32, std::numeric_limits<std::uint32_t>::max());
    EXPECT_EQ(w.i64, std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(w.u64, std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(w.f, 1.5f);
    EXPECT_EQ(w.d, -2.25e-3);
    EXPECT_TRUE(w.b);
}

TEST(from_json, integers_may_be_written_with_a_zero_fraction_or_an_exponent) {
    EXPECT_EQ(from_json<int>("35.0"), 35);
    EXPECT_EQ(from_json<int>("2e3"), 2000);
    EXPECT_EQ(from_json<int>("-0"), 0);
    EXPECT_EQ(from_json<std::uint8_t>("2.55E2"), 255);
}

TEST(from_json, doubles_round_trip_exactly_and_tiny_numbers_become_zero) {
    EXPECT_EQ(from_json<double>("0.1"), 0.1);
    EXPECT_EQ(from_json<double>("1.7976931348623157e308"), std::numeric_limits<double>::max());
    EXPECT_EQ(from_json<double>("1e-400"), 0.0);
    EXPECT_TRUE(std::signbit(from_json<double>("-1e-400")));
    EXPECT_EQ(from_json<double>("12"), 12.0);
}

TEST(from_json, decodes_every_escape_and_keeps_utf8) {
    EXPECT_EQ(from_json<std::string>(R"("a\"b\\c\/d\be\ff\ng\rh\ti")"), "a\"b\\c/d\be\ff\ng\rh\ti");
    EXPECT_EQ(from_json<std::string>(R"("\u00e9\u20AC\ud83d\ude00")"), "\u00e9\u20ac\U0001F600");
    EXPECT_EQ(from_json<std::string>("\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\""), "café € 😀");
    EXPECT_EQ(from_json<std::string>(R"("")"), "");
    // Long strings take the 16-byte scanning path; an escape at every position is decoded.
    for (std::size_t at = 0; at < 40; ++at) {
        const std::string before(at, 'x'), after(40 - at, 'x');
        const std::string json = '"' + before + "\\n" + after + '"';
        const std::string expected = before + '\n' + after;
        EXPECT_EQ(from_json<std::string>(json), expected) << "escape at " << at;
    }
}

TEST(from_json, escaped_member_names_match) {
    EXPECT_EQ(from_json<person>(R"({"n\u0061me":"A","\u0061ge":3})"), (person{"A", 3, {}}));
}

TEST(from_json, reads_enums_by_name) {
    EXPECT_EQ(from_json<unit>(R"("f")"), unit::f);
    const auto r = from_json<reading>(R"({"value":21.5,"units":"c","where":{"street":"Main","zip":"1"}})");
    EXPECT_EQ(r, (reading{21.5, unit::c, address{"Main", "1"}}));
}

TEST(from_json, reads_every_container) {
    const auto c = from_json<containers>(R"({
        "numbers":[1,2,3],"words":["a","b"],"values":[0.5],"triple":[7,8,9],
        "counts":{"x":1,"y":2},"places":{"home":{"street":"S","zip":"Z"}},"flags":[true,false]})");
    EXPECT_EQ(c.numbers, (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(c.words, (std::list<std::string>{"a", "b"}));
    EXPECT_EQ(c.values, (std::deque<double>{0.5}));
    EXPECT_EQ(c.triple, (std::array<int, 3>{7, 8, 9}));
    EXPECT_EQ(c.counts, (std::map<std::string, int>{{"x", 1}, {"y", 2}}));
    EXPECT_EQ(c.places.at("home"), (address{"S", "Z"}));
    EXPECT_EQ(c.flags, (std::vector<bool>{true, false}));
    EXPECT_TRUE(from_json<std::vector<int>>("[]").empty());
    EXPECT_TRUE(from_json<std::vector<int>>("[ ]").empty());
}

// An empty vector's first elements are read on the stack (json_detail::element_stage): an array
// of up to twice their number costs the vector one allocation, of its exact length when short.
// The scan that finds a string's closing quote also says it is the quote, not a byte to look
// at: a string ending at every place of a 16-byte block, after plain text, an escape or UTF-8,
// reads whole as a value, as a member, as an element and at the very end of the input.
TEST(from_json, a_string_ends_at_its_quote_in_any_place_of_a_block) {
    const std::pair<std::string, std::string> leads[] = {{"", ""}, {"\\\"", "\""}, {"\xc3\xa9", "\xc3\xa9"}, {"\\u00e9", "\xc3\xa9"}};
    for (std::size_t length = 0; length < 48; ++length)
        for (const auto& [raw_lead, lead] : leads) {
            const std::string tail(length, 'x');
            const std::string raw = raw_lead + tail, text = lead + tail;
            EXPECT_EQ(from_json<std::string>('"' + raw + '"'), text) << raw;
            EXPECT_EQ(from_json<person>(R"({"name":")" + raw + R"(","age":1})"), (person{text, 1, std::nullopt})) << raw;
            EXPECT_EQ(from_json<std::vector<std::string>>(R"([")" + raw + R"(",")" + raw + R"("])"),
                      (std::vector<std::string>{text, text}))
                << raw;
            EXPECT_THROW((void)from_json<std::string>('"' + raw), forma::json_error) << raw;
        }
}

TEST(from_json, arrays_of_every_length_read_into_vectors_each_element_once) {
    constexpr std::size_t staged = forma::json_detail::staged_elements<std::string>;
    static_assert(staged == 8);
    for (std::size_t n = 0; n <= 40; ++n) {
        std::vector<std::string> expected;
        std::vector<address> places;
        std::vector<std::vector<int>> rows;
        std::string words = "[", objects = "[", nested = "[";
        for (std::size_t i = 0; i < n; ++i) {
            expected.push_back("a string too long to be short #" + std::to_string(i)); // on the heap: ASan sees each move
            places.push_back({"street " + std::to_string(i), std::string(20, static_cast<char>('a' + i % 26))});
            rows.emplace_back(i % 9, static_cast<int>(i)); // short rows: each staged whole
            if (i) words += ',', objects += ',', nested += ',';
            words += '"';
            words += expected.back();
            words += '"';
            objects += R"({"street":")";
            objects += places.back().street;
            objects += R"(","zip":")";
            objects += places.back().zip;
            objects += R"("})";
            nested += '[';
            for (std::size_t k = 0; k < rows.back().size(); ++k) {
                if (k) nested += ',';
                nested += std::to_string(i);
            }
            nested += ']';
        }
        words += "]", objects += "]", nested += "]";
        const auto read = from_json<std::vector<std::string>>(words);
        EXPECT_EQ(read, expected) << n;
        const std::size_t room = n <= staged ? n : n <= 2 * staged ? 2 * staged : read.capacity();
        EXPECT_EQ(read.capacity(), room) << n << " strings: one allocation, as long as the array while it is short";
        EXPECT_EQ(from_json<std::vector<address>>(objects), places) << n;
        const auto read_rows = from_json<std::vector<std::vector<int>>>(nested);
        EXPECT_EQ(read_rows, rows) << n;
        for (const auto& row : read_rows) EXPECT_EQ(row.capacity(), row.size()) << n;
        std::string flags = "[";
        for (std::size_t i = 0; i < n; ++i) {
            if (i) flags += ',';
            flags += i % 3 ? "true" : "false";
        }
        const auto read_flags = from_json<std::vector<bool>>(flags + "]");
        ASSERT_EQ(read_flags.size(), n);
        for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(read_flags[i], i % 3 != 0) << n;
    }
}

TEST(from_json, an_array_of_elements_too_large_to_stage_reads_the_same) {
    using block = std::array<address, 5>;
    static_assert(forma::json_detail::staged_elements<block> == 0 && forma::json_detail::staged_elements<bool> == 0);
    std::string json = "[";
    for (int i = 0; i < 20; ++i) {
        json += i ? ",[" : "[";
        for (int k = 0; k < 5; ++k) {
            if (k) json += ',';
            json += R"({"street":"s)";
            json += std::to_string(i);
            json += R"(","zip":"z"})";
        }
        json += ']';
    }
    const auto blocks = from_json<std::vector<block>>(json + "]");
    ASSERT_EQ(blocks.size(), 20u);
    EXPECT_EQ(blocks[19][4].street, "s19");
}

TEST(from_json, reads_maps_in_the_strict_dialects_pair_form) {
    EXPECT_EQ((from_json<std::map<std::string, int>>(R"([{"key":"a","value":1},{"value":2,"key":"b"}])")),
              (std::map<std::string, int>{{"a", 1}, {"b", 2}}));
}

TEST(from_json, picks_the_variant_alternative_that_matches) {
    const auto d = from_json<drawing>(
        R"({"shapes":[{"radius":1},{"side":2,"label":"sq"}],"tag":"t"})");
    ASSERT_EQ(d.shapes.size(), 2u);
    EXPECT_EQ(std::get<shape_circle>(d.shapes[0]).radius, 1);
    EXPECT_EQ(std::get<shape_square>(d.shapes[1]).label, "sq");
    EXPECT_EQ(std::get<std::string>(d.tag), "t");
    EXPECT_EQ(std::get<int>(from_json<drawing>(R"({"shapes":[],"tag":5})").tag), 5);
    EXPECT_TRUE(std::holds_alternative<std::monostate>(from_json<drawing>(R"({"shapes":[],"tag":null})").tag));
}

TEST(from_json, reads_members_of_described_bases) {
    EXPECT_EQ(from_json<employee>(R"({"id":"e1","name":"Bo"})").id, "e1");
}

TEST(from_json, reads_recursive_types) {
    const auto t = from_json<tree>(R"({"label":"a","children":[{"label":"b","children":[]},
        {"label":"c","children":[{"label":"d","children":[]}]}]})");
    EXPECT_EQ(t.children.at(1).children.at(0).label, "d");
    const auto l = from_json<list_node>(R"({"value":1,"next":{"value":2,"next":null}})");
    ASSERT_TRUE(l.next && *l.next);
    EXPECT_EQ((*l.next)->value, 2);
    EXPECT_FALSE((*l.next)->next);
}

TEST(from_json, checks_declared_constraints_that_hold) {
    const auto c = from_json<constrained>(
        R"({"code":"ABC","score":100,"tags":["x"],"ratio":0.5,"email":"a@b.io"})");
    EXPECT_EQ(c.code, "ABC");
    EXPECT_EQ(*c.ratio, 0.5);
}

TEST(try_from_json, returns_the_value_or_the_error) {
    auto ok = forma::try_from_json<person>(R"({"name":"A","age":1})");
    ASSERT_TRUE(ok.has_value());
    EXPECT_EQ(ok->name, "A");
    auto bad = forma::try_from_json<person>(R"({"name":"A","age":"x"})");
    ASSERT_TRUE(bad.has_error());
    EXPECT_EQ(bad.error().path(), "/age");
    EXPECT_THROW((void)bad.value(), forma::json_error);
}
