#include <forma/openai/responses_parser.hpp>

#include <forma/model.hpp>
#include <forma/model/output_truncated_error.hpp>

#include "support/chunking.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace forma;
using forma::openai::parse_responses_response;
using forma::openai::responses_stream_parser;
using forma::openai::responses_token;

// A finished response: reasoning, a message with text, a function call and an item forma does not know.
constexpr std::string_view finished_response = R"({
  "id": "resp_1", "object": "response", "created_at": 1741476542, "status": "completed", "model": "gpt-5",
  "error": null, "incomplete_details": null,
  "output": [
    {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Think "},
                                                    {"type": "summary_text", "text": "twice."}],
     "encrypted_content": "enc_abc"},
    {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
     "content": [{"type": "output_text", "text": "Hello ", "annotations": []},
                 {"type": "output_text", "text": "there.", "annotations": []}]},
    {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
     "arguments": "{\"city\":\"Oslo\"}", "status": "completed"},
    {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search"}}
  ],
  "usage": {"input_tokens": 12, "input_tokens_details": {"cached_tokens": 4},
            "output_tokens": 30, "output_tokens_details": {"reasoning_tokens": 9}, "total_tokens": 42}
})";

// The same response as a stream, the way the API sends it.
std::vector<std::string> finished_events() {
    return {
        R"({"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","created_at":1741476542,"status":"in_progress","model":"gpt-5","output":[]}})",
        R"({"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_1","object":"response","created_at":1741476542,"status":"in_progress","model":"gpt-5","output":[]}})",
        R"({"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[]}})",
        R"({"type":"response.reasoning_summary_part.added","sequence_number":3,"item_id":"rs_1","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""}})",
        R"({"type":"response.reasoning_summary_text.delta","sequence_number":4,"item_id":"rs_1","output_index":0,"summary_index":0,"delta":"Think "})",
        R"({"type":"response.reasoning_summary_text.delta","sequence_number":5,"item_id":"rs_1","output_index":0,"summary_index":1,"delta":"twice."})",
        R"({"type":"response.output_item.done","sequence_number":6,"output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Think "},{"type":"summary_text","text":"twice."}],"encrypted_content":"enc_abc"}})",
        R"({"type":"response.output_item.added","sequence_number":7,"output_index":1,"item":{"type":"message","id":"msg_1","status":"in_progress","role":"assistant","content":[]}})",
        R"({"type":"response.content_part.added","sequence_number":8,"item_id":"msg_1","output_index":1,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}})",
        R"({"type":"response.output_text.delta","sequence_number":9,"item_id":"msg_1","output_index":1,"content_index":0,"delta":"Hel","logprobs":[]})",
        R"({"type":"response.output_text.delta","sequence_number":10,"item_id":"msg_1","output_index":1,"content_index":0,"delta":"lo ","logprobs":[],"obfuscation":"x"})",
        R"({"type":"response.output_text.delta","sequence_number":11,"item_id":"msg_1","output_index":1,"content_index":1,"delta":"there.","logprobs":[]})",
        R"({"type":"response.output_text.done","sequence_number":12,"item_id":"msg_1","output_index":1,"content_index":0,"text":"Hello there.","logprobs":[]})",
        R"({"type":"response.output_item.done","sequence_number":13,"output_index":1,"item":{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Hello there.","annotations":[]}]}})",
        R"({"type":"response.output_item.added","sequence_number":14,"output_index":2,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"","status":"in_progress"}})",
        R"({"type":"response.function_call_arguments.delta","sequence_number":15,"item_id":"fc_1","output_index":2,"delta":"{\"city\":"})",
        R"({"type":"response.function_call_arguments.delta","sequence_number":16,"item_id":"fc_1","output_index":2,"delta":"\"Oslo\"}"})",
        R"({"type":"response.function_call_arguments.done","sequence_number":17,"item_id":"fc_1","output_index":2,"arguments":"{\"city\":\"Oslo\"}"})",
        R"({"type":"response.output_item.done","sequence_number":18,"output_index":2,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Oslo\"}","status":"completed"}})",
        R"({"type":"response.web_search_call.completed","sequence_number":19,"output_index":3,"item_id":"ws_1"})",
        R"({"type":"response.output_item.done","sequence_number":20,"output_index":3,"item":{"type":"web_search_call","id":"ws_1","status":"completed","action":{"type":"search"}}})",
        R"({"type":"response.brand_new_event","sequence_number":21,"payload":{"anything":[1,2]}})",
        R"({"type":"response.completed","sequence_number":22,"response":{"id":"resp_1","object":"response","created_at":1741476542,"status":"completed","model":"gpt-5","output":[],"usage":{"input_tokens":12,"input_tokens_details":{"cached_tokens":4},"output_tokens":30,"output_tokens_details":{"reasoning_tokens":9},"total_tokens":42}}})",
    };
}

