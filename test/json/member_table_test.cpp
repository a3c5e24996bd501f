// A struct of many members is read through its member table (read_members_by_table); the same
// members read by each member's own code must give the same value, or the same error, for any
// input: these tests read each input both ways and compare.
#include <forma/json/from_json.hpp>
#include <forma/json/partial_reader.hpp>

#include "test_types.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace test_types;

namespace {

/// wide's members, read by each member's own code.
struct wide_by_code : wide {};
BOOST_DESCRIBE_STRUCT(wide_by_code, (wide), ())

} // namespace

template <>
inline constexpr bool forma::json_detail::reads_members_by_table<wide_by_code> = false;

namespace {

static_assert(forma::json_detail::reads_members_by_table<wide>);

const std::string compact =
    R"({"id":"w1","n":-7,"big":18446744073709551615,"ratio":0.5,"flag":true,"note":null,"count":3,)"
    R"("values":[1,2,3],"inner":{"a":1,"b":"x"},"extra":{"a":2,"b":"y"},"scale":"f",)"
    R"("fourteen_bytes":"14","fifteen_bytes_":"15","a_member_name_longer_than_sixteen":"long",)"
    R"("display-label":"L","z)"
    "\xc3\xa4"
    R"(hler":4,"tags":["t","\u00e9"],"parts":[{"a":3,"b":"z"}],"short_text":"st","m20":20,"m21":21,)"
    R"("last":"end"})";

/// `compact` indented as a pretty-printer writes it: a line break and `width` spaces a level.
std::string indented(const std::string& json, int width) {
    std::string out;
    int level = 0;
    bool in_string = false;
    auto line = [&] { out += '\n' + std::string(static_cast<std::size_t>(level * width), ' '); };
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (in_string) {
            out += c;
            if (c == '\\')
                out += json[++i];
            else if (c == '"')
                in_string = false;
            continue;
        }
        switch (c) {
        case '"':
            in_string = true;
            out += c;
            break;
        case '{':
        case '[':
            out += c;
            ++level;
            line();
            break;
        case '}':
        case ']':
            --level;
            line();
            out += c;
            break;
        case ',':
            out += c;
            line();
            break;
        case ':':
            out += ": ";
            break;
        default:
            out += c;
        }
    }
    return out;
}

/// What a read gave: "value", or its error's text, path and offset.
std::string outcome(const boost::system::result<wide, forma::json_error>& r) {
    if (r.has_value()) return "value";
    return std::string(r.error().what()) + " | " + r.error().path() + " | " +
           std::to_string(r.error().offset());
}

void expect_same_reading(const std::string& json, const forma::parse_options& options = {}) {
    SCOPED_TRACE(json);
    const auto by_table = forma::try_from_json<wide>(json, options);
    const auto by_code = forma::try_from_json<wide_by_code>(json, options);
    boost::system::result<wide, forma::json_error> by_code_as_wide = forma::json_error();
    if (by_code.has_value())
        by_code_as_wide = static_cast<const wide&>(by_code.value());
    else
        by_code_as_wide = by_code.error();
    ASSERT_EQ(outcome(by_table), outcome(by_code_as_wide));
    if (by_table.has_value()) {
        EXPECT_EQ(by_table.value(), by_code_as_wide.value());
    }

    std::vector<std::string> table_errors, code_errors;
    for (const auto& e : forma::from_json_errors<wide>(json, options))
        table_errors.push_back(e.what());
    for (const auto& e : forma::from_json_errors<wide_by_code>(json, options))
        code_errors.push_back(e.what());
    EXPECT_EQ(table_errors, code_errors);
}

TEST(member_table, reads_every_member_in_order_compact_and_indented) {
    const wide w = forma::from_json<wide>(compact);
    EXPECT_EQ(w.id, "w1");
    EXPECT_EQ(w.big, 18446744073709551615u);
    EXPECT_EQ(w.inner, (part{1, "x"}));
    EXPECT_EQ(w.scale, unit::f);
    EXPECT_EQ(w.fifteen_bytes_, "15");
    EXPECT_EQ(w.a_member_name_longer_than_sixteen, "long");
    EXPECT_EQ(w.label, "L");
    EXPECT_EQ(w.umlaut, 4);
    EXPECT_EQ(w.tags, (std::vector<std::string>{"t", "\xc3\xa9"}));
    EXPECT_EQ(w.last, "end");
    for (int width : {1, 2, 4, 8})
        EXPECT_EQ(forma::from_json<wide>(indented(compact, width)), w) << width;
    expect_same_reading(compact);
    expect_same_reading(indented(compact, 2));
}

