#include <forma/net/sse_parser.hpp>

#include "support/chunking.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

using forma_test::cut;
using forma_test::random_cuts;

using forma::net::sse_event;
using forma::net::sse_parser;
using namespace std::chrono_literals;

sse_event event(std::string data, std::string type = "message", std::string id = {},
                std::optional<std::chrono::milliseconds> retry = std::nullopt) {
    return sse_event{std::move(type), std::move(data), std::move(id), retry};
}

std::vector<sse_event> parse_chunks(sse_parser& parser, const std::vector<std::string_view>& chunks) {
    std::vector<sse_event> out;
    for (std::string_view chunk : chunks) parser.feed(chunk, [&](const sse_event& e) { out.push_back(e); });
    return out;
}

std::vector<sse_event> parse(std::string_view stream, forma::net::sse_parser_options options = {}) {
    sse_parser parser(options);
    return parse_chunks(parser, {stream});
}

TEST(sse_parser, one_event) {
    EXPECT_EQ(parse("data: hello\n\n"), std::vector{event("hello")});
}

TEST(sse_parser, data_lines_are_joined_with_newlines) {
    EXPECT_EQ(parse("data: one\ndata: two\ndata:\ndata: four\n\n"), std::vector{event("one\ntwo\n\nfour")});
}

TEST(sse_parser, one_space_after_the_colon_is_dropped_and_no_more) {
    EXPECT_EQ(parse("data:x\n\ndata: x\n\ndata:  x\n\ndata:\tx\n\n"),
              (std::vector{event("x"), event("x"), event(" x"), event("\tx")}));
}

TEST(sse_parser, event_type_id_and_retry) {
    EXPECT_EQ(parse("event: delta\nid: 7\nretry: 1500\ndata: {}\n\n"),
              std::vector{event("{}", "delta", "7", 1500ms)});
}

TEST(sse_parser, event_error_is_dispatched_with_its_type) {
    EXPECT_EQ(parse("event: error\ndata: {\"error\":{\"message\":\"boom\"}}\n\n"),
              std::vector{event(R"({"error":{"message":"boom"}})", "error")});
}

TEST(sse_parser, the_type_resets_after_each_event_but_the_id_stays) {
    EXPECT_EQ(parse("event: a\nid: 1\ndata: x\n\ndata: y\n\nid\ndata: z\n\n"),
              (std::vector{event("x", "a", "1"), event("y", "message", "1"), event("z", "message", "")}));
}

TEST(sse_parser, an_id_with_a_nul_is_ignored) {
    using namespace std::string_literals;
    const std::string stream = "id: 1\ndata: a\n\nid: 2\0x\ndata: b\n\n"s;
    ASSERT_EQ(stream.size(), 32u);
    EXPECT_EQ(parse(stream), (std::vector{event("a", "message", "1"), event("b", "message", "1")}));
}

TEST(sse_parser, retry_accepts_digits_only) {
    sse_parser parser;
    const auto events = parse_chunks(parser, {"retry: 12a\ndata: a\n\nretry: -1\ndata: b\n\nretry: 250\n\n"});
    EXPECT_EQ(events, (std::vector{event("a"), event("b")}));
    EXPECT_EQ(parser.retry(), 250ms); // set by an event with no data, which is not dispatched
}

TEST(sse_parser, comments_are_ignored) {
    EXPECT_EQ(parse(": keep-alive\n\n:\ndata: a\n: inside\ndata: b\n\n"), std::vector{event("a\nb")});
}

TEST(sse_parser, a_field_without_a_colon_has_an_empty_value) {
    // "data" alone appends an empty line: the event is dispatched with empty data.
    EXPECT_EQ(parse("data\n\n"), std::vector{event("")});
    // "event" alone sets an empty type, which dispatches as "message".
    EXPECT_EQ(parse("event: x\nevent\ndata: a\n\n"), std::vector{event("a")});
}

TEST(sse_parser, an_event_without_data_is_not_dispatched_and_its_type_is_forgotten) {
    EXPECT_EQ(parse("event: ping\n\ndata: a\n\n"), std::vector{event("a")});
}

TEST(sse_parser, unknown_fields_are_ignored) {
    EXPECT_EQ(parse("foo: bar\nDATA: no\ndata: yes\n\n"), std::vector{event("yes")});
}

TEST(sse_parser, crlf_lf_and_cr_line_ends) {
    const std::vector expected{event("a\nb"), event("c\nd"), event("e\nf")};
    EXPECT_EQ(parse("data: a\r\ndata: b\r\n\r\ndata: c\ndata: d\n\ndata: e\rdata: f\r\r"), expected);
    EXPECT_EQ(parse("data: a\r\ndata: b\n\rdata: c\rdata: d\r\n\ndata: e\ndata: f\r\n\r\n"), expected);
}

TEST(sse_parser, a_cr_ending_one_chunk_and_an_lf_starting_the_next_are_one_line_end) {
    sse_parser parser;
    // Were CR and LF two line ends, the LF would be a blank line dispatching "a" alone.
    EXPECT_EQ(parse_chunks(parser, {"data: a\r", "\ndata: b\r", "\n\r", "\n"}), std::vector{event("a\nb")});
}

