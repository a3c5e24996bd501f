// partial_reader: JSON fed in pieces split anywhere gives snapshots that only grow and
// the same final value as from_json.

#include <forma/json/from_json.hpp>
#include <forma/json/partial_reader.hpp>
#include <forma/json/to_json.hpp>

#include <boost/describe.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

// Its own namespace: the binary compiles its sources together (FORMA_UNITY_TESTS).
namespace partial_reader_test {
namespace partial_test {

enum class mood { calm, excited, grumpy };
BOOST_DESCRIBE_ENUM(mood, calm, excited, grumpy)

struct address {
    std::string city;
    std::optional<std::string> zip;
    friend bool operator==(const address&, const address&) = default;
};
BOOST_DESCRIBE_STRUCT(address, (), (city, zip))

struct circle {
    double radius = 0;
    friend bool operator==(const circle&, const circle&) = default;
};
BOOST_DESCRIBE_STRUCT(circle, (), (radius))

struct square {
    double side = 0;
    std::string label;
    friend bool operator==(const square&, const square&) = default;
};
BOOST_DESCRIBE_STRUCT(square, (), (side, label))

struct person {
    std::string name;
    int age = 0;
    bool active = false;
    mood feeling = mood::calm;
    address home;
    std::optional<address> work;
    std::vector<std::string> tags;
    std::vector<address> places;
    std::variant<circle, square> badge;
    std::map<std::string, int> scores;
    std::optional<double> height;
    friend bool operator==(const person&, const person&) = default;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age, active, feeling, home, work, tags, places, badge, scores, height))

// String values the partial does not keep as text: an enumeration's name, a variant read
// whole, and skipped members.
struct labelled {
    mood feeling = mood::calm;
    std::variant<int, std::string> label;
    std::vector<mood> moods;
    friend bool operator==(const labelled&, const labelled&) = default;
};
BOOST_DESCRIBE_STRUCT(labelled, (), (feeling, label, moods))

struct ticket {
    std::string code;
    int level = 0;
    friend bool operator==(const ticket&, const ticket&) = default;
};
BOOST_DESCRIBE_STRUCT(ticket, (), (code, level))

struct measures {
    std::int8_t tiny = 0;
    std::uint8_t small = 0;
    int plain = 0;
    std::uint32_t votes = 0;
    std::int64_t big = 0;
    std::uint64_t huge = 0;
    float ratio = 0;
    double exact = 0;
    friend bool operator==(const measures&, const measures&) = default;
};
BOOST_DESCRIBE_STRUCT(measures, (), (tiny, small, plain, votes, big, huge, ratio, exact))
// Recursive types: an optional in place in its parent's partial, a unique_ptr behind a pointer.
struct outline {
    std::string label;
    std::optional<int> weight;
    std::vector<outline> children;
    std::optional<std::vector<outline>> appendix;
    friend bool operator==(const outline&, const outline&) = default;
};
BOOST_DESCRIBE_STRUCT(outline, (), (label, weight, children, appendix))

struct chain {
    int value = 0;
    std::unique_ptr<chain> next;
};
BOOST_DESCRIBE_STRUCT(chain, (), (value, next))

FORMA_DESCRIBE_FIELDS(ticket, (code, .pattern = "^[A-Z]{3}-[0-9]{2}$"), (level, .minimum = 10));

} // namespace partial_test

