#include <forma/openai/stream_parser.hpp>

#include "fixtures.hpp"

#include <forma/model.hpp>
#include <forma/openai/response_parser.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include "support/chunking.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace {

using forma_test::cut;
using forma_test::random_cuts;

using namespace forma;
using forma::openai::parse_response;
using forma::openai::stream_parser;
using forma::openai::stream_parser_options;
using forma_openai_test::fixture;

// Every update of `chunks` fed in order, then finish().
std::vector<agent_response_update> updates_of(const std::vector<std::string_view>& chunks,
                                              stream_parser_options options = {}) {
    stream_parser parser(options);
    std::vector<agent_response_update> out;
    for (std::string_view chunk : chunks)
        parser.feed(chunk, [&](agent_response_update&& u) { out.push_back(std::move(u)); });
    parser.finish();
    return out;
}

std::vector<agent_response_update> updates_of(std::string_view stream, stream_parser_options options = {}) {
    return updates_of(std::vector{stream}, options);
}

std::string refusal_text(const agent_response<>& r) {
    std::string out;
    for (const auto& m : r.messages)
        for (const auto& c : m.contents)
            if (const auto* refusal = std::get_if<refusal_content>(&c)) out += refusal->refusal;
    return out;
}

std::vector<function_call_content> calls_of(const agent_response<>& r) {
    std::vector<function_call_content> out;
    for (const auto& m : r.messages)
        for (const auto& c : m.contents)
            if (const auto* call = std::get_if<function_call_content>(&c)) out.push_back(*call);
    return out;
}

// The merge check: the stream merged equals the same answer sent whole.
void expect_same_answer(const std::string& stream_name, const std::string& body_name) {
    SCOPED_TRACE(stream_name);
    const agent_response<> streamed = to_agent_response(updates_of(fixture(stream_name)));
    const agent_response<> whole = parse_response(fixture(body_name));
    EXPECT_EQ(streamed.text(), whole.text());
    EXPECT_EQ(streamed.finish_reason, whole.finish_reason);
    EXPECT_EQ(streamed.usage, whole.usage);
    EXPECT_EQ(streamed.response_id, whole.response_id);
    EXPECT_EQ(streamed.created_at, whole.created_at);
    EXPECT_EQ(streamed.additional_properties, whole.additional_properties);
    EXPECT_EQ(refusal_text(streamed), refusal_text(whole));
    EXPECT_EQ(calls_of(streamed), calls_of(whole));
    ASSERT_EQ(streamed.messages.size(), whole.messages.size());
    for (std::size_t i = 0; i < whole.messages.size(); ++i) {
        EXPECT_EQ(streamed.messages[i].role, whole.messages[i].role);
        EXPECT_EQ(streamed.messages[i].message_id, whole.messages[i].message_id);
        EXPECT_EQ(streamed.messages[i].created_at, whole.messages[i].created_at);
    }
}

TEST(openai_stream, merged_streams_equal_the_whole_answers) {
    expect_same_answer("streams/text.sse", "responses/text.json");
    expect_same_answer("streams/refusal.sse", "responses/refusal.json");
    expect_same_answer("streams/length.sse", "responses/length.json");
    expect_same_answer("streams/tool_calls.sse", "responses/tool_calls.json");
    expect_same_answer("streams/reasoning.sse", "responses/reasoning.json"); // CRLF line ends
}

