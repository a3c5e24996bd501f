#include <forma/json/detail/constraints.hpp>
#include <forma/json/schema_error.hpp>

#include <gtest/gtest.h>

#include <locale>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using forma::json_detail::matches_format;

namespace {

struct format_case {
    const char* format;
    std::vector<const char*> valid;
    std::vector<const char*> invalid;
};

const std::vector<format_case> cases = {
    {"date", {"2024-02-29", "1999-12-31"}, {"2023-02-29", "2024-13-01", "2024-1-01", "20240101", ""}},
    {"time", {"23:59:60Z", "08:30:00.123+02:00", "00:00:00z"}, {"24:00:00Z", "08:30:00", "8:30:00Z"}},
    {"date-time", {"2024-05-01T08:30:00Z", "2024-05-01t08:30:00.5-05:30"}, {"2024-05-01 08:30", "2024-05-01"}},
    {"duration", {"P1D", "PT1H30M", "P1Y2M3W4DT5H6M7S"}, {"P", "PT", "P1H", "1D", "P1DT"}},
    {"email", {"a@b.io", "x@y", "first.last+tag@example.com", "a@[127.0.0.1]", "a@[IPv6:::1]"},
     {"nobody", "@b.io", "a b@c.io", "a@-b.io", "a@[300.0.0.1]"}},
    {"hostname", {"example.com", "a-b.c", "localhost"}, {"-a.com", "a..b", "a_b.com", ""}},
    {"ipv4", {"127.0.0.1", "255.255.255.255"}, {"256.0.0.1", "1.2.3", "::1"}},
    {"ipv6", {"::1", "2001:db8::8a2e:370:7334"}, {"12345::", "127.0.0.1", ":::"}},
    {"uuid", {"123e4567-e89b-12d3-a456-426614174000"}, {"123e4567e89b12d3a456426614174000", "g23e4567-e89b-12d3-a456-426614174000"}},
    {"uri", {"https://example.com/a?b=c", "urn:isbn:0451450523"}, {"example.com", "http://a b", "1http://x"}},
};

} // namespace

TEST(formats, accept_what_the_format_allows_and_reject_the_rest) {
    for (const auto& c : cases) {
        EXPECT_TRUE(forma::json_detail::is_checked_format(c.format)) << c.format;
        for (const char* v : c.valid) EXPECT_TRUE(matches_format(c.format, v)) << c.format << ": " << v;
        for (const char* v : c.invalid) EXPECT_FALSE(matches_format(c.format, v)) << c.format << ": " << v;
    }
}

TEST(formats, unknown_formats_are_annotations_only) {
    EXPECT_FALSE(forma::json_detail::is_checked_format("color"));
    EXPECT_TRUE(matches_format("color", "anything"));
}

TEST(patterns, are_searched_not_anchored_and_invalid_ones_are_schema_errors) {
    EXPECT_TRUE(forma::json_detail::matches_pattern("b+", "abbbc"));
    EXPECT_FALSE(forma::json_detail::matches_pattern("^b+$", "abbbc"));
    EXPECT_THROW(forma::json_detail::matches_pattern("(", "x"), forma::schema_error);
}

// As ECMA-262 reads a pattern with the `u` flag (what JSON Schema validators use).
TEST(patterns, anchor_at_the_ends_of_the_text_and_dot_stops_at_line_breaks) {
    using forma::json_detail::matches_pattern;
    EXPECT_FALSE(matches_pattern("^abc$", "xyz\nabc"));
    EXPECT_FALSE(matches_pattern("^abc$", "abc\nxyz"));
    EXPECT_FALSE(matches_pattern("abc$", "abc\n"));
    EXPECT_FALSE(matches_pattern("^a.c$", "a\nc"));
    EXPECT_FALSE(matches_pattern("^a.c$", "a\rc"));
    EXPECT_FALSE(matches_pattern("^a.c$", "a\xE2\x80\xA8" "c")); // U+2028
    EXPECT_TRUE(matches_pattern("^a\\nc$", "a\nc"));
    EXPECT_TRUE(matches_pattern("^a[^x]c$", "a\nc"));
}