namespace {

using namespace partial_test;
using forma::partial;
using forma::partial_reader;

// A snapshot flattened: JSON Pointer -> (text known so far, whole).
struct leaf {
    std::string text;
    bool complete = false;
};
using flat = std::map<std::string, leaf>;

template <class T>
void flatten(const partial<T>& p, const std::string& path, flat& out) {
    using namespace forma::reflect;
    if constexpr (std::is_same_v<T, std::string>) {
        if (p.has_value()) out[path] = {p.value(), p.complete()};
    } else if constexpr (is_nullable_v<T>) {
        if (p.is_null()) out[path] = {"null", true};
        else if (p.has_value()) flatten(p.value(), path, out);
    } else if constexpr (is_sequence_v<T>) {
        if (p.has_value()) out[path + "/[]"] = {"", p.complete()};
        for (std::size_t i = 0; i < p.size(); ++i) flatten(p[i], path + "/" + std::to_string(i), out);
    } else if constexpr (is_described_struct_v<T>) {
        if (p.has_value()) out[path + "/{}"] = {"", p.complete()};
        p.for_each_member([&](std::string_view name, const auto& member) {
            flatten(member, path + "/" + std::string(name), out);
        });
    } else {
        if (p.has_value()) out[path] = {forma::to_json(p.value()), true};
    }
}

template <class T>
flat flatten(const partial<T>& p) {
    flat out;
    flatten(p, "", out);
    return out;
}

// Whether `later` only adds to `earlier`: whole values unchanged, strings grown.
::testing::AssertionResult grows_from(const flat& earlier, const flat& later) {
    for (const auto& [path, before] : earlier) {
        auto it = later.find(path);
        if (it == later.end()) return ::testing::AssertionFailure() << path << " disappeared";
        const leaf& after = it->second;
        if (before.complete && (!after.complete || after.text != before.text))
            return ::testing::AssertionFailure() << path << " changed after it was whole: " << before.text << " -> "
                                                 << after.text;
        if (after.text.compare(0, before.text.size(), before.text) != 0)
            return ::testing::AssertionFailure() << path << " did not grow: " << before.text << " -> " << after.text;
    }
    return ::testing::AssertionSuccess();
}

const std::string person_json = R"({"name": "Ada \"Countess\" Lovelace \u00e9\ud83d\ude00 caf\u00e9 日本",
 "age": 36, "active": true, "feeling": "excited",
 "home": {"city": "London", "zip": null}, "work": {"city": "Paris", "zip": "75001"},
 "tags": ["math", "poetry\n", ""], "places": [{"city": "Rome"}, {"city": "Köln", "zip": "50667"}],
 "badge": {"side": 2.5, "label": "sq"}, "scores": {"a": 1, "b": -2}, "height": 1.65e0, "ignored": [1, {"x": null}]})";

template <class T>
void check_every_prefix_grows_to_from_json(const std::string& json, bool wrapped = false) {
    const T expected = wrapped ? forma::json_detail::try_read_wrapped<T>(json, {}).value() : forma::from_json<T>(json);
    // Byte by byte: every prefix's snapshot grows from the one before.
    partial_reader<T> reader(wrapped);
    flat previous;
    for (char c : json) {
        ASSERT_TRUE(reader.feed(std::string_view(&c, 1))) << reader.error().what();
        flat now = flatten(reader.get());
        ASSERT_TRUE(grows_from(previous, now)) << "after " << reader.text().size() << " bytes";
        previous = std::move(now);
    }
    EXPECT_TRUE(reader.get().complete());
    EXPECT_EQ(reader.get().to_value(), std::optional<T>(expected));
    EXPECT_EQ(reader.finish().value(), expected);
    // Pieces of each size a stream sends, 2 to 24 bytes (a 16-byte piece of string text is
    // copied whole, a name whole in its piece read at once): every snapshot grows from the one
    // before, to the same final value.
    for (std::size_t size = 2; size <= 24; ++size) {
        partial_reader<T> sized(wrapped);
        flat before;
        for (std::size_t at = 0; at < json.size(); at += size) {
            ASSERT_TRUE(sized.feed(std::string_view(json).substr(at, size)))
                << sized.error().what();
            flat now = flatten(sized.get());
            ASSERT_TRUE(grows_from(before, now))
                << "pieces of " << size << " bytes, after " << at + size;
            before = std::move(now);
        }
        ASSERT_EQ(sized.get().to_value(), std::optional<T>(expected))
            << "pieces of " << size << " bytes";
    }
    // Two pieces split at every byte: the same final value.
    for (std::size_t split = 0; split <= json.size(); ++split) {
        partial_reader<T> two(wrapped);
        ASSERT_TRUE(two.feed(std::string_view(json).substr(0, split)));
        ASSERT_TRUE(two.feed(std::string_view(json).substr(split)));
        ASSERT_EQ(two.get().to_value(), std::optional<T>(expected)) << "split at " << split;
    }
}