TEST(openai_stream, a_text_stream_update_by_update) {
    const auto updates = updates_of(fixture("streams/text.sse"));
    const std::vector<std::string> texts{"", "Hello", "!", " How", " can", " I", " help", " you", " today", "?", "", ""};
    ASSERT_EQ(updates.size(), texts.size());
    const std::string id = "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG";
    const auto created = std::chrono::system_clock::time_point(std::chrono::seconds(1741570283));
    for (std::size_t i = 0; i < updates.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(updates[i].text(), texts[i]);
        EXPECT_EQ(updates[i].response_id, id);
        EXPECT_EQ(updates[i].created_at, created);
        EXPECT_TRUE(updates[i].raw_representation.is_null());
    }
    // The first carries the role and the model, and starts the message with no contents.
    EXPECT_EQ(updates[0].role, chat_role::assistant());
    EXPECT_TRUE(updates[0].contents.empty());
    EXPECT_EQ(updates[0].message_id, id);
    EXPECT_EQ(updates[0].additional_properties, (boost::json::object{{"model", "gpt-4o-2024-08-06"}}));
    EXPECT_FALSE(updates[1].role);
    EXPECT_TRUE(updates[1].additional_properties.empty());
    ASSERT_EQ(updates[1].contents.size(), 1u);
    EXPECT_EQ(std::get<text_content>(updates[1].contents[0]).text, "Hello");
    EXPECT_EQ(updates[1].message_id, id);
    // The finish reason comes alone.
    EXPECT_EQ(updates[10].finish_reason, finish_reason::stop());
    EXPECT_TRUE(updates[10].contents.empty());
    // The usage-only chunk: a usage update that starts no message.
    EXPECT_EQ(updates[11].message_id, "");
    ASSERT_EQ(updates[11].contents.size(), 1u);
    const auto& usage = std::get<usage_content>(updates[11].contents[0]).details;
    EXPECT_EQ(usage.input_token_count, 19);
    EXPECT_EQ(usage.output_token_count, 10);
    EXPECT_EQ(usage.total_token_count, 29);
    EXPECT_EQ(usage.cached_input_token_count, 0);
    EXPECT_EQ(usage.reasoning_token_count, 0);
}

TEST(openai_stream, refusal_deltas_are_refusal_content) {
    const auto updates = updates_of(fixture("streams/refusal.sse"));
    ASSERT_GE(updates.size(), 4u);
    ASSERT_EQ(updates[1].contents.size(), 1u);
    EXPECT_EQ(std::get<refusal_content>(updates[1].contents[0]).refusal, "I'm sorry");
    EXPECT_EQ(to_agent_response(updates).text(), "");
}

TEST(openai_stream, tool_calls_come_out_on_the_finishing_update) {
    const auto updates = updates_of(fixture("streams/tool_calls.sse"));
    for (std::size_t i = 0; i + 2 < updates.size(); ++i)
        for (const auto& c : updates[i].contents) EXPECT_FALSE(std::holds_alternative<function_call_content>(c));
    const auto& finishing = updates[updates.size() - 2];
    EXPECT_EQ(finishing.finish_reason, finish_reason::tool_calls());
    ASSERT_EQ(finishing.contents.size(), 2u);
    const auto& weather = std::get<function_call_content>(finishing.contents[0]);
    EXPECT_EQ(weather.call_id, "call_Ab12Cd34Ef56Gh78");
    EXPECT_EQ(weather.arguments, (boost::json::object{{"city", "Paris"}, {"unit", "c"}}));
}

TEST(openai_stream, every_fixture_split_at_every_byte_boundary_gives_the_same_updates) {
    for (const char* name : {"streams/text.sse", "streams/refusal.sse", "streams/length.sse",
                             "streams/tool_calls.sse", "streams/reasoning.sse"}) {
        SCOPED_TRACE(name);
        const std::string stream = fixture(name);
        const auto whole = updates_of(stream);
        ASSERT_FALSE(whole.empty());
        for (std::size_t i = 0; i <= stream.size(); ++i)
            ASSERT_EQ(updates_of(cut(stream, {i})), whole) << "split at " << i;
    }
}

TEST(openai_stream, every_fixture_in_random_chunkings_gives_the_same_updates) {
    std::mt19937 rng(5);
    for (const char* name : {"streams/text.sse", "streams/tool_calls.sse", "streams/reasoning.sse"}) {
        SCOPED_TRACE(name);
        const std::string stream = fixture(name);
        const auto whole = updates_of(stream);
        for (int round = 0; round < 300; ++round) {
            const auto at = random_cuts(stream.size(), 700, rng);
            ASSERT_EQ(updates_of(cut(stream, at)), whole) << "round " << round;
        }
    }
}

