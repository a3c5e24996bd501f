// anthropic::stream_parser: Messages API event streams, as the API and llama-server send them,
// merged into the response parse_message reads from the same answer sent whole.
#include <forma/anthropic/response_parser.hpp>
#include <forma/anthropic/stream_parser.hpp>
#include <forma/chat/function_tool.hpp>
#include <forma/json/json_error.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/net/http_error.hpp>
#include <forma/net/stream_error.hpp>

#include "support/without_raw.hpp"

#include <gtest/gtest.h>

namespace {

// `data` lines, each with the `event:` line the API sends (the JSON's type).
std::string events_of(std::initializer_list<std::string_view> data) {
    std::string out;
    for (std::string_view d : data) {
        const auto at = d.find("\"type\":\"") + 8;
        out.append("event: ").append(d.substr(at, d.find('"', at) - at)).append("\ndata: ").append(d).append("\n\n");
    }
    return out;
}

// Feeds `body` in pieces of `piece` bytes; the updates, and finish() called at the end.
std::vector<forma::agent_response_update> updates_of(const std::string& body, std::size_t piece,
                                                     forma::anthropic::stream_parser_options options = {}) {
    forma::anthropic::stream_parser parser(std::move(options));
    std::vector<forma::agent_response_update> out;
    for (std::size_t at = 0; at < body.size(); at += piece) {
        std::string_view bytes = std::string_view(body).substr(at, piece);
        while (auto u = parser.next(bytes)) out.push_back(std::move(*u));
    }
    parser.finish();
    return out;
}

// The API's own order: thinking with a signature, a ping, text, a tool call in pieces.
const std::string api_stream = events_of({
    R"({"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"usage":{"input_tokens":10,"cache_creation_input_tokens":20,"cache_read_input_tokens":30,"output_tokens":1}}})",
    R"({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}})",
    R"({"type":"ping"})",
    R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user wants "}})",
    R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Oslo."}})",
    R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig-A"}})",
    R"({"type":"content_block_stop","index":0})",
    R"({"type":"content_block_start","index":1,"content_block":{"type":"redacted_thinking","data":"opaque-1"}})",
    R"({"type":"content_block_stop","index":1})",
    R"({"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}})",
    R"({"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Let me "}})",
    R"({"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"check."}})",
    R"({"type":"content_block_stop","index":2})",
    R"({"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}})",
    R"({"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":""}})",
    R"({"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Os"}})",
    R"({"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"lo\", \"days\": 2}"}})",
    R"({"type":"content_block_stop","index":3})",
    R"({"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":7}})",
    R"({"type":"message_stop"})",
});

const char* api_whole = R"({"id":"msg_01","type":"message","role":"assistant","model":"claude-test",
  "content":[{"type":"thinking","thinking":"The user wants Oslo.","signature":"sig-A"},
             {"type":"redacted_thinking","data":"opaque-1"},
             {"type":"text","text":"Let me check."},
             {"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo","days":2}}],
  "stop_reason":"tool_use","stop_sequence":null,
  "usage":{"input_tokens":10,"cache_creation_input_tokens":20,"cache_read_input_tokens":30,"output_tokens":7}})";

TEST(anthropic_stream, the_apis_stream_merges_into_the_whole_answer_however_it_is_cut) {
    const forma::agent_response<> whole = forma_test::without_raw(forma::anthropic::parse_message(api_whole));
    for (std::size_t piece : {std::size_t(1), std::size_t(7), std::size_t(64), api_stream.size()}) {
        const forma::agent_response<> merged = forma_test::without_raw(forma::to_agent_response(updates_of(api_stream, piece)));
        EXPECT_EQ(merged, whole) << "in pieces of " << piece;
    }
}

TEST(anthropic_stream, text_and_thinking_come_as_they_arrive) {
    const std::vector<forma::agent_response_update> updates = updates_of(api_stream, api_stream.size());
    ASSERT_GE(updates.size(), 6u);
    EXPECT_EQ(updates[0].role, forma::chat_role::assistant());
    EXPECT_EQ(updates[0].response_id, "msg_01");
    EXPECT_EQ(std::get<forma::text_reasoning_content>(updates[1].contents.at(0)).text, "The user wants ");
    std::string text;
    for (const auto& u : updates) text += u.text();
    EXPECT_EQ(text, "Let me check.");
}