TEST(partial_reader, a_rich_type_split_anywhere_grows_monotonically_to_the_from_json_value) {
    check_every_prefix_grows_to_from_json<person>(person_json);
}

TEST(partial_reader, strings_not_kept_as_text_split_anywhere) {
    check_every_prefix_grows_to_from_json<labelled>(
        R"({"skipped": "not \"kept\" \u00e9 é", "feeling": "grumpy", "label": "a \"b\" \u00e9 日本",)"
        R"( "moods": ["calm", "excited"], "more": ["x\ny", {"z": "w"}]})");
}

// Long runs of three- and four-byte characters and of indentation, which from_json scans 32 bytes
// at a time where the CPU has AVX2: the partial reader, split anywhere, gives the same value.
TEST(partial_reader, long_cjk_runs_and_deep_indentation_split_anywhere) {
    std::string json = person_json;
    const std::string cjk = "日本語のテキストが三十二バイトを超えて続く文字列😀😀改行の後も日本語が続きます";
    json.replace(json.find("日本"), std::string("日本").size(), cjk);
    for (std::size_t at = json.find("\n "); at != std::string::npos; at = json.find("\n ", at + 41))
        json.replace(at, 2, "\n" + std::string(40, ' '));
    ASSERT_NE(json.find(cjk), std::string::npos);
    ASSERT_NE(json.find(std::string(40, ' ')), std::string::npos);
    check_every_prefix_grows_to_from_json<person>(json);
}

TEST(partial_reader, arrays_of_objects_and_wrapped_roots) {
    const std::string places = R"({"data": [{"city": "Oslo", "zip": "0150"}, {"city": "Å\\u00e5"}, {"city": ""}]})";
    check_every_prefix_grows_to_from_json<std::vector<address>>(places, true);
    check_every_prefix_grows_to_from_json<std::vector<address>>(R"([{"city": "Oslo"}])", true); // not wrapped
    check_every_prefix_grows_to_from_json<std::vector<int>>(R"({"data": [1, -20, 3e2, 0]})", true);
    check_every_prefix_grows_to_from_json<std::optional<int>>(R"({"data": null})", true);
}

TEST(partial_reader, recursive_types_split_anywhere) {
    check_every_prefix_grows_to_from_json<outline>(
        R"({"label": "root", "weight": 3, "children": [{"label": "a", "children": [{"label": "a1", "weight": null,)"
        R"( "children": []}]}, {"label": "b", "children": [], "appendix": [{"label": "b-x", "children": []}]}],)"
        R"( "appendix": null})");

    // A unique_ptr chain (not copyable, so checked here by walking it).
    const std::string json = R"({"value": 1, "next": {"value": 2, "next": {"value": 3, "next": null}}})";
    for (std::size_t split = 0; split <= json.size(); ++split) {
        partial_reader<chain> reader;
        ASSERT_TRUE(reader.feed(std::string_view(json).substr(0, split)));
        ASSERT_TRUE(reader.feed(std::string_view(json).substr(split)));
        const auto value = reader.finish();
        ASSERT_TRUE(value) << "split at " << split;
        const chain* link = &*value;
        for (int expected = 1; expected <= 3; ++expected, link = link->next.get()) {
            ASSERT_NE(link, nullptr) << "split at " << split;
            EXPECT_EQ(link->value, expected);
        }
        EXPECT_EQ(link, nullptr);
        const auto& second = reader.get()[&chain::next];
        ASSERT_TRUE(second.has_value());
        EXPECT_TRUE(second.value()[&chain::next].value()[&chain::next].is_null());
    }
}

TEST(partial_reader, strings_show_as_they_stream_numbers_only_when_whole) {
    partial_reader<person> reader;
    reader.feed(R"({"name": "Ada Lov)");
    const auto& name = reader.get()[&person::name];
    EXPECT_TRUE(name.has_value());
    EXPECT_FALSE(name.complete());
    EXPECT_EQ(name.value(), "Ada Lov");
    reader.feed(R"(elace", "age": 3)");
    EXPECT_TRUE(name.complete());
    EXPECT_FALSE(reader.get()[&person::age].has_value()); // "3" may be the start of 36
    EXPECT_EQ(reader.get()[&person::age].value_or(-1), -1);
    reader.feed(R"(6, "tags": ["a", "b)");
    EXPECT_EQ(reader.get()[&person::age].value(), 36);
    const auto& tags = reader.get()[&person::tags];
    ASSERT_EQ(tags.size(), 2u);
    EXPECT_TRUE(tags[0].complete());
    EXPECT_EQ(tags[1].value(), "b");
    EXPECT_FALSE(tags.complete());
    EXPECT_FALSE(reader.get().to_value().has_value());
}