std::string sse_of(const std::vector<std::string>& events) {
    std::string out;
    for (const std::string& e : events) {
        const auto type = boost::json::parse(e).as_object().at("type").as_string();
        out.append("event: ").append(type.data(), type.size()).append("\ndata: ").append(e).append("\n\n");
    }
    return out;
}

std::vector<agent_response_update> updates_of(const std::vector<std::string_view>& pieces,
                                              responses_stream_parser& parser) {
    std::vector<agent_response_update> out;
    for (std::string_view piece : pieces)
        while (auto update = parser.next(piece)) out.push_back(std::move(*update));
    parser.finish();
    return out;
}

std::vector<agent_response_update> updates_of(std::string_view stream) {
    responses_stream_parser parser;
    return updates_of(std::vector<std::string_view>{stream}, parser);
}

// What a caller sees of a message: everything but raw representations, which only whole bodies keep.
void expect_same_answer(const agent_response<>& streamed, const agent_response<>& whole) {
    EXPECT_EQ(streamed.response_id, whole.response_id);
    EXPECT_EQ(streamed.created_at, whole.created_at);
    EXPECT_EQ(streamed.finish_reason, whole.finish_reason);
    EXPECT_EQ(streamed.usage, whole.usage);
    EXPECT_EQ(streamed.continuation_token, whole.continuation_token);
    EXPECT_EQ(streamed.additional_properties.at("model"), whole.additional_properties.at("model"));
    ASSERT_EQ(streamed.messages.size(), whole.messages.size());
    for (std::size_t i = 0; i < whole.messages.size(); ++i) {
        EXPECT_EQ(streamed.messages[i].role, whole.messages[i].role);
        EXPECT_EQ(streamed.messages[i].message_id, whole.messages[i].message_id);
        EXPECT_EQ(streamed.messages[i].created_at, whole.messages[i].created_at);
        EXPECT_EQ(streamed.messages[i].contents, whole.messages[i].contents);
    }
}

