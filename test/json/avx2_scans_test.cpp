// White space and runs of non-ASCII text are scanned 32 bytes at a time with AVX2 where the CPU
// has it, and otherwise 16 or one at a time: both paths must give every reader and writer the
// same answers, and the answers must be JSON's and UTF-8's (Boost.JSON's parser, which checks
// UTF-8, is the oracle).

#include <forma/json/from_json.hpp>
#include <forma/json/to_json.hpp>

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <random>
#include <utility>
#include <variant>
#include <string>
#include <vector>

namespace {

namespace detail = forma::json_detail;

struct outcome {
    std::optional<std::string> value;
    std::string error; // reason and offset
    bool operator==(const outcome&) const = default;
};

outcome read_string(const std::string& json) {
    try {
        return {forma::from_json<std::string>(json), {}};
    } catch (const forma::json_error& e) {
        return {std::nullopt, e.reason() + " at " + std::to_string(e.offset())};
    }
}

template <class T>
outcome read_as_text(const std::string& json) {
    try {
        return {forma::to_json(forma::from_json<T>(json)), {}};
    } catch (const forma::json_error& e) {
        return {std::nullopt, e.reason() + " at " + std::to_string(e.offset())};
    }
}

outcome write_string(const std::string& bytes) {
    try {
        return {forma::to_json(bytes), {}};
    } catch (const forma::json_error& e) {
        return {std::nullopt, e.reason()};
    }
}

// Both paths of one call; the AVX2 path is turned back on whatever happens.
template <class F>
auto both_paths(F f) {
    struct restore {
        ~restore() { detail::avx2_scans_enabled = true; }
    } on_exit;
    detail::avx2_scans_enabled = true;
    auto fast = f();
    detail::avx2_scans_enabled = false;
    auto one_by_one = f();
    return std::pair(fast, one_by_one);
}

bool utf8_per_boost_json(const std::string& json) {
    boost::system::error_code ec;
    (void)boost::json::parse(json, ec);
    return !ec;
}

// Pieces of text: characters of 1 to 4 bytes, and what UTF-8 forbids (cut sequences, stray
// continuation bytes, overlongs, surrogates, code points past U+10FFFF, bytes never used).
const std::vector<std::string> valid_pieces = {"a", " ", "é", "ß", "日", "本", "語", "€", "𝄞", "😀", "\xC2\x80", "\xDF\xBF",
                                               "\xE0\xA0\x80", "\xED\x9F\xBF", "\xEE\x80\x80", "\xEF\xBF\xBF", "\xF0\x90\x80\x80",
                                               "\xF4\x8F\xBF\xBF"};
const std::vector<std::string> invalid_pieces = {"\xC3", "\xE3\x81", "\xF0\x9F\x98", "\x80", "\xBF", "\xC0\x80", "\xC1\xBF",
                                                 "\xE0\x80\x80", "\xE0\x9F\xBF", "\xED\xA0\x80", "\xED\xBF\xBF",
                                                 "\xF0\x80\x80\x80", "\xF0\x8F\xBF\xBF", "\xF4\x90\x80\x80", "\xF5\x80\x80\x80",
                                                 "\xF8\x88\x80\x80\x80", "\xFE", "\xFF"};

} // namespace

TEST(avx2_scans, random_runs_read_and_write_the_same_on_both_paths_and_as_utf8_says) {
    std::mt19937_64 random(2026);
    int invalid_seen = 0;
    for (int i = 0; i < 20000; ++i) {
        // A run of non-ASCII text (led by a character of two, three or four bytes), long enough
        // for one to three blocks of 32 bytes; now and then escapes, or a piece UTF-8 forbids.
        static const std::string leads[] = {"é", "日", "😀"};
        std::string text = leads[i % 3];
        const std::size_t pieces = random() % 40;
        for (std::size_t k = 0; k < pieces; ++k) {
            const auto roll = random() % 100;
            if (roll < 2) text += invalid_pieces[random() % invalid_pieces.size()];
            else if (roll < 4) text += "\\n";
            else if (roll < 5) text += "\\u00e9";
            else text += valid_pieces[random() % valid_pieces.size()];
        }
        const std::string json = "\"" + std::string(random() % 3, 'x') + text + "\"";
        const auto [fast, one_by_one] = both_paths([&] { return read_string(json); });
        ASSERT_EQ(fast, one_by_one) << json;
        ASSERT_EQ(fast.value.has_value(), utf8_per_boost_json(json)) << json << ": " << fast.error;
        if (fast.value) {
            ASSERT_EQ(*fast.value, boost::json::parse(json).as_string()) << json;
        } else {
            ++invalid_seen;
        }
        if (text.find('\\') == std::string::npos) {
            const auto [written_fast, written_one_by_one] = both_paths([&] { return write_string(text); });
            ASSERT_EQ(written_fast, written_one_by_one) << json;
            if (written_fast.value) {
                ASSERT_EQ(*written_fast.value, "\"" + text + "\"");
            }
        }
    }
    EXPECT_GT(invalid_seen, 1000); // both kinds of text were tried
}