// A stream and the equivalent whole body, both written here from one text split at random.
TEST(openai_stream, generated_streams_merge_to_the_whole_answer) {
    std::mt19937 rng(11);
    const std::string alphabet = "abc de\"f\\g\n\xC3\xA9\xE4\xBD\xA0";
    for (int round = 0; round < 50; ++round) {
        std::string text;
        const std::size_t length = rng() % 400;
        while (text.size() < length) {
            // Whole characters only: a delta is valid UTF-8.
            static const std::vector<std::string> pieces{"a", "b", " ", "\"", "\\", "\n", "\xC3\xA9", "\xE4\xBD\xA0", "{", "}"};
            text += pieces[rng() % pieces.size()];
        }
        const std::string head = R"({"id":"chatcmpl-gen)" + std::to_string(round) +
                                 R"(","object":"chat.completion.chunk","created":1700000000,"model":"m",)";
        std::string stream = "data: " + head + R"("choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]})" + "\n\n";
        std::size_t at = 0;
        while (at < text.size()) {
            std::size_t n = 1 + rng() % 12;
            while (at + n < text.size() && (static_cast<unsigned char>(text[at + n]) & 0xC0) == 0x80) ++n;
            const std::string piece = text.substr(at, n);
            at += piece.size();
            stream += "data: " + head + R"("choices":[{"index":0,"delta":{"content":)" +
                      boost::json::serialize(boost::json::value(piece)) + R"(},"finish_reason":null}]})" + "\n\n";
        }
        stream += "data: " + head + R"("choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})" + "\n\n";
        stream += "data: " + head + R"("choices":[],"usage":{"prompt_tokens":7,"completion_tokens":)" +
                  std::to_string(round) + R"(,"total_tokens":)" + std::to_string(7 + round) + "}}\n\ndata: [DONE]\n\n";
        const std::string body =
            R"({"id":"chatcmpl-gen)" + std::to_string(round) +
            R"(","object":"chat.completion","created":1700000000,"model":"m","choices":[{"index":0,"message":)" +
            R"({"role":"assistant","content":)" + boost::json::serialize(boost::json::value(text)) +
            R"(,"refusal":null},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":7,"completion_tokens":)" +
            std::to_string(round) + R"(,"total_tokens":)" + std::to_string(7 + round) + "}}";
        const agent_response<> streamed = to_agent_response(updates_of(stream));
        const agent_response<> whole = parse_response(body);
        ASSERT_EQ(streamed.text(), text) << "round " << round;
        ASSERT_EQ(whole.text(), text);
        EXPECT_EQ(streamed.finish_reason, whole.finish_reason);
        EXPECT_EQ(streamed.usage, whole.usage);
        EXPECT_EQ(streamed.messages.size(), 1u);
    }
}

TEST(openai_stream, done_ends_the_stream_and_later_bytes_are_ignored) {
    stream_parser parser;
    std::vector<agent_response_update> out;
    parser.feed(fixture("streams/text.sse") + "data: {not json\n\nevent: error\ndata: x\n\n",
                [&](agent_response_update&& u) { out.push_back(std::move(u)); });
    EXPECT_TRUE(parser.done());
    EXPECT_EQ(out.size(), 12u);
    EXPECT_NO_THROW(parser.finish());
}

std::string until(const std::string& stream, std::string_view marker) {
    const auto at = stream.find(marker);
    EXPECT_NE(at, std::string::npos) << marker;
    return stream.substr(0, at);
}