TEST(responses_parser, maps_every_output_item_in_order) {
    const agent_response<> r = parse_responses_response(finished_response);
    EXPECT_EQ(r.response_id, "resp_1");
    EXPECT_EQ(r.additional_properties.at("model"), "gpt-5");
    EXPECT_EQ(r.finish_reason, finish_reason::tool_calls());
    EXPECT_FALSE(r.continuation_token);
    ASSERT_EQ(r.messages.size(), 1u);
    const chat_message& m = r.messages[0];
    EXPECT_EQ(m.role, chat_role::assistant());
    EXPECT_EQ(m.message_id, "resp_1");
    ASSERT_EQ(m.contents.size(), 4u);
    const auto& reasoning = std::get<text_reasoning_content>(m.contents[0]);
    EXPECT_EQ(reasoning.text, "Think twice.");
    EXPECT_EQ(reasoning.protected_data, "enc_abc");
    EXPECT_EQ(reasoning.additional_properties.at("id"), "rs_1");
    EXPECT_EQ(std::get<text_content>(m.contents[1]).text, "Hello there."); // two parts, joined
    const auto& call = std::get<function_call_content>(m.contents[2]);
    EXPECT_EQ(call.call_id, "call_1");
    EXPECT_EQ(call.name, "get_weather");
    EXPECT_EQ(call.arguments, (boost::json::object{{"city", "Oslo"}}));
    EXPECT_EQ(call.raw_representation.at("arguments"), R"({"city":"Oslo"})");
    const auto& unknown = std::get<unknown_content>(m.contents[3]);
    EXPECT_EQ(unknown.kind, "web_search_call");
    EXPECT_EQ(unknown.json.at("action"), (boost::json::object{{"type", "search"}}));
    EXPECT_FALSE(unknown.json.contains("type"));
    EXPECT_EQ(r.text(), "Hello there.");
    ASSERT_TRUE(r.usage);
    EXPECT_EQ(r.usage->input_token_count, 12);
    EXPECT_EQ(r.usage->cached_input_token_count, 4);
    EXPECT_EQ(r.usage->output_token_count, 30);
    EXPECT_EQ(r.usage->reasoning_token_count, 9);
    EXPECT_EQ(r.usage->total_token_count, 42);
    EXPECT_EQ(r.raw_representation.at("id"), "resp_1");
}

TEST(responses_parser, a_refusal_is_never_text) {
    const auto r = parse_responses_response(
        R"({"id":"resp_2","status":"completed","output":[{"type":"message","id":"m","role":"assistant",)"
        R"("content":[{"type":"refusal","refusal":"I can't."}]}]})");
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(std::get<refusal_content>(r.messages[0].contents.at(0)).refusal, "I can't.");
    EXPECT_EQ(r.text(), "");
    EXPECT_EQ(r.finish_reason, finish_reason::stop());
}

TEST(responses_parser, an_incomplete_response_is_truncated_for_result) {
    const auto r = parse_responses_response(
        R"({"id":"resp_3","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},)"
        R"("output":[{"type":"message","id":"m","role":"assistant","content":[{"type":"output_text","text":"{\"a\":"}]}]})");
    EXPECT_EQ(r.finish_reason, finish_reason::length());
    const agent_response<std::map<std::string, int>> typed(r, false);
    EXPECT_THROW((void)typed.result(), output_truncated_error);
    const auto filtered = parse_responses_response(
        R"({"id":"r","status":"incomplete","incomplete_details":{"reason":"content_filter"},"output":[]})");
    EXPECT_EQ(filtered.finish_reason, finish_reason::content_filter());
}

TEST(responses_parser, an_unfinished_background_response_carries_a_token_to_poll_with) {
    for (std::string_view status : {"queued", "in_progress"}) {
        const auto r = parse_responses_response(R"({"id":"resp_bg","object":"response","status":")" +
                                                std::string(status) + R"(","background":true,"output":[]})");
        EXPECT_TRUE(r.messages.empty());
        EXPECT_FALSE(r.finish_reason);
        ASSERT_TRUE(r.continuation_token) << status;
        EXPECT_EQ(responses_token::from(*r.continuation_token), (responses_token{"resp_bg", std::nullopt}));
    }
    const auto cancelled = parse_responses_response(R"({"id":"resp_bg","status":"cancelled","output":[]})");
    EXPECT_FALSE(cancelled.continuation_token);
    EXPECT_FALSE(cancelled.finish_reason);
}

