#include <forma/openai/responses_request_builder.hpp>

#include "request_cases.hpp"

#include <forma/openai/responses_parser.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

// Its own namespace: the binary compiles its sources together (FORMA_UNITY_TESTS).
namespace responses_request_builder_test {
namespace {

using namespace forma;
using forma::openai::build_responses_request;
using forma::openai::responses_client_options;
using forma_openai_test::user;

boost::json::object build(const std::vector<chat_message>& messages, const chat_options& options = {},
                          bool stream = false, const responses_client_options& settings = {}) {
    return build_responses_request(messages, options, "gpt-5", stream, settings);
}

std::string error_of(const std::vector<chat_message>& messages, const chat_options& options = {},
                     const responses_client_options& settings = {}) {
    try {
        (void)build(messages, options, false, settings);
    } catch (const error& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(responses_request_builder, text_messages_become_message_items) {
    const auto body = build({chat_message(chat_role::system(), "Be brief."), user("Hi"),
                             chat_message(chat_role::assistant(), "Hello."), user("Bye")},
                            {.instructions = "You are kind."});
    EXPECT_EQ(body.at("model"), "gpt-5");
    EXPECT_EQ(body.at("instructions"), "You are kind.");
    EXPECT_EQ(body.at("input"), boost::json::parse(R"([
        {"type":"message","role":"system","content":"Be brief."},
        {"type":"message","role":"user","content":"Hi"},
        {"type":"message","role":"assistant","content":"Hello."},
        {"type":"message","role":"user","content":"Bye"}])"));
    EXPECT_FALSE(body.contains("stream"));
    EXPECT_FALSE(body.contains("background"));
}

TEST(responses_request_builder, output_errors_are_sent_as_the_correction_text) {
    const output_errors_content errors(std::vector<output_error>{{"/age", "expected integer"}});
    const auto body = build({chat_message(chat_role::assistant(), R"({"age":"x"})"),
                             chat_message(chat_role::user(), std::vector<content>{errors})});
    EXPECT_EQ(body.at("input").as_array().at(1),
              (boost::json::object{{"type", "message"}, {"role", "user"}, {"content", correction_text(errors)}}));
}

TEST(responses_request_builder, images_and_files_are_content_parts) {
    chat_message m(chat_role::user(),
                   std::vector<content>{text_content("What is this?"), uri_content("https://x.test/cat.png", "image/png"),
                                        data_content(forma_openai_test::bytes_of("%PDF"), "application/pdf", "a.pdf")});
    const auto body = build({m});
    const auto& parts = body.at("input").at(0).at("content").as_array();
    ASSERT_EQ(parts.size(), 3u);
    EXPECT_EQ(parts[0], boost::json::parse(R"({"type":"input_text","text":"What is this?"})"));
    EXPECT_EQ(parts[1], boost::json::parse(R"({"type":"input_image","image_url":"https://x.test/cat.png","detail":"auto"})"));
    EXPECT_EQ(parts[2].at("type"), "input_file");
    EXPECT_EQ(parts[2].at("filename"), "a.pdf");
    EXPECT_EQ(parts[2].at("file_data"), "data:application/pdf;base64,JVBERg==");
}

TEST(responses_request_builder, a_tool_round_trip_keeps_its_order_and_reasoning_goes_back) {
    // The answer of a previous turn as the parser gives it: reasoning (with its item id), text, a call.
    const agent_response<> previous = openai::parse_responses_response(R"({"id":"resp_1","status":"completed","output":[
        {"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Look it up."}],"encrypted_content":"enc"},
        {"type":"message","id":"m","role":"assistant","content":[{"type":"output_text","text":"Checking."}]},
        {"type":"function_call","id":"fc","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}]})");
    chat_message result(chat_role::tool(), std::vector<content>{function_result_content("call_1", "sunny, 21.5 C")});
    chat_message failed(chat_role::tool(),
                        std::vector<content>{function_result_content("call_2", nullptr, "no network")});
    chat_message nothing(chat_role::tool(), // a void tool's result
                         std::vector<content>{function_result_content("call_3", nullptr)});
    const auto body = build({user("Weather?"), previous.messages.at(0), result, failed, nothing});
    EXPECT_EQ(body.at("input"), boost::json::parse(R"([
        {"type":"message","role":"user","content":"Weather?"},
        {"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Look it up."}],"encrypted_content":"enc"},
        {"type":"message","role":"assistant","content":"Checking."},
        {"type":"function_call","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Oslo\"}"},
        {"type":"function_call_output","call_id":"call_1","output":"sunny, 21.5 C"},
        {"type":"function_call_output","call_id":"call_2","output":"Error: no network"},
        {"type":"function_call_output","call_id":"call_3","output":"null"}])"));
}

TEST(responses_request_builder, reasoning_the_api_did_not_issue_is_not_sent) {
    chat_message thought(chat_role::assistant(),
                         std::vector<content>{text_reasoning_content("hmm"), text_content("42")});
    const auto body = build({user("?"), thought});
    EXPECT_EQ(body.at("input").as_array().size(), 2u);
    EXPECT_EQ(body.at("input").at(1).at("content"), "42");
}

TEST(responses_request_builder, formats_tools_and_settings) {
    const auto tools = forma_openai_test::sample_tools();
    responses_client_options settings{.store = true,
                                      .metadata = {{"ticket", "T-1"}},
                                      .reasoning_effort = "low",
                                      .reasoning_summary = "auto",
                                      .include_encrypted_reasoning = true};
    chat_options options{.temperature = 0.5,
                         .top_p = 0.9,
                         .max_output_tokens = 300,
                         .response_format = response_format::for_type<forma_openai_test::weather_report>(),
                         .tools = tools,
                         .tool_choice = tool_choice::function("get_time"),
                         .parallel_tool_calls = false,
                         .allow_background_responses = true};
    const auto body = build({user("Weather")}, options, true, settings);
    const auto& format = body.at("text").at("format");
    EXPECT_EQ(format.at("type"), "json_schema");
    EXPECT_EQ(format.at("strict"), true);
    EXPECT_TRUE(format.at("schema").is_object());
    const auto& declared = body.at("tools").as_array();
    ASSERT_EQ(declared.size(), 3u);
    EXPECT_EQ(declared[0].at("type"), "function");
    EXPECT_EQ(declared[0].at("name"), "get_weather");
    EXPECT_EQ(declared[0].at("strict"), true);
    EXPECT_EQ(declared[2].at("strict"), false); // its schema breaks the strict rules
    EXPECT_EQ(body.at("tool_choice"), boost::json::parse(R"({"type":"function","name":"get_time"})"));
    EXPECT_EQ(body.at("parallel_tool_calls"), false);
    EXPECT_EQ(body.at("max_output_tokens"), 300);
    EXPECT_EQ(body.at("reasoning"), boost::json::parse(R"({"effort":"low","summary":"auto"})"));
    EXPECT_EQ(body.at("include"), boost::json::parse(R"(["reasoning.encrypted_content"])"));
    EXPECT_EQ(body.at("store"), true);
    EXPECT_EQ(body.at("metadata").at("ticket"), "T-1");
    EXPECT_EQ(body.at("background"), true);
    EXPECT_EQ(body.at("stream"), true);
}

TEST(responses_request_builder, server_side_conversation_sends_only_what_follows_the_last_answer) {
    chat_message answer(chat_role::assistant(), "Hello.");
    answer.message_id = "resp_7";
    const std::vector<chat_message> history{user("Hi"), answer, user("And now?")};
    const auto kept = build(history, {}, false, {.server_side_conversation = true});
    EXPECT_EQ(kept.at("previous_response_id"), "resp_7");
    EXPECT_EQ(kept.at("input"), boost::json::parse(R"([{"type":"message","role":"user","content":"And now?"}])"));
    const auto whole = build(history);
    EXPECT_FALSE(whole.contains("previous_response_id"));
    EXPECT_EQ(whole.at("input").as_array().size(), 3u);
}

TEST(responses_request_builder, what_the_api_cannot_take_is_an_error_that_says_so) {
    EXPECT_NE(error_of({user("x")}, {.continuation_token = continuation_token("t")}).find("continuation token"),
              std::string::npos);
    EXPECT_NE(error_of({user("x")}, {.stop_sequences = {"END"}}).find("no stop sequences"), std::string::npos);
    EXPECT_NE(error_of({user("x")}, {.seed = 1}).find("no seed"), std::string::npos);
    EXPECT_NE(error_of({user("x")}, {.allow_background_responses = true}, {.store = false}).find("store"),
              std::string::npos);
    EXPECT_NE(error_of({chat_message(chat_role::assistant(),
                                     std::vector<content>{uri_content("https://x.test/a.png", "image/png")})})
                  .find("assistant message cannot hold"),
              std::string::npos);
    chat_message audio(chat_role::user(),
                       std::vector<content>{data_content(forma_openai_test::bytes_of("RIFF"), "audio/wav")});
    EXPECT_NE(error_of({audio}).find("images and PDF only"), std::string::npos);
    EXPECT_NE(error_of({chat_message(chat_role(std::string("critic")), "x")}).find("\"critic\""), std::string::npos);
    EXPECT_NE(error_of({}).find("at least one message"), std::string::npos);
    chat_options reserved;
    reserved.additional_properties = {{"input", "x"}};
    EXPECT_NE(error_of({user("x")}, reserved).find("\"input\""), std::string::npos);
    EXPECT_NE(error_of({user("bad \xC3")}).find("not valid UTF-8"), std::string::npos);
    EXPECT_THROW((void)build_responses_request(std::vector<chat_message>{user("x")}, {}, "", false), error);
}

} // namespace
} // namespace responses_request_builder_test