TEST(avx2_scans, an_error_at_any_place_of_a_long_run_is_reported_there) {
    std::string run;
    for (int i = 0; i < 30; ++i) run += i % 7 == 6 ? "é" : "日本";
    for (std::size_t at = 0; at <= run.size(); ++at) {
        for (const std::string& bad : {std::string("\xFF"), std::string("\xE3\x81"), std::string("\xED\xA0\x80")}) {
            std::string text = run;
            // Only at a character's first byte, so that what is before stays valid.
            if (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) continue;
            text.insert(at, bad);
            const std::string json = "\"" + text + "\"";
            const auto [fast, one_by_one] = both_paths([&] { return read_string(json); });
            ASSERT_EQ(fast, one_by_one) << at;
            ASSERT_FALSE(fast.value) << at;
            EXPECT_NE(fast.error.find("invalid UTF-8 in string"), std::string::npos) << fast.error;
            EXPECT_TRUE(fast.error.ends_with(") at " + std::to_string(1 + at))) << fast.error;
        }
    }
}

TEST(avx2_scans, a_run_ends_at_a_quote_backslash_or_control_character_in_any_place_of_a_block) {
    for (std::size_t length = 1; length < 80; ++length) {
        std::string run;
        while (run.size() < length) run += "語";
        const std::pair<std::string, std::optional<std::string>> endings[] = {
            {"\"", run}, {"\\t\"", run + "\t"}, {"a\"", run + "a"}, {"\x01\"", std::nullopt}};
        for (const auto& [after, expected] : endings) {
            const std::string json = "\"" + run + after;
            const auto [fast, one_by_one] = both_paths([&] { return read_string(json); });
            ASSERT_EQ(fast, one_by_one) << length;
            EXPECT_EQ(fast.value, expected) << length;
        }
        // Cut at the end of the input: a string that never closes.
        const auto [fast, one_by_one] = both_paths([&] { return read_string("\"" + run); });
        ASSERT_EQ(fast, one_by_one) << length;
        EXPECT_FALSE(fast.value);
    }
}

TEST(avx2_scans, white_space_of_every_length_and_kind_is_skipped_and_nothing_else) {
    const std::string blanks = " \n\t\r";
    for (std::size_t length = 0; length < 100; ++length) {
        std::string run;
        for (std::size_t i = 0; i < length; ++i) run += blanks[(i * 7 + length) % blanks.size()];
        const std::string json = "[1," + run + "2" + run + "," + run + "[" + run + "]" + run + "]" + run;
        const auto [fast, one_by_one] = both_paths([&] { return read_as_text<std::vector<std::variant<int, std::vector<int>>>>(json); });
        ASSERT_EQ(fast, one_by_one) << length;
        ASSERT_EQ(fast.value, std::optional<std::string>("[1,2,[]]")) << length << ": " << fast.error;
        // A byte that looks blank but is not JSON's white space, at each place of the run.
        for (const char intruder : {'\v', '\f', '\0', '\x1f', '!', '\xA0'}) {
            for (std::size_t at = 0; at < length; at += 1 + length / 8) {
                std::string broken = run;
                broken[at] = intruder;
                const std::string bad = "[1," + broken + "2]";
                const auto [bad_fast, bad_one_by_one] = both_paths([&] { return read_as_text<std::vector<int>>(bad); });
                ASSERT_EQ(bad_fast, bad_one_by_one) << length << " " << at;
                ASSERT_FALSE(bad_fast.value) << length << " " << at;
                EXPECT_TRUE(bad_fast.error.ends_with(") at " + std::to_string(3 + at))) << bad_fast.error;
            }
        }
    }
}