TEST(member_table, members_out_of_order_missing_repeated_or_unknown_read_as_by_each_members_code) {
    const std::vector<std::string> inputs = {
        // reversed: every member found by name
        R"({"last":"e","m21":1,"m20":2,"short_text":"ab","id":"x","n":1,"big":2,"ratio":1,"flag":false,)"
        R"("values":[],"inner":{"a":0,"b":""},"scale":"c","fourteen_bytes":"","fifteen_bytes_":"",)"
        R"("a_member_name_longer_than_sixteen":"","display-label":"","z\u00e4hler":0,"tags":[]})",
        // a required member missing, in the middle and at the end
        R"({"id":"x","big":2})",
        R"({"last":"e"})",
        // a member repeated right after itself, and later
        R"({"id":"x","id":"y"})",
        R"({"id":"x","n":1,"big":2,"n":3})",
        // unknown members first, between, last
        R"({"zz":1,"id":"x","n":1,"yy":[1,{"a":2}],"big":2,"xx":null})",
        // a name escaped, and names that differ from the member expected there past their 16th byte
        R"({"\u0069d":"x","n":1})",
        R"({"fifteen_bytes_":"a","a_member_name_longer_than_sixteeN":"v","a_member_name_longer_than_sixteen":"w"})",
        R"({"fourteen_bytes":"a","fifteen_bytes__":"v","fifteen_bytes_":"w"})",
        // values of the wrong type, a broken constraint, an unknown enumerator
        R"({"id":1,"n":"x","short_text":"a","scale":"k","inner":{"a":"b"},"parts":[{"a":1,"b":2}]})",
        // white space of every form around the members
        "{ \"id\" : \"x\" ,\n\t\"n\"\r\n:\n1 , \"big\":2}",
        "{}",
        "{ }",
    };
    for (const std::string& json : inputs) {
        expect_same_reading(json);
        forma::parse_options strict;
        strict.reject_unknown_members = true;
        expect_same_reading(json, strict);
    }
    for (const std::string& json : {compact, indented(compact, 2)}) {
        forma::parse_options strict;
        strict.reject_unknown_members = true;
        expect_same_reading(json, strict);
    }
}

TEST(member_table, names_longer_than_the_string_limit_are_reported_as_by_each_members_code) {
    forma::parse_options options;
    options.max_string_length = 12; // shorter than several names
    const auto r = forma::try_from_json<wide>(compact, options);
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(std::string(r.error().what()).find("longer than"), std::string::npos)
        << r.error().what();
    expect_same_reading(compact, options);
    expect_same_reading(R"({"id":"x","n":1})", options);
}

TEST(member_table, every_cut_and_every_changed_byte_reads_as_by_each_members_code) {
    const std::string texts[] = {compact, indented(compact, 2)};
    for (const std::string& text : texts) {
        for (std::size_t cut = 0; cut < text.size(); ++cut)
            expect_same_reading(text.substr(0, cut));
        for (std::size_t at = 0; at < text.size(); ++at)
            for (const char byte : {'"', ',', ':', '}', ' ', '\\', 'x', '\x80'}) {
                std::string changed = text;
                changed[at] = byte;
                expect_same_reading(changed);
            }
    }
}

TEST(member_table, the_partial_reader_fed_in_pieces_ends_where_from_json_does) {
    const wide expected = forma::from_json<wide>(compact);
    for (const std::string& text : {compact, indented(compact, 2)}) {
        for (std::size_t piece : {1, 2, 3, 7, 16, 17, 64, 4096}) {
            SCOPED_TRACE(piece);
            forma::partial_reader<wide> reader;
            for (std::size_t at = 0; at < text.size(); at += piece)
                ASSERT_TRUE(reader.feed(std::string_view(text).substr(at, piece)));
            EXPECT_EQ(reader.finish().value(), expected);
        }
        // Cut short, both refuse it with the same error.
        const std::string cut = text.substr(0, text.size() / 2);
        forma::partial_reader<wide> reader;
        reader.feed(cut);
        const auto streamed = reader.finish();
        const auto whole = forma::try_from_json<wide>(cut);
        ASSERT_FALSE(streamed.has_value());
        ASSERT_FALSE(whole.has_value());
        EXPECT_STREQ(streamed.error().what(), whole.error().what());
    }
}

} // namespace