TEST(openai_stream, a_stream_cut_before_a_finish_reason_is_an_error) {
    const std::string stream = fixture("streams/text.sse");
    const std::string before_finish = until(stream, R"(data: {"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion.chunk","created":1741570283,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_fc9f1d7035","choices":[{"index":0,"delta":{},)");
    try {
        updates_of(before_finish);
        FAIL() << "no error";
    } catch (const stream_error& e) {
        EXPECT_EQ(e.kind(), stream_error_kind::incomplete);
        EXPECT_STREQ(e.what(), "the response stream ended before [DONE] and before a finish reason: the "
                               "answer is incomplete");
    }
    // Cut inside an event.
    try {
        updates_of(before_finish + "data: {\"id\":");
        FAIL() << "no error";
    } catch (const stream_error& e) {
        EXPECT_EQ(e.kind(), stream_error_kind::incomplete);
        EXPECT_NE(std::string(e.what()).find("in the middle of an event"), std::string::npos);
    }
    // Nothing at all.
    EXPECT_THROW(updates_of(""), stream_error);
    // Only comments.
    EXPECT_THROW(updates_of(": keep-alive\n\n"), stream_error);
}

TEST(openai_stream, a_finish_reason_without_done_is_complete) {
    // Some compatible servers close the stream after the finish reason without [DONE].
    const std::string stream = fixture("streams/text.sse");
    const auto updates = updates_of(until(stream, "data: [DONE]"));
    EXPECT_EQ(to_agent_response(updates).text(), "Hello! How can I help you today?");
    const auto without_usage = updates_of(until(stream, R"(data: {"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion.chunk","created":1741570283,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_fc9f1d7035","choices":[],)"));
    EXPECT_EQ(to_agent_response(without_usage).finish_reason, finish_reason::stop());
}

TEST(openai_stream, done_without_a_finish_reason_is_complete) {
    EXPECT_NO_THROW(updates_of("data: [DONE]\n\n"));
}

TEST(openai_stream, an_error_event_is_an_http_error) {
    const std::string stream = fixture("streams/error_event.sse");
    stream_parser parser;
    std::vector<agent_response_update> out;
    try {
        parser.feed(stream, [&](agent_response_update&& u) { out.push_back(std::move(u)); });
        FAIL() << "no error";
    } catch (const http_error& e) {
        EXPECT_EQ(e.status(), 0);
        EXPECT_EQ(e.type(), "server_error");
        EXPECT_STREQ(e.what(), "error in the response stream (server_error): The server had an error while "
                               "processing your request. Sorry about that!");
    }
    EXPECT_EQ(out.size(), 2u); // what came before the error was handed out as it arrived
    // An error event whose data is not JSON.
    try {
        updates_of("event: error\ndata: upstream closed\n\n");
        FAIL() << "no error";
    } catch (const http_error& e) {
        EXPECT_STREQ(e.what(), "error in the response stream: upstream closed");
    }
}

TEST(openai_stream, an_error_chunk_is_an_http_error) {
    try {
        updates_of(fixture("streams/error_chunk.sse"));
        FAIL() << "no error";
    } catch (const http_error& e) {
        EXPECT_EQ(e.status(), 0);
        EXPECT_EQ(e.code(), "timeout");
        EXPECT_STREQ(e.what(), "error in the response stream (timeout): Request timed out while generating the "
                               "response.");
    }
}

TEST(openai_stream, malformed_chunks_are_json_errors_with_a_path) {
    try {
        updates_of(R"(data: {"id":"x","choices":[{"index":0,"delta":{"content":7}}]})" "\n\n");
        FAIL() << "no error";
    } catch (const json_error& e) {
        EXPECT_EQ(e.path(), "/choices/0/delta/content");
    }
    try {
        updates_of(R"(data: {"id":"x","choices":[{"index":0,"delta":{"content":"a"}})" "\n\n");
        FAIL() << "no error";
    } catch (const json_error& e) {
        EXPECT_NE(e.offset(), json_error::npos);
    }
    EXPECT_THROW(updates_of("data: not json\n\n"), json_error);
    EXPECT_THROW(updates_of(R"(data: {"id":"x","choices":[{"index":0,"delta":{"tool_calls":[{"index":99999999}]}}]})"
                            "\n\n"),
                 json_error);
}

TEST(openai_stream, raw_chunks_are_kept_when_asked) {
    const auto updates = updates_of(fixture("streams/text.sse"), {.keep_raw_chunks = true});
    EXPECT_EQ(updates[1].raw_representation.at("choices").at(0).at("delta"),
              (boost::json::object{{"content", "Hello"}}));
    EXPECT_EQ(updates[1].raw_representation.at("obfuscation"), "Qm");
}

TEST(openai_stream, chunks_that_carry_nothing_and_other_event_types_give_no_update) {
    const std::string stream =
        // Azure's first chunk: no id, no choices, prompt filter results.
        R"(data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]})"
        "\n\n"
        "event: ping\ndata: {}\n\n"
        R"(data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":null}]})"
        "\n\n"
        R"(data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]})"
        "\n\ndata: [DONE]\n\n";
    const auto updates = updates_of(stream);
    ASSERT_EQ(updates.size(), 1u);
    EXPECT_EQ(updates[0].text(), "hi");
    EXPECT_EQ(updates[0].finish_reason, finish_reason::stop());
}

TEST(openai_stream, the_model_is_reported_when_it_changes) {
    const std::string chunk_a = R"(data: {"id":"x","created":1,"model":"a","choices":[{"index":0,"delta":{"content":"1"}}]})" "\n\n";
    const std::string chunk_b = R"(data: {"id":"x","created":1,"model":"b","choices":[{"index":0,"delta":{"content":"2"},"finish_reason":"stop"}]})" "\n\n";
    const auto updates = updates_of(chunk_a + chunk_a + chunk_b);
    ASSERT_EQ(updates.size(), 3u);
    EXPECT_EQ(updates[0].additional_properties.at("model"), "a");
    EXPECT_TRUE(updates[1].additional_properties.empty());
    EXPECT_EQ(updates[2].additional_properties.at("model"), "b");
    EXPECT_EQ(to_agent_response(updates).additional_properties.at("model"), "b");
}