// The partial reads a number from the tokenizer's one scan of it (its grammar checked there):
// every kind of number, in every member type, cut at every place, gives from_json's value or
// from_json's error.
TEST(partial_reader, numbers_of_every_form_give_from_jsons_value_or_error) {
    const char* const members[] = {"tiny", "small", "plain", "votes", "big", "huge", "ratio", "exact"};
    const char* const numbers[] = {
        "0", "-0", "7", "-7", "127", "128", "-128", "-129", "255", "256", "2147483647", "2147483648", "-2147483649",
        "4294967295", "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "-9223372036854775809", "18446744073709551615", "18446744073709551616", "0000", "01", "-01", "00.5",
        "1234567890123456789012", "2.0", "2.5", "-3.0", "1e2", "1E+2", "1e-2", "2.50e1", "0.1", "-0.0", "1.7976931348623157e308",
        "1e309", "-1e400", "4.9e-324", "1e-400", "3.4028235e38", "3.5e38", "1.", ".5", "-", "1e", "1e+", "+1", "1.2.3", "1-2",
        "0x10", "12345678901234567.25", "0.30000000000000004"};
    for (const char* member : members) {
        for (const char* number : numbers) {
            std::string json = R"({"tiny": 1, "small": 1, "plain": 1, "votes": 1, "big": 1, "huge": 1, "ratio": 1, "exact": 1})";
            const std::string key = std::string("\"") + member + "\": 1";
            json.replace(json.find(key), key.size(), std::string("\"") + member + "\": " + number);
            const auto expected = forma::try_from_json<measures>(json);
            for (std::size_t split = 0; split <= json.size(); ++split) {
                partial_reader<measures> reader;
                reader.feed(std::string_view(json).substr(0, split));
                reader.feed(std::string_view(json).substr(split));
                const auto got = reader.finish();
                ASSERT_EQ(got.has_value(), expected.has_value()) << json << " split at " << split;
                if (expected) {
                    EXPECT_EQ(*got, *expected) << json << " split at " << split;
                    EXPECT_EQ(reader.get().to_value(), *expected) << json << " split at " << split;
                } else {
                    EXPECT_STREQ(got.error().what(), expected.error().what()) << json << " split at " << split;
                    EXPECT_EQ(got.error().path(), expected.error().path()) << json << " split at " << split;
                }
            }
        }
    }
}

TEST(partial_reader, a_long_string_grows_piece_by_piece) {
    address expected;
    for (int i = 0; i < 60; ++i)
        expected.city += i % 7 == 0 ? "café \"x\"\n" : "plain words ";
    const std::string json = forma::to_json(expected);
    for (std::size_t size : {1, 7, 16, 100}) {
        partial_reader<address> reader;
        const auto& city = reader.get()[&address::city];
        for (std::size_t at = 0; at < json.size(); at += size) {
            ASSERT_TRUE(reader.feed(std::string_view(json).substr(at, size)));
            ASSERT_EQ(expected.city.compare(0, city.value().size(), city.value()), 0)
                << "after " << at + size;
        }
        EXPECT_EQ(reader.finish().value(), expected);
    }
}

TEST(partial_reader, escapes_and_utf8_cut_inside_are_held_until_whole) {
    // "é" is C3 A9; "😀" is F0 9F 98 80 and \ud83d\ude00.
    const std::string json = "{\"city\": \"\xC3\xA9\\ud83d\\ude00\xF0\x9F\x98\x80\\n\"}";
    for (std::size_t split = 0; split <= json.size(); ++split) {
        partial_reader<address> reader;
        reader.feed(json.substr(0, split));
        const auto& city = reader.get()[&address::city];
        // Whatever was cut, the text so far is a prefix of the whole, never a broken sequence.
        const std::string whole = "\xC3\xA9\xF0\x9F\x98\x80\xF0\x9F\x98\x80\n";
        EXPECT_EQ(whole.compare(0, city.value().size(), city.value()), 0) << "split at " << split;
        reader.feed(json.substr(split));
        EXPECT_EQ(city.value(), whole);
    }
}

