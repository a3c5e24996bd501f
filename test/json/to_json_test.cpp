#include <forma/json/to_json.hpp>

#include <forma/json/from_json.hpp>

#include "test_types.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

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

namespace {

// JSON's escaping written the slow, obvious way, to compare the writer with.
std::string quoted_by_hand(std::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
            if (const auto byte = static_cast<unsigned char>(c); byte < 0x20) {
                static constexpr char hex[] = "0123456789abcdef";
                out.append("\\u00").append(1, hex[byte >> 4]).append(1, hex[byte & 0xF]);
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

} // namespace

TEST(to_json, appends_to_a_callers_string_and_reuses_its_room) {
    std::string out = "head:";
    to_json(person{"Ann", 35, std::nullopt}, out);
    EXPECT_EQ(out, R"(head:{"name":"Ann","age":35,"occupation":null})");
    out.clear();
    out.reserve(4096);
    const char* const room = out.data();
    to_json(std::vector<std::string>(20, "twenty bytes of text"), out);
    EXPECT_EQ(out.data(), room);
    EXPECT_EQ(out.size(), 2 + 20 * 22 + 19);
}

TEST(to_json, escapes_wherever_the_buffer_grows) {
    // Every escape at every place of strings from 0 to 300 bytes, written after 0 to 70 bytes
    // already in the caller's string: the buffer grows before, inside and after each string.
    for (const char special : {'"', '\\', '\n', '\x01', '\x1f'}) {
        for (std::size_t length = 0; length <= 300; length += 7) {
            for (std::size_t at = 0; at < length; at += 5) {
                std::string text(length, 'a');
                text[at] = special;
                for (std::size_t before : {0, 1, 63, 70}) {
                    std::string out(before, '.');
                    to_json(text, out);
                    ASSERT_EQ(out, std::string(before, '.') + quoted_by_hand(text))
                        << "escape " << int(special) << " at " << at << " of " << length;
                }
            }
        }
    }
    const std::string all_escapes(500, '\x02'); // six bytes out for each byte in
    EXPECT_EQ(to_json(all_escapes), quoted_by_hand(all_escapes));
}

TEST(to_json, the_writers_scan_finds_the_first_byte_to_look_at_in_every_place) {
    // find_string_special_in against the byte-by-byte rule: every byte value at every place of
    // strings of 0 to 40 bytes, alone and before a second such byte.
    namespace detail = forma::json_detail;
    const auto by_hand = [](const std::string& s) {
        std::size_t i = 0;
        while (i < s.size() && !detail::is_string_special(s[i])) ++i;
        return i;
    };
    for (std::size_t length = 0; length <= 40; ++length) {
        for (std::size_t at = 0; at < length; ++at) {
            for (int byte = 0; byte < 256; ++byte) {
                std::string text(length, 'a');
                text[at] = static_cast<char>(byte);
                for (const bool second : {false, true}) {
                    if (second) text.back() = '"';
                    const char* found = detail::find_string_special_in(text.data(), text.data() + text.size());
                    ASSERT_EQ(static_cast<std::size_t>(found - text.data()), by_hand(text))
                        << "byte " << byte << " at " << at << " of " << length << (second ? ", then a quote" : "");
                }
            }
        }
    }
}

TEST(to_json, every_byte_of_a_short_string_is_looked_at) {
    // A string's bytes after its last 16-byte block are scanned as one block ending at its end, or
    // as two words that overlap: a byte that needs an escape or a check is found in every place,
    // alone or before another (whose borrow in a word must not hide or move the first), and the
    // bytes beside those in ASCII are not taken for one.
    const std::vector<std::string> specials = {"\"", "\\", "\n", std::string(1, '\0'), "\x1f", "\xc3\xa9", "\xe6\x97\xa5"};
    for (std::size_t length = 0; length <= 40; ++length) {
        for (const char neighbour : std::string_view(" !#[]\x7f~")) {
            const std::string text(length, neighbour);
            ASSERT_EQ(to_json(text), quoted_by_hand(text)) << "byte " << int(neighbour) << " x " << length;
        }
        for (std::size_t at = 0; at < length; ++at) {
            for (const std::string& special : specials) {
                if (at + special.size() > length) continue;
                std::string text(length, 'a');
                text.replace(at, special.size(), special);
                ASSERT_EQ(to_json(text), quoted_by_hand(text)) << "byte " << int(special[0]) << " at " << at << " of " << length;
                if (at + special.size() < length) {
                    text.back() = '\x01';
                    ASSERT_EQ(to_json(text), quoted_by_hand(text)) << "byte " << int(special[0]) << " at " << at << " of " << length << ", then 1";
                }
            }
            std::string invalid(length, 'a');
            invalid[at] = '\xff';
            ASSERT_THROW((void)to_json(invalid), forma::json_error) << "0xff at " << at << " of " << length;
        }
    }
}

TEST(to_json, a_failed_append_leaves_the_callers_string_as_it_was) {
    std::string out = "kept";
    EXPECT_THROW(to_json(std::vector<std::string>{std::string(1000, 'x'), "bad \xff"}, out), forma::json_error);
    EXPECT_EQ(out, "kept");
    EXPECT_THROW(to_json(reading{std::nan(""), unit::c, std::nullopt}, out), forma::json_error);
    EXPECT_EQ(out, "kept");
}

TEST(to_json, value_form_matches_the_text_form) {
    const auto v = forma::to_json_value(person{"A", 1, {}});
    EXPECT_EQ(v.at("name"), "A");
    EXPECT_EQ(v.at("age"), 1);
    EXPECT_TRUE(v.at("occupation").is_null());
}