TEST(responses_parser, a_failed_response_and_an_error_body_are_http_errors) {
    try {
        (void)parse_responses_response(
            R"({"id":"resp_f","status":"failed","error":{"code":"server_error","message":"The model crashed."},"output":[]})");
        FAIL() << "a failed response was parsed";
    } catch (const http_error& e) {
        EXPECT_EQ(e.message(), "The model crashed.");
        EXPECT_EQ(e.code(), "server_error");
    }
    try {
        (void)parse_responses_response(
            R"({"error":{"message":"No response found with id 'resp_x'.","type":"invalid_request_error","param":null,"code":null}})",
            404);
        FAIL() << "a 404 was parsed";
    } catch (const http_error& e) {
        EXPECT_EQ(e.status(), 404);
        EXPECT_NE(e.message().find("resp_x"), std::string::npos);
    }
    EXPECT_THROW((void)parse_responses_response(R"({"id":"r","output":[{"type":7}]})"), json_error);
    EXPECT_THROW((void)parse_responses_response("not json"), json_error);
}

TEST(responses_stream_parser, the_stream_merges_into_the_whole_response) {
    const std::vector<agent_response_update> updates = updates_of(sse_of(finished_events()));
    const agent_response<> streamed = to_agent_response(updates);
    expect_same_answer(streamed, parse_responses_response(finished_response));
}

TEST(responses_stream_parser, any_cut_of_the_bytes_gives_the_same_updates) {
    const std::string stream = sse_of(finished_events());
    const auto expected = to_agent_response(updates_of(stream));
    for (unsigned seed = 0; seed < 20; ++seed) {
        responses_stream_parser parser;
        std::mt19937 rng(seed);
        const auto pieces = forma_test::cut(stream, forma_test::random_cuts(stream.size(), 64, rng));
        const auto streamed = to_agent_response(updates_of(pieces, parser));
        expect_same_answer(streamed, expected);
        EXPECT_EQ(parser.position(), (responses_token{"resp_1", 22}));
    }
}

TEST(responses_stream_parser, an_unknown_event_is_kept_raw_and_never_an_error) {
    const auto updates = updates_of(sse_of(finished_events()));
    std::vector<std::string> raw_types;
    for (const agent_response_update& u : updates)
        if (u.raw_representation.is_object()) {
            raw_types.emplace_back(u.raw_representation.at("type").as_string());
            EXPECT_TRUE(u.contents.empty());
            EXPECT_EQ(u.response_id, "resp_1");
        }
    // A hosted tool's progress and an event type that does not exist yet.
    EXPECT_EQ(raw_types, (std::vector<std::string>{"response.web_search_call.completed", "response.brand_new_event"}));
}

TEST(responses_stream_parser, a_stream_cut_short_is_incomplete) {
    auto events = finished_events();
    events.pop_back(); // no response.completed
    responses_stream_parser parser;
    std::string stream = sse_of(events);
    std::string_view input = stream;
    while (parser.next(input)) {
    }
    EXPECT_FALSE(parser.finished());
    EXPECT_EQ(parser.position(), (responses_token{"resp_1", 21}));
    EXPECT_THROW(parser.finish(), stream_error);
}

TEST(responses_stream_parser, an_error_or_a_failed_event_is_an_http_error) {
    const std::string error_event =
        R"({"type":"error","code":"rate_limit_exceeded","message":"Slow down.","param":null,"sequence_number":3})";
    try {
        (void)updates_of(sse_of({error_event}));
        FAIL() << "an error event was mapped";
    } catch (const http_error& e) {
        EXPECT_EQ(e.status(), 0);
        EXPECT_EQ(e.message(), "Slow down.");
        EXPECT_EQ(e.code(), "rate_limit_exceeded");
    }
    const std::string failed =
        R"({"type":"response.failed","sequence_number":4,"response":{"id":"resp_1","status":"failed",)"
        R"("error":{"code":"server_error","message":"It broke."},"output":[]}})";
    EXPECT_THROW((void)updates_of(sse_of({failed})), http_error);
}