// llama-server: no ping, no signature in the start shell, a block started again while open, every
// block stopped at the end.
TEST(anthropic_stream, blocks_open_at_once_as_llama_server_streams_them) {
    const std::string llama = events_of({
        R"({"type":"message_start","message":{"id":"chatcmpl-x","type":"message","role":"assistant","content":[],"model":"tiny","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":0}}})",
        R"({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}})",
        R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}})",
        R"({"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}})",
        R"({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi"}})",
        R"({"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"call_1","name":"ping"}})",
        R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"a\":"}})",
        R"({"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"call_1","name":"ping"}})",
        R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"1}"}})",
        R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":""}})",
        R"({"type":"content_block_stop","index":0})",
        R"({"type":"content_block_stop","index":1})",
        R"({"type":"content_block_stop","index":2})",
        R"({"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":4}})",
        R"({"type":"message_stop"})",
    });
    const forma::agent_response<> r = forma::to_agent_response(updates_of(llama, 5));
    ASSERT_EQ(r.messages.size(), 1u);
    const auto& contents = r.messages[0].contents;
    ASSERT_EQ(contents.size(), 3u);
    EXPECT_EQ(std::get<forma::text_reasoning_content>(contents[0]).text, "hmm");
    EXPECT_FALSE(std::get<forma::text_reasoning_content>(contents[0]).protected_data) << "llama-server signs nothing";
    EXPECT_EQ(std::get<forma::text_content>(contents[1]).text, "Hi");
    EXPECT_EQ(std::get<forma::function_call_content>(contents[2]).name, "ping");
    EXPECT_EQ(std::get<forma::function_call_content>(contents[2]).arguments, (boost::json::object{{"a", 1}}))
        << "a block started again while open keeps what it had";
    EXPECT_EQ(r.usage->input_token_count, 5);
    EXPECT_EQ(r.usage->output_token_count, 4);
}

TEST(anthropic_stream, an_error_event_is_an_http_error_in_either_shape) {
    const auto error_of = [](const std::string& body) {
        try {
            (void)updates_of(body, body.size());
        } catch (const forma::http_error& e) {
            return std::to_string(e.status()) + " " + e.type() + ": " + e.message();
        }
        return std::string("no error");
    };
    EXPECT_EQ(error_of(events_of({R"({"type":"message_start","message":{"id":"m"}})",
                                  R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"})),
              "0 overloaded_error: Overloaded");
    EXPECT_EQ(error_of("event: error\ndata: {\"code\":500,\"message\":\"boom\",\"type\":\"server_error\"}\n\n"),
              "0 server_error: boom");
}

TEST(anthropic_stream, a_stream_cut_short_or_out_of_order_is_a_stream_error) {
    const std::string cut = api_stream.substr(0, api_stream.find("event: message_delta"));
    try {
        (void)updates_of(cut, 50);
        ADD_FAILURE() << "a cut stream passed";
    } catch (const forma::stream_error& e) {
        EXPECT_EQ(e.kind(), forma::stream_error_kind::incomplete);
    }
    try {
        (void)updates_of(events_of({R"({"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"x"}})"}), 100);
        ADD_FAILURE() << "a delta before its block passed";
    } catch (const forma::stream_error& e) {
        EXPECT_EQ(e.kind(), forma::stream_error_kind::protocol);
    }
    EXPECT_THROW((void)updates_of(events_of({R"({"type":"message_start","message":7})"}), 100), forma::json_error);
}

TEST(anthropic_stream, the_answer_tools_input_streams_as_text) {
    const std::string answer = events_of({
        R"({"type":"message_start","message":{"id":"msg_2","role":"assistant","content":[]}})",
        R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_9","name":"final_result","input":{}}})",
        R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\":"}})",
        R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"Oslo\"}"}})",
        R"({"type":"content_block_stop","index":0})",
        R"({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":3}})",
        R"({"type":"message_stop"})",
    });
    const forma::agent_response<> r = forma::to_agent_response(updates_of(answer, 9, {.answer_tool = "final_result"}));
    EXPECT_EQ(r.text(), R"({"city":"Oslo"})");
    EXPECT_EQ(r.finish_reason, forma::finish_reason::stop());
    EXPECT_EQ(r.messages.at(0).contents.size(), 1u) << "the call became the text";
    EXPECT_EQ(r.usage->output_token_count, 3);
}

// A model's broken JSON loses nothing and stops nothing: the call comes with no arguments and
// its text as sent, which the tool loop hands the tool, so the model is told what was wrong.
TEST(anthropic_stream, a_tool_calls_input_that_is_not_json_is_kept_as_text) {
    const std::string broken = events_of({
        R"({"type":"message_start","message":{"id":"msg_3","role":"assistant","content":[]}})",
        R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_3","name":"look_up","input":{}}})",
        R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\":\"Os"}})",
        R"({"type":"content_block_stop","index":0})",
        R"({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":3}})",
        R"({"type":"message_stop"})",
    });
    const forma::agent_response<> streamed = forma::to_agent_response(updates_of(broken, 7));
    const forma::agent_response<> whole = forma::anthropic::parse_message(
        R"({"id":"msg_3","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_3","name":"look_up","input":"{\"city\":\"Os"}],"stop_reason":"tool_use","usage":{"output_tokens":3}})");
    for (const forma::agent_response<>* r : {&streamed, &whole}) {
        const auto* call = std::get_if<forma::function_call_content>(&r->messages.at(0).contents.at(0));
        ASSERT_NE(call, nullptr);
        EXPECT_EQ(call->name, "look_up");
        EXPECT_TRUE(call->arguments.empty());
        EXPECT_EQ(forma::tool_arguments_text(*call), R"({"city":"Os)");
    }
    EXPECT_EQ(std::get<forma::function_call_content>(streamed.messages.at(0).contents.at(0)),
              std::get<forma::function_call_content>(whole.messages.at(0).contents.at(0)));
}

} // namespace