TEST(sse_parser, a_cr_then_a_chunk_not_starting_with_lf) {
    sse_parser parser;
    EXPECT_EQ(parse_chunks(parser, {"data: a\r", "data: b\r", "\r"}), std::vector{event("a\nb")});
}

TEST(sse_parser, a_bom_at_the_start_is_skipped) {
    EXPECT_EQ(parse("\xEF\xBB\xBF" "data: a\n\n"), std::vector{event("a")});
    sse_parser split;
    EXPECT_EQ(parse_chunks(split, {"\xEF", "\xBB", "\xBF" "da", "ta: a\n\n"}), std::vector{event("a")});
}

TEST(sse_parser, only_one_bom_and_only_at_the_start) {
    // A second BOM is part of the first field's name, which then is unknown.
    EXPECT_EQ(parse("\xEF\xBB\xBF\xEF\xBB\xBF" "data: a\n\ndata: b\n\n"), std::vector{event("b")});
    EXPECT_EQ(parse("data: a\n\n\xEF\xBB\xBF" "data: b\n\n"), std::vector{event("a")});
}

TEST(sse_parser, bytes_that_begin_like_a_bom_but_are_not_one_are_kept) {
    // Dropping the two bytes would turn the line into "data: a".
    EXPECT_EQ(parse("\xEF\xBB" "data: a\n\ndata: b\n\n"), std::vector{event("b")});
    sse_parser split;
    EXPECT_EQ(parse_chunks(split, {"\xEF", "\xBB", "data: a\n\ndata: b\n\n"}), std::vector{event("b")});
    // In a data value the bytes are data.
    EXPECT_EQ(parse("data: \xEF\xBB\xBF\n\n"), std::vector{event("\xEF\xBB\xBF")});
}

TEST(sse_parser, an_event_cut_by_the_end_of_the_stream_is_not_dispatched) {
    sse_parser parser;
    EXPECT_EQ(parse_chunks(parser, {"data: a\n\ndata: b\n"}), std::vector{event("a")});
    EXPECT_TRUE(parser.in_event());
    sse_parser mid_line;
    EXPECT_TRUE(parse_chunks(mid_line, {"data: hal"}).empty());
    EXPECT_TRUE(mid_line.in_event());
    sse_parser clean;
    parse_chunks(clean, {"data: a\n\n: bye\n"});
    EXPECT_FALSE(clean.in_event()); // a comment is no event
}

TEST(sse_parser, next_hands_out_one_event_at_a_time_and_leaves_the_rest) {
    sse_parser parser;
    std::string_view input = "data: a\n\ndata: b\n\ndata: c";
    const sse_event* e = parser.next(input);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->data, "a");
    EXPECT_EQ(input, "data: b\n\ndata: c");
    e = parser.next(input);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->data, "b");
    EXPECT_EQ(parser.next(input), nullptr);
    EXPECT_TRUE(input.empty());
    std::string_view rest = "\n\n";
    e = parser.next(rest);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->data, "c");
}

TEST(sse_parser, an_event_larger_than_the_limit_is_a_typed_error) {
    const forma::net::sse_parser_options small{.max_event_size = 64};
    const std::string big = "data: " + std::string(40, 'x') + "\ndata: " + std::string(40, 'y') + "\n\n";
    try {
        parse(big, small);
        FAIL() << "no error";
    } catch (const forma::stream_error& e) {
        EXPECT_EQ(e.kind(), forma::stream_error_kind::event_too_large);
        EXPECT_NE(std::string(e.what()).find("64 bytes"), std::string::npos) << e.what();
    }
    // The limit counts the event's lines, field names included: 64 bytes are fine, 65 are not.
    EXPECT_EQ(parse("data: " + std::string(58, 'z') + "\n\n", small).size(), 1u);
    EXPECT_THROW(parse("data: " + std::string(59, 'z') + "\n\n", small), forma::stream_error);
    EXPECT_EQ(parse("data: " + std::string(26, 'z') + "\ndata: " + std::string(26, 'z') + "\n\n", small).size(), 1u);
    EXPECT_THROW(parse("data: " + std::string(28, 'z') + "\nid: " + std::string(27, 'z') + "\n\n", small),
                 forma::stream_error);
    // A comment line is held while it is read, so it has the same limit; many short ones do not add up.
    EXPECT_THROW(parse(": " + std::string(63, 'c') + "\n", small), forma::stream_error);
    EXPECT_EQ(parse(": " + std::string(62, 'c') + "\n: " + std::string(62, 'c') + "\ndata: a\n\n", small).size(), 1u);
}