TEST(openai_stream, reasoning_deltas_of_compatible_servers) {
    const auto updates = updates_of(
        R"(data: {"id":"x","created":1,"model":"m","choices":[{"index":0,"delta":{"reasoning_content":"Let me "}}]})" "\n\n"
        R"(data: {"id":"x","created":1,"model":"m","choices":[{"index":0,"delta":{"reasoning":"think."}}]})" "\n\n"
        R"(data: {"id":"x","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"4"},"finish_reason":"stop"}]})" "\n\n");
    const agent_response<> r = to_agent_response(updates);
    ASSERT_EQ(r.messages.size(), 1u);
    ASSERT_EQ(r.messages[0].contents.size(), 2u);
    EXPECT_EQ(std::get<text_reasoning_content>(r.messages[0].contents[0]).text, "Let me think.");
    EXPECT_EQ(r.text(), "4");
}

TEST(openai_stream, tool_calls_pending_at_done_are_handed_out) {
    const auto updates = updates_of(
        R"(data: {"id":"x","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"f","arguments":"{\"a\":"}}]}}]})" "\n\n"
        R"(data: {"id":"x","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]}}]})" "\n\n"
        "data: [DONE]\n\n");
    ASSERT_EQ(updates.size(), 1u);
    ASSERT_EQ(updates[0].contents.size(), 1u);
    const auto& call = std::get<function_call_content>(updates[0].contents[0]);
    EXPECT_EQ(call.call_id, "c1");
    EXPECT_EQ(call.arguments, (boost::json::object{{"a", 1}}));
}

TEST(openai_stream, the_answer_tools_argument_deltas_are_text_and_other_calls_stay_calls) {
    // As in structured_output_mode::tool, with get_weather taking the answer tool's place.
    const auto updates = updates_of(fixture("streams/tool_calls.sse"), {.answer_tool = "get_weather"});
    std::vector<std::string> texts;
    for (const auto& u : updates)
        for (const auto& c : u.contents)
            if (const auto* t = std::get_if<text_content>(&c)) texts.push_back(t->text);
    EXPECT_EQ(texts, (std::vector<std::string>{R"({"city":)", R"("Paris","unit":"c"})"})); // as they came
    const auto r = to_agent_response(updates);
    EXPECT_EQ(r.text(), R"({"city":"Paris","unit":"c"})");
    const auto calls = calls_of(r);
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].name, "get_time");
    EXPECT_EQ(r.finish_reason, finish_reason::tool_calls()); // get_time is still to run
}

TEST(openai_stream, a_finish_with_only_the_answer_call_is_a_stop) {
    const auto updates = updates_of(
        R"(data: {"id":"x","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"c1","function":{"name":"final_result","arguments":""}}]}}]})" "\n\n"
        R"(data: {"id":"x","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":1}"}}]}}]})" "\n\n"
        R"(data: {"id":"x","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})" "\n\n"
        "data: [DONE]\n\n",
        {.answer_tool = "final_result"});
    const auto r = to_agent_response(updates);
    EXPECT_EQ(r.text(), R"({"a":1})");
    EXPECT_TRUE(calls_of(r).empty());
    EXPECT_EQ(r.finish_reason, finish_reason::stop());
}

TEST(openai_stream, an_oversized_event_is_a_stream_error) {
    const std::string big = "data: {\"id\":\"" + std::string(5000, 'x') + "\"}\n\n";
    try {
        updates_of(big, {.sse = {.max_event_size = 4096}});
        FAIL() << "no error";
    } catch (const stream_error& e) {
        EXPECT_EQ(e.kind(), stream_error_kind::event_too_large);
    }
}

TEST(openai_stream, next_hands_out_one_update_at_a_time) {
    stream_parser parser;
    const std::string stream = fixture("streams/text.sse");
    std::string_view input = stream;
    auto first = parser.next(input);
    ASSERT_TRUE(first);
    EXPECT_EQ(first->role, chat_role::assistant());
    EXPECT_FALSE(input.empty());
    auto second = parser.next(input);
    ASSERT_TRUE(second);
    EXPECT_EQ(second->text(), "Hello");
    EXPECT_FALSE(parser.finished());
    int rest = 0;
    while (parser.next(input)) ++rest;
    EXPECT_EQ(rest, 10);
    EXPECT_TRUE(parser.finished());
    EXPECT_TRUE(parser.done());
}

} // namespace