TEST(responses_stream_parser, a_malformed_event_is_a_stream_error_naming_its_place) {
    auto events = finished_events();
    events.insert(events.begin() + 3, R"({"type":"response.output_text.delta","sequence_number":"three"})");
    try {
        (void)updates_of(sse_of(events));
        FAIL() << "a malformed event was mapped";
    } catch (const stream_error& e) {
        EXPECT_EQ(e.kind(), stream_error_kind::protocol);
        const std::string what = e.what();
        EXPECT_NE(what.find("event 4"), std::string::npos) << what;
        EXPECT_NE(what.find("after sequence number 2"), std::string::npos) << what;
        EXPECT_NE(what.find("/sequence_number"), std::string::npos) << what;
    }
}

TEST(responses_token, ids_are_short_and_plain) {
    EXPECT_TRUE(responses_token::valid_id("resp_67c9fdcecf488190-x"));
    EXPECT_TRUE(responses_token::valid_id(std::string(256, 'a')));
    EXPECT_FALSE(responses_token::valid_id(std::string(257, 'a')));
    EXPECT_FALSE(responses_token::valid_id(""));
    EXPECT_FALSE(responses_token::valid_id("resp 1"));
    EXPECT_FALSE(responses_token::valid_id("a.b"));
}

TEST(responses_stream_parser, a_resumed_stream_knows_its_response_and_finishes_with_its_calls) {
    responses_stream_parser parser;
    parser.resume_after({"resp_1", 16});
    // The call's events came before the drop: only the last event follows.
    const std::string completed = sse_of(
        {R"({"type":"response.completed","sequence_number":22,"response":{"id":"resp_1","status":"completed",)"
         R"("output":[{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}]}})"});
    const auto r = to_agent_response(updates_of(std::vector<std::string_view>{completed}, parser));
    EXPECT_EQ(r.response_id, "resp_1");
    EXPECT_EQ(r.finish_reason, finish_reason::tool_calls()); // the call came before the resumption
    EXPECT_EQ(parser.position(), (responses_token{"resp_1", 22}));
}

// The text of `updates`, one string per update that has some.
std::vector<std::string> texts_of(const std::vector<agent_response_update>& updates) {
    std::vector<std::string> out;
    for (const agent_response_update& u : updates)
        if (!u.text().empty()) out.push_back(u.text());
    return out;
}

// finished_events() after sequence number `after`, read as structured_output_mode::tool reads
// them with get_weather in final_result's place (a resumed stream when `after` is set).
std::vector<agent_response_update> answer_updates(std::optional<std::int64_t> after) {
    responses_stream_parser parser({.answer_tool = "get_weather"});
    std::vector<std::string> events = finished_events();
    if (after) {
        parser.resume_after({"resp_1", *after});
        events.erase(events.begin(), events.begin() + *after + 1);
    }
    const std::string stream = sse_of(events);
    return updates_of(std::vector<std::string_view>{stream}, parser);
}

TEST(responses_stream_parser, the_answer_tools_argument_deltas_are_text) {
    const auto updates = answer_updates(std::nullopt);
    EXPECT_EQ(texts_of(updates), (std::vector<std::string>{"Hel", "lo ", "there.", R"({"city":)", R"("Oslo"})"}));
    const auto r = to_agent_response(updates);
    for (const auto& m : r.messages)
        for (const auto& c : m.contents) EXPECT_FALSE(std::holds_alternative<function_call_content>(c));
    EXPECT_EQ(r.finish_reason, finish_reason::stop());
}

TEST(responses_stream_parser, a_resumed_stream_hands_out_only_the_answer_text_not_had_yet) {
    // Resumed before the call's item: all of its arguments.
    EXPECT_EQ(texts_of(answer_updates(13)), (std::vector<std::string>{R"({"city":)", R"("Oslo"})"}));
    // After its first delta: the item's start is not seen again, its later deltas come at its end.
    EXPECT_EQ(texts_of(answer_updates(15)), (std::vector<std::string>{R"("Oslo"})"}));
    // After its last delta: nothing more.
    EXPECT_TRUE(texts_of(answer_updates(16)).empty());
}