TEST(sse_parser, where_the_chunks_are_cut_never_changes_the_outcome_of_the_limit) {
    const forma::net::sse_parser_options small{.max_event_size = 64};
    const std::string under = ": " + std::string(62, 'c') + "\ndata: " + std::string(58, 'z') + "\n\n";
    const std::string over = ": c\ndata: " + std::string(58, 'z') + "\nid: x\n\n"; // 64 + 5 bytes of fields
    for (std::size_t i = 0; i <= over.size(); ++i) {
        sse_parser a(small);
        EXPECT_EQ(parse_chunks(a, cut(under, {std::min(i, under.size())})).size(), 1u) << i;
        sse_parser b(small);
        EXPECT_THROW(parse_chunks(b, cut(over, {i})), forma::stream_error) << i;
    }
}

TEST(sse_parser, a_line_that_never_ends_is_stopped_at_the_limit) {
    sse_parser parser({.max_event_size = 1000});
    const std::string chunk(100, 'x');
    std::string_view input;
    int fed = 0;
    EXPECT_THROW(
        for (; fed < 100; ++fed) {
            input = chunk;
            parser.next(input);
        },
        forma::stream_error);
    EXPECT_EQ(fed, 10); // the 11th chunk takes the line past 1000 bytes
}

TEST(sse_parser, the_limit_is_per_event_not_per_stream) {
    std::string stream;
    for (int i = 0; i < 10000; ++i) stream += ": ping\ndata: " + std::to_string(i) + "\n\n";
    sse_parser parser({.max_event_size = 16});
    std::mt19937 rng(7);
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i < stream.size(); i += 1 + rng() % 40) at.push_back(i);
    at.erase(at.begin());
    const auto events = parse_chunks(parser, cut(stream, at));
    ASSERT_EQ(events.size(), 10000u);
    EXPECT_EQ(events.back().data, "9999");
}

TEST(sse_parser, reset_starts_a_new_stream) {
    sse_parser parser;
    parse_chunks(parser, {"id: 5\nretry: 10\ndata: partial"});
    parser.reset();
    EXPECT_FALSE(parser.in_event());
    EXPECT_EQ(parser.last_event_id(), "");
    EXPECT_EQ(parser.retry(), std::nullopt);
    EXPECT_EQ(parse_chunks(parser, {"\xEF\xBB\xBF" "data: b\n\n"}), std::vector{event("b")});
}

// A stream with every feature; its events are written out by hand below.
const std::string rich_stream =
    "\xEF\xBB\xBF"
    ": comment\r\n"
    "retry: 3000\r\n"
    "id: first\r\n"
    "data: {\"delta\":\"Gr\xC3\xBC\xC3\x9F" "e\"}\r\n"
    "\r\n"
    "event: update\n"
    "data:line one\n"
    "data:  line two\n"
    "data\n"
    "\n"
    "data: cr only\r"
    "data: second\r"
    "\r"
    "event: error\r\n"
    "data: {\"error\":{\"message\":\"x\"}}\n"
    "\r"
    "event: ignored-without-data\n"
    "\n"
    "id\n"
    "data: [DONE]\r\n"
    "\r\n"
    "data: cut off at the end";

const std::vector<sse_event> rich_events{
    event("{\"delta\":\"Gr\xC3\xBC\xC3\x9F" "e\"}", "message", "first", 3000ms),
    event("line one\n line two\n", "update", "first"),
    event("cr only\nsecond", "message", "first"),
    event("{\"error\":{\"message\":\"x\"}}", "error", "first"),
    event("[DONE]", "message", ""),
};

TEST(sse_parser, the_rich_stream_whole) {
    EXPECT_EQ(parse(rich_stream), rich_events);
}

TEST(sse_parser, the_rich_stream_split_at_every_byte_boundary) {
    for (std::size_t i = 0; i <= rich_stream.size(); ++i) {
        sse_parser parser;
        ASSERT_EQ(parse_chunks(parser, cut(rich_stream, {i})), rich_events) << "split at " << i;
        EXPECT_TRUE(parser.in_event());
    }
}

TEST(sse_parser, the_rich_stream_split_at_every_pair_of_boundaries) {
    for (std::size_t i = 0; i <= rich_stream.size(); ++i)
        for (std::size_t j = i; j <= rich_stream.size(); ++j) {
            sse_parser parser;
            ASSERT_EQ(parse_chunks(parser, cut(rich_stream, {i, j})), rich_events)
                << "split at " << i << " and " << j;
        }
}

TEST(sse_parser, the_rich_stream_one_byte_at_a_time) {
    std::vector<std::size_t> at;
    for (std::size_t i = 1; i < rich_stream.size(); ++i) at.push_back(i);
    sse_parser parser;
    EXPECT_EQ(parse_chunks(parser, cut(rich_stream, at)), rich_events);
}

TEST(sse_parser, the_rich_stream_in_random_chunkings) {
    std::mt19937 rng(20240521);
    for (int round = 0; round < 2000; ++round) {
        const auto at = random_cuts(rich_stream.size(), 24, rng);
        sse_parser parser;
        ASSERT_EQ(parse_chunks(parser, cut(rich_stream, at)), rich_events) << "round " << round;
    }
}

} // namespace