TEST(partial_reader, invalid_json_stops_reading_with_from_jsons_error) {
    partial_reader<address> reader;
    EXPECT_TRUE(reader.feed(R"({"city": "Oslo", "zip": )"));
    EXPECT_FALSE(reader.feed(R"(12})"));
    EXPECT_TRUE(reader.failed());
    EXPECT_EQ(reader.error().path(), "/zip");
    EXPECT_EQ(reader.get()[&address::city].value(), "Oslo"); // what was known stays
    EXPECT_FALSE(reader.feed(R"("x"})")); // nothing more is read
    EXPECT_FALSE(reader.feed(""));
    EXPECT_EQ(reader.get()[&address::city].value(), "Oslo");
    EXPECT_EQ(reader.error().path(), "/zip");

    partial_reader<address> broken;
    EXPECT_FALSE(broken.feed(R"({"city": "a\qb"})"));
    EXPECT_NE(std::string(broken.error().what()).find("escape"), std::string::npos) << broken.error().what();

    partial_reader<std::vector<int>> trailing;
    EXPECT_FALSE(trailing.feed("[1, 2,]"));
    partial_reader<address> bad_utf8;
    EXPECT_FALSE(bad_utf8.feed("{\"city\": \"\xC3\x28\"}"));
}

TEST(partial_reader, a_string_past_the_length_limit_stops_reading_as_it_streams) {
    const forma::parse_options limit{.max_string_length = 8};
    // 2000: the string whole in its piece.
    for (const std::size_t piece : {1u, 3u, 16u, 100u, 2000u}) {
        partial_reader<address> reader(false, limit);
        const std::string json = R"({"city": "Oslo", "zip": ")" + std::string(1000, '9') + R"("})";
        bool ok = true;
        for (std::size_t at = 0; ok && at < json.size(); at += piece) ok = reader.feed(std::string_view(json).substr(at, piece));
        EXPECT_FALSE(ok) << piece;
        EXPECT_EQ(reader.get()[&address::city].value(), "Oslo");
        // Stopped within a piece of the limit, not at the end of the string.
        const auto& zip = reader.get()[&address::zip];
        EXPECT_LE(zip.has_value() ? zip.value().value().size() : 0, 8 + piece);
        EXPECT_EQ(reader.error().path(), "/zip");
        EXPECT_EQ(reader.error().reason(), "a string is longer than the limit of 8 bytes (parse_options::max_string_length)");
        EXPECT_EQ(reader.error().offset(), 24u) << "the string's opening quote";
    }
    // Fed to the end regardless, finish() gives from_json's own error.
    partial_reader<address> whole(false, limit);
    const std::string json = R"({"city": "Oslo", "zip": "0123456789"})";
    for (char c : json) whole.feed(std::string_view(&c, 1));
    const auto expected = forma::try_from_json<address>(json, limit).error();
    EXPECT_EQ(whole.finish().error().reason(), expected.reason());
    EXPECT_EQ(whole.finish().error().offset(), expected.offset());
    // A broken constraint before the long string is what finish() reports.
    partial_reader<ticket> early(false, limit);
    EXPECT_FALSE(early.feed(R"({"code": "bad", "level": 3, "x": "a long unknown member's text"})"));
    EXPECT_EQ(early.error().path(), "/code");
    partial_reader<address> keys(false, limit);
    EXPECT_FALSE(keys.feed(R"({"city": "Oslo", "a_long_unknown_member": 1})"));
    partial_reader<address> within(false, limit);
    EXPECT_TRUE(within.feed(R"({"city": "Oslo", "zip": "01\u00e950"})"));
    EXPECT_EQ(within.finish().value().zip, "01\u00e950");
}

TEST(partial_reader, constraints_are_checked_on_the_whole_value_only) {
    // "AB" does not match the pattern yet; a partial string never fails it mid-stream.
    const std::string json = R"({"code": "ABC-12", "level": 12})";
    check_every_prefix_grows_to_from_json<ticket>(json);

    partial_reader<ticket> low;
    ASSERT_TRUE(low.feed(R"({"code": "ABC-12", "level": 3})")); // below the minimum: known, not valid
    EXPECT_EQ(low.get()[&ticket::level].value(), 3);
    const auto final = low.finish();
    ASSERT_FALSE(final.has_value());
    EXPECT_EQ(final.error().path(), "/level");
    EXPECT_STREQ(final.error().what(), forma::try_from_json<ticket>(low.text()).error().what());
}

TEST(partial_reader, unfinished_text_is_not_a_value) {
    partial_reader<address> reader;
    reader.feed(R"({"city": "Oslo")");
    EXPECT_FALSE(reader.get().complete());
    EXPECT_FALSE(reader.finish().has_value());
    EXPECT_FALSE(reader.failed());
}

// finish() takes the partial's value when it holds the whole document; anything from_json
// would judge otherwise must still get from_json's answer.
TEST(partial_reader, finish_answers_as_from_json_does_for_what_the_partial_cannot_judge) {
    auto finish_of = [](std::string_view json, bool wrapped = false, forma::parse_options options = {}) {
        partial_reader<address> reader(wrapped, options);
        reader.feed(json);
        return reader.finish();
    };
    auto expect_same_error = [&](std::string_view json, auto expected, bool wrapped = false,
                                 forma::parse_options options = {}) {
        const auto got = finish_of(json, wrapped, options);
        ASSERT_FALSE(got.has_value()) << json;
        ASSERT_FALSE(expected.has_value()) << json;
        EXPECT_STREQ(got.error().what(), expected.error().what()) << json;
        EXPECT_EQ(got.error().path(), expected.error().path()) << json;
    };

    // A member given twice stops reading at once, with from_json's error.
    partial_reader<address> twice;
    EXPECT_FALSE(twice.feed(R"({"city": "Oslo", "city": "Bergen", "zip": "0150"})"));
    EXPECT_STREQ(twice.error().what(),
                 forma::try_from_json<address>(R"({"city": "Oslo", "city": "Bergen", "zip": "0150"})").error().what());

    // Unknown members: skipped by default, an error when rejected, and repeated ones are an error.
    const std::string unknown = R"({"city": "Oslo", "extra": [1, {"a": 2}], "zip": "0150"})";
    ASSERT_TRUE(finish_of(unknown).has_value());
    EXPECT_EQ(finish_of(unknown)->city, "Oslo");
    expect_same_error(unknown, forma::try_from_json<address>(unknown, {.reject_unknown_members = true}), false,
                      {.reject_unknown_members = true});
    const std::string unknown_twice = R"({"city": "Oslo", "x": 1, "x": 2, "zip": "0150"})";
    expect_same_error(unknown_twice, forma::try_from_json<address>(unknown_twice));

    // A wrapped answer whose wrapper never closes is not a value, even with its T whole.
    const std::string open_wrapper = R"({"data": {"city": "Oslo", "zip": "0150"})";
    expect_same_error(open_wrapper, forma::json_detail::try_read_wrapped<address>(open_wrapper, {}), true);
    const std::string data_twice = R"({"data": {"city": "Oslo", "zip": "0150"}, "data": {"city": "X", "zip": "5003"}})";
    expect_same_error(data_twice, forma::json_detail::try_read_wrapped<address>(data_twice, {}), true);

    // Constraints inside nested values and sequences are checked too.
    partial_reader<std::vector<ticket>> tickets;
    ASSERT_TRUE(tickets.feed(R"([{"code": "ABC-12", "level": 12}, {"code": "bad", "level": 12}])"));
    ASSERT_TRUE(tickets.get().complete());
    const auto final = tickets.finish();
    ASSERT_FALSE(final.has_value());
    EXPECT_EQ(final.error().path(), "/1/code");
}

} // namespace
} // namespace partial_reader_test