TEST(responses_stream_parser, hosted_tools_and_audio_events_are_kept_raw_whatever_their_shape) {
    const std::vector<std::string> events = {
        R"({"type":"response.created","sequence_number":0,"response":{"id":"resp_h","status":"in_progress","output":[]}})",
        R"({"type":"response.audio.delta","sequence_number":1,"delta":"UklGRg=="})",
        R"({"type":"response.shell_call_output_content.delta","sequence_number":2,"item_id":"sh","output_index":0,"delta":{"stdout":"ok"}})",
        R"({"type":"response.output_item.done","sequence_number":3,"output_index":0,"item":{"type":"tool_search_call","id":"ts","arguments":{"q":"x"}}})",
        R"({"type":"response.completed","sequence_number":4,"response":{"id":"resp_h","status":"completed","output":[{"type":"tool_search_call","id":"ts","arguments":{"q":"x"}}]}})",
    };
    const auto updates = updates_of(sse_of(events));
    std::vector<std::string> raw_types;
    for (const auto& u : updates)
        if (u.raw_representation.is_object()) raw_types.emplace_back(u.raw_representation.at("type").as_string());
    EXPECT_EQ(raw_types, (std::vector<std::string>{"response.audio.delta", "response.shell_call_output_content.delta"}));
    const auto r = to_agent_response(updates);
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(std::get<unknown_content>(r.messages[0].contents.at(0)).kind, "tool_search_call");
    const auto whole = parse_responses_response(
        R"({"id":"resp_h","status":"completed","output":[{"type":"tool_search_call","id":"ts","arguments":{"q":"x"}}]})");
    EXPECT_EQ(std::get<unknown_content>(whole.messages.at(0).contents.at(0)).json.at("arguments").at("q"), "x");
}

TEST(responses_stream_parser, an_incomplete_stream_ends_with_length) {
    const std::vector<std::string> events = {
        R"({"type":"response.created","sequence_number":0,"response":{"id":"resp_9","status":"in_progress","output":[]}})",
        R"({"type":"response.output_text.delta","sequence_number":1,"item_id":"m","output_index":0,"content_index":0,"delta":"partial"})",
        R"({"type":"response.incomplete","sequence_number":2,"response":{"id":"resp_9","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[]}})",
    };
    const auto r = to_agent_response(updates_of(sse_of(events)));
    EXPECT_EQ(r.finish_reason, finish_reason::length());
    EXPECT_EQ(r.text(), "partial");
}

TEST(responses_token, round_trips_through_text_and_refuses_what_it_did_not_issue) {
    const responses_token token{"resp_abc", 17};
    const continuation_token issued = token.to_continuation_token();
    EXPECT_EQ(responses_token::from(continuation_token::parse(issued.to_string())), token);
    EXPECT_EQ(responses_token::from(responses_token{"resp_abc"}.to_continuation_token()).sequence_number, std::nullopt);
    for (const char* bad : {R"("resp_abc")", R"({"kind":"a2a.task","response_id":"resp_abc"})",
                            R"({"kind":"openai.responses"})", R"({"kind":"openai.responses","response_id":""})",
                            R"({"kind":"openai.responses","response_id":"../admin"})",
                            R"({"kind":"openai.responses","response_id":".."})",
                            R"({"kind":"openai.responses","response_id":"resp_\u00e9"})",
                            R"({"kind":"openai.responses","response_id":"r","sequence_number":-1})",
                            R"({"kind":"openai.responses","response_id":"r","sequence_number":"7"})"}) {
        try {
            (void)responses_token::from(continuation_token::parse(bad));
            ADD_FAILURE() << "accepted " << bad;
        } catch (const error& e) {
            EXPECT_NE(std::string(e.what()).find("not one responses_client issued"), std::string::npos) << e.what();
        }
    }
}

} // namespace