TEST(patterns, read_code_points_not_bytes) {
    using forma::json_detail::matches_pattern;
    EXPECT_TRUE(matches_pattern("^.{3}$", "\xC3\xA9t\xC3\xA9"));         // "été", 5 bytes
    EXPECT_TRUE(matches_pattern("^[^a]{3}$", "\xC3\xA9t\xC3\xA9"));
    EXPECT_TRUE(matches_pattern("^\xC3\xA9+$", "\xC3\xA9\xC3\xA9"));   // "é+" repeats é
    EXPECT_FALSE(matches_pattern("^.$", "\xC3\xA9t"));
    EXPECT_TRUE(matches_pattern("^.$", "\xF0\x9F\x98\x80"));           // one code point, 4 bytes
}

TEST(patterns, dot_matches_every_code_point_but_the_four_line_terminators) {
    using forma::json_detail::matches_pattern;
    EXPECT_TRUE(matches_pattern("^.$", "\f"));
    EXPECT_TRUE(matches_pattern("^.$", "\xC2\x85"));         // U+0085
    EXPECT_TRUE(matches_pattern("^.$", "\xF0\xA0\x82\x85")); // U+20085: its low 16 bits are 0x0085
    EXPECT_TRUE(matches_pattern("^.$", "\xF2\x82\x80\xA8")); // U+82028
    EXPECT_FALSE(matches_pattern("^.$", "\xE2\x80\xA9"));    // U+2029
    EXPECT_TRUE(matches_pattern("^[.]$", "."));
    EXPECT_FALSE(matches_pattern("^[.]$", "x"));
    EXPECT_TRUE(matches_pattern("^\\.$", "."));
    EXPECT_FALSE(matches_pattern("^\\.$", "x"));
}

TEST(patterns, unicode_escapes_name_code_points) {
    using forma::json_detail::matches_pattern;
    EXPECT_TRUE(matches_pattern("^\\u00e9$", "\xC3\xA9"));
    EXPECT_FALSE(matches_pattern("^\\u00e9$", "E00e9")); // Boost alone reads \u as "an upper-case letter"
    EXPECT_TRUE(matches_pattern("^[\\u0041-\\u005A]+$", "ABC"));
    EXPECT_FALSE(matches_pattern("^[\\u0041-\\u005A]+$", "abc"));
    EXPECT_TRUE(matches_pattern("^\\u{1F600}$", "\xF0\x9F\x98\x80"));
    EXPECT_TRUE(matches_pattern("^\\uD83D\\uDE00$", "\xF0\x9F\x98\x80")); // a surrogate pair is one
    EXPECT_THROW(matches_pattern("\\u12", "x"), forma::schema_error);
    EXPECT_THROW(matches_pattern("\\u{110000}", "x"), forma::schema_error);
}

TEST(patterns, unicode_property_escapes_are_refused_not_misread) {
    // Boost would read \p{L} as its own "lower" class: "é" would not be a letter.
    for (const char* p : {"^\\p{L}+$", "^\\P{L}$", "^[\\p{Lu}]$"}) {
        try {
            forma::json_detail::matches_pattern(p, "x");
            ADD_FAILURE() << p << " was accepted";
        } catch (const forma::schema_error& e) {
            EXPECT_NE(std::string(e.what()).find("Unicode property escapes"), std::string::npos) << e.what();
        }
    }
}

TEST(patterns, empty_classes_as_ecma_262_reads_them) {
    using forma::json_detail::matches_pattern;
    EXPECT_TRUE(matches_pattern("^a[^]b$", "a\nb"));
    EXPECT_FALSE(matches_pattern("a[]", "a"));
    EXPECT_FALSE(matches_pattern("a[]", "a]"));
}

TEST(patterns, word_and_digit_classes_are_ascii_whatever_the_global_locale) {
    using forma::json_detail::matches_pattern;
    std::locale utf8;
    try {
        utf8 = std::locale("C.UTF-8");
    } catch (const std::runtime_error&) {
        GTEST_SKIP() << "no C.UTF-8 locale here";
    }
    const std::locale previous = std::locale::global(utf8);
    // Patterns not used before in this thread, so they are compiled under this locale.
    const bool word = matches_pattern("^\\w$ (global locale test)|^\\w$", "\xC3\xA9");
    const bool digit = matches_pattern("^\\d$ (global locale test)|^\\d$", "\xD9\xA0"); // U+0660
    std::locale::global(previous);
    EXPECT_FALSE(word);
    EXPECT_FALSE(digit);
}
