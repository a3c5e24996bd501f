// anthropic::parse_message and parse_error: Messages API answers and errors as forma's.
#include <forma/anthropic/response_parser.hpp>
#include <forma/json/json_error.hpp>

#include <gtest/gtest.h>

namespace {

// A whole answer with every kind of block the client reads: thinking, redacted thinking,
// text, a tool call and a server tool's block.
const char* whole_message = R"({"id":"msg_01","type":"message","role":"assistant","model":"claude-test",
  "content":[{"type":"thinking","thinking":"The user wants Oslo.","signature":"sig-A"},
             {"type":"redacted_thinking","data":"opaque-1"},
             {"type":"text","text":"Let me check."},
             {"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo","days":2}},
             {"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"Oslo"}}],
  "stop_reason":"tool_use","stop_sequence":null,
  "usage":{"input_tokens":10,"cache_creation_input_tokens":20,"cache_read_input_tokens":30,"output_tokens":7}})";

TEST(anthropic_response, every_block_kind_becomes_its_content) {
    const forma::agent_response<> r = forma::anthropic::parse_message(whole_message);
    EXPECT_EQ(r.response_id, "msg_01");
    EXPECT_EQ(r.additional_properties.at("model"), "claude-test");
    ASSERT_EQ(r.messages.size(), 1u);
    const forma::chat_message& m = r.messages[0];
    EXPECT_EQ(m.role, forma::chat_role::assistant());
    EXPECT_EQ(m.message_id, "msg_01");
    ASSERT_EQ(m.contents.size(), 5u);
    const auto& thinking = std::get<forma::text_reasoning_content>(m.contents[0]);
    EXPECT_EQ(thinking.text, "The user wants Oslo.");
    EXPECT_EQ(thinking.protected_data, "sig-A");
    EXPECT_FALSE(thinking.additional_properties.contains("redacted"));
    const auto& redacted = std::get<forma::text_reasoning_content>(m.contents[1]);
    EXPECT_EQ(redacted.text, "");
    EXPECT_EQ(redacted.protected_data, "opaque-1");
    EXPECT_EQ(redacted.additional_properties.at("redacted"), true);
    EXPECT_EQ(std::get<forma::text_content>(m.contents[2]).text, "Let me check.");
    const auto& call = std::get<forma::function_call_content>(m.contents[3]);
    EXPECT_EQ(call.call_id, "toolu_1");
    EXPECT_EQ(call.name, "get_weather");
    EXPECT_EQ(call.arguments, (boost::json::object{{"city", "Oslo"}, {"days", 2}}));
    EXPECT_EQ(std::get<forma::unknown_content>(m.contents[4]).kind, "server_tool_use");
    EXPECT_EQ(r.finish_reason, forma::finish_reason::tool_calls());
    ASSERT_TRUE(r.usage);
    EXPECT_EQ(r.usage->input_token_count, 60);
    EXPECT_EQ(r.usage->cached_input_token_count, 30);
    EXPECT_EQ(r.usage->output_token_count, 7);
    EXPECT_EQ(r.usage->total_token_count, 67);
    EXPECT_EQ(r.usage->additional_counts.at("cache_creation_input_tokens"), 20);
    EXPECT_TRUE(r.raw_representation.is_object());
}

std::optional<forma::finish_reason> reason_of(std::string_view stop) {
    return forma::anthropic::parse_message(R"({"id":"m","content":[{"type":"text","text":"x"}],"stop_reason":")" +
                                           std::string(stop) + R"("})")
        .finish_reason;
}

TEST(anthropic_response, stop_reasons_map_to_finish_reasons) {
    EXPECT_EQ(reason_of("end_turn"), forma::finish_reason::stop());
    EXPECT_EQ(reason_of("stop_sequence"), forma::finish_reason::stop());
    EXPECT_EQ(reason_of("max_tokens"), forma::finish_reason::length());
    EXPECT_EQ(reason_of("model_context_window_exceeded"), forma::finish_reason::length());
    EXPECT_EQ(reason_of("tool_use"), forma::finish_reason::tool_calls());
    EXPECT_EQ(reason_of("pause_turn"), forma::finish_reason(std::string("pause_turn")));
}

TEST(anthropic_response, a_refusal_is_a_refusal_content_with_the_explanation) {
    const forma::agent_response<> r = forma::anthropic::parse_message(
        R"({"id":"m","content":[],"stop_reason":"refusal","stop_details":{"type":"refusal","explanation":"Not that."}})");
    EXPECT_EQ(r.finish_reason, forma::finish_reason::content_filter());
    ASSERT_EQ(r.messages.at(0).contents.size(), 1u);
    EXPECT_EQ(std::get<forma::refusal_content>(r.messages[0].contents[0]).refusal, "Not that.");
}

TEST(anthropic_response, a_body_that_is_not_a_message_is_a_json_error_that_says_where) {
    const auto where = [](std::string_view body) {
        try {
            (void)forma::anthropic::parse_message(body);
        } catch (const forma::json_error& e) {
            return e.path() + ": " + e.what();
        }
        return std::string("no error");
    };
    EXPECT_NE(where("{").find("the Anthropic response is not JSON"), std::string::npos);
    EXPECT_EQ(where(R"({"id":"m"})").substr(0, 9), "/content:");
    EXPECT_EQ(where(R"({"content":[{"type":"tool_use","name":"f"}]})").substr(0, 14), "/content/0/id:");
}

TEST(anthropic_response, errors_in_anthropics_shape_and_llama_servers) {
    const forma::http_error overloaded = forma::anthropic::parse_error(
        529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_1"})");
    EXPECT_EQ(overloaded.status(), 529);
    EXPECT_EQ(overloaded.type(), "overloaded_error");
    EXPECT_EQ(overloaded.message(), "Overloaded");
    const forma::http_error llama = forma::anthropic::parse_error(
        400, R"({"error":{"code":400,"message":"the request exceeds the context","type":"exceed_context_size_error"}})");
    EXPECT_EQ(llama.type(), "exceed_context_size_error");
    EXPECT_EQ(llama.message(), "the request exceeds the context");
    const forma::http_error html = forma::anthropic::parse_error(502, "<html>Bad gateway</html>");
    EXPECT_EQ(html.status(), 502);
    EXPECT_NE(std::string(html.what()).find("Bad gateway"), std::string::npos);
}

} // namespace
