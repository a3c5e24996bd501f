// anthropic::build_request: the Messages API body of each kind of message, content and option.
#include <forma/anthropic/request_builder.hpp>
#include <forma/chat/make_tool.hpp>
#include <forma/error.hpp>

#include <boost/describe.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <gtest/gtest.h>

namespace {

namespace json = boost::json;
using forma::chat_message;
using forma::chat_role;

struct city_answer {
    std::string city;
    int days = 0;
};
BOOST_DESCRIBE_STRUCT(city_answer, (), (city, days))

const forma::anthropic::client_options settings{.model = "claude-test", .max_tokens = 1000};

json::object body_of(const std::vector<chat_message>& messages, const forma::chat_options& options = {},
                     const forma::anthropic::client_options& with = settings, bool stream = false) {
    return forma::anthropic::build_request(messages, options, with, stream);
}

std::string error_of(const std::vector<chat_message>& messages, const forma::chat_options& options = {}) {
    try {
        (void)body_of(messages, options);
    } catch (const forma::error& e) {
        return e.what();
    }
    return "no error";
}

TEST(anthropic_request, a_question_with_instructions_and_system_messages) {
    forma::chat_options options;
    options.instructions = "Be brief.";
    const json::object body =
        body_of({chat_message(chat_role::system(), "You are a geographer."), chat_message(chat_role::user(), "Capital of Peru?")},
                options, settings, true);
    EXPECT_EQ(json::serialize(body),
              R"({"model":"claude-test","system":[{"type":"text","text":"Be brief."},{"type":"text","text":"You are a geographer."}],)"
              R"("messages":[{"role":"user","content":[{"type":"text","text":"Capital of Peru?"}]}],"max_tokens":1000,"stream":true})");
}

TEST(anthropic_request, the_options_limit_and_sampling_win_over_the_clients) {
    forma::chat_options options;
    options.model = "claude-other";
    options.max_output_tokens = 77;
    options.temperature = 0.5;
    options.top_p = 0.9;
    options.stop_sequences = {"END"};
    const json::object body = body_of({chat_message(chat_role::user(), "Hi")}, options);
    EXPECT_EQ(body.at("model"), "claude-other");
    EXPECT_EQ(body.at("max_tokens"), 77);
    EXPECT_EQ(body.at("temperature"), 0.5);
    EXPECT_EQ(body.at("top_p"), 0.9);
    EXPECT_EQ(body.at("stop_sequences"), json::parse(R"(["END"])"));
    EXPECT_FALSE(body.contains("stream"));
}

TEST(anthropic_request, images_and_documents_by_data_and_by_url) {
    const std::vector<std::byte> png{std::byte{0x89}, std::byte{'P'}, std::byte{'N'}, std::byte{'G'}};
    chat_message m(chat_role::user(), std::vector<forma::content>{
                                          forma::text_content("What is this?"),
                                          forma::data_content(png, "image/PNG"),
                                          forma::uri_content("https://example.com/cat.jpg", "image/jpeg"),
                                          forma::data_content(png, "application/pdf", "report.pdf"),
                                      });
    const json::object body = body_of({m});
    const json::array& blocks = body.at("messages").at(0).at("content").as_array();
    ASSERT_EQ(blocks.size(), 4u);
    EXPECT_EQ(blocks[1], json::parse(R"({"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw=="}})"));
    EXPECT_EQ(blocks[2], json::parse(R"({"type":"image","source":{"type":"url","url":"https://example.com/cat.jpg"}})"));
    EXPECT_EQ(blocks[3], json::parse(R"({"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"iVBORw=="},"title":"report.pdf"})"));
    EXPECT_NE(error_of({chat_message(chat_role::user(), std::vector<forma::content>{forma::data_content(png, "audio/wav")})})
                  .find("an Anthropic user turn cannot hold data of media type \"audio/wav\""),
              std::string::npos);
}

TEST(anthropic_request, a_tool_round_goes_back_as_tool_use_and_a_user_turn_of_results_first) {
    chat_message call(chat_role::assistant(), std::vector<forma::content>{
                                                  forma::text_content("Checking."),
                                                  forma::function_call_content("toolu_1", "get_weather", {{"city", "Oslo"}}),
                                                  forma::function_call_content("toolu_2", "get_weather", {{"city", "Rome"}}),
                                              });
    chat_message first(chat_role::tool(), std::vector<forma::content>{forma::function_result_content("toolu_1", "5 degrees")});
    chat_message second(chat_role::tool(), std::vector<forma::content>{
                                               forma::function_result_content("toolu_2", nullptr, "the service is down")});
    const json::object body = body_of({chat_message(chat_role::user(), "Weather?"), call, first, second,
                                       chat_message(chat_role::user(), "And tomorrow?")});
    EXPECT_EQ(body.at("messages"), json::parse(R"([
        {"role":"user","content":[{"type":"text","text":"Weather?"}]},
        {"role":"assistant","content":[{"type":"text","text":"Checking."},
            {"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"}},
            {"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Rome"}}]},
        {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"5 degrees"},
            {"type":"tool_result","tool_use_id":"toolu_2","content":"Error: the service is down","is_error":true},
            {"type":"text","text":"And tomorrow?"}]}])"));
}

TEST(anthropic_request, thinking_goes_back_with_its_signature_and_reasoning_without_one_does_not) {
    forma::text_reasoning_content redacted("", std::string("opaque"));
    redacted.additional_properties["redacted"] = true;
    chat_message answer(chat_role::assistant(), std::vector<forma::content>{
                                                    forma::text_reasoning_content("Think.", std::string("sig-1")),
                                                    redacted,
                                                    forma::text_reasoning_content("another provider's"),
                                                    forma::text_content("Done."),
                                                });
    const json::object body = body_of({chat_message(chat_role::user(), "Go"), answer});
    EXPECT_EQ(body.at("messages").at(1).at("content"), json::parse(R"([
        {"type":"thinking","thinking":"Think.","signature":"sig-1"},
        {"type":"redacted_thinking","data":"opaque"},
        {"type":"text","text":"Done."}])"));
}

// A session saved as JSON and loaded again sends its thinking back unchanged.
TEST(anthropic_request, thinking_kept_in_a_json_saved_session_goes_back_the_same) {
    forma::text_reasoning_content redacted("", std::string("opaque"));
    redacted.additional_properties["redacted"] = true;
    const std::vector<chat_message> turns{
        chat_message(chat_role::user(), "Go"),
        chat_message(chat_role::assistant(), std::vector<forma::content>{
                                                 forma::text_reasoning_content("Think.", std::string("sig-1")), redacted,
                                                 forma::function_call_content("toolu_1", "f", {{"a", 1}})}),
        chat_message(chat_role::tool(), std::vector<forma::content>{forma::function_result_content("toolu_1", "done")})};
    const json::value saved = json::parse(json::serialize(json::value_from(turns)));
    const auto loaded = json::value_to<std::vector<chat_message>>(saved);
    EXPECT_EQ(body_of(loaded), body_of(turns));
    EXPECT_EQ(body_of(loaded).at("messages").at(1).at("content").at(1), json::parse(R"({"type":"redacted_thinking","data":"opaque"})"));
}

TEST(anthropic_request, tools_and_each_tool_choice) {
    forma::chat_options options;
    options.tools.push_back(forma::make_tool("get_weather", "The weather in a city.",
                                             [](city_answer) { return std::string("sunny"); }));
    const auto choice_of = [&](std::optional<forma::tool_choice> choice, std::optional<bool> parallel) {
        forma::chat_options o = options;
        o.tool_choice = std::move(choice);
        o.parallel_tool_calls = parallel;
        return body_of({chat_message(chat_role::user(), "Go")}, o).at("tool_choice");
    };
    const json::object body = body_of({chat_message(chat_role::user(), "Go")}, options);
    EXPECT_EQ(body.at("tools").at(0).at("name"), "get_weather");
    EXPECT_EQ(body.at("tools").at(0).at("description"), "The weather in a city.");
    EXPECT_EQ(body.at("tools").at(0).at("input_schema").at("required"), json::parse(R"(["city","days"])"));
    EXPECT_EQ(choice_of(std::nullopt, std::nullopt), json::parse(R"({"type":"auto"})"));
    EXPECT_EQ(choice_of(forma::tool_choice::required(), false), json::parse(R"({"type":"any","disable_parallel_tool_use":true})"));
    EXPECT_EQ(choice_of(forma::tool_choice::function("get_weather"), std::nullopt),
              json::parse(R"({"type":"tool","name":"get_weather"})"));
    EXPECT_EQ(choice_of(forma::tool_choice::none(), false), json::parse(R"({"type":"none"})"));
    forma::chat_options unknown = options;
    unknown.tool_choice = forma::tool_choice::function("nope");
    EXPECT_NE(error_of({chat_message(chat_role::user(), "Go")}, unknown).find("not among chat_options::tools"), std::string::npos);
}

TEST(anthropic_request, a_schema_answer_natively_or_as_a_forced_tool_call) {
    forma::chat_options options;
    options.response_format = forma::response_format::for_type<city_answer>();
    options.structured_output_mode = forma::structured_output_mode::native;
    const json::object native = body_of({chat_message(chat_role::user(), "Go")}, options);
    EXPECT_EQ(native.at("output_config").at("format").at("type"), "json_schema");
    EXPECT_EQ(native.at("output_config").at("format").at("schema"), options.response_format->schema());
    EXPECT_FALSE(native.contains("tools"));

    options.structured_output_mode = forma::structured_output_mode::tool;
    const json::object tool = body_of({chat_message(chat_role::user(), "Go")}, options);
    EXPECT_FALSE(tool.contains("output_config"));
    EXPECT_EQ(tool.at("tools").at(0).at("name"), "final_result");
    EXPECT_EQ(tool.at("tools").at(0).at("input_schema"), options.response_format->schema());
    EXPECT_EQ(tool.at("tool_choice"), json::parse(R"({"type":"any","disable_parallel_tool_use":true})"));

    forma::chat_options object;
    object.response_format = forma::response_format::json();
    EXPECT_EQ(body_of({chat_message(chat_role::user(), "Go")}, object).at("output_config"),
              json::parse(R"({"format":{"type":"json_schema","schema":{"type":"object"}}})"));
}

TEST(anthropic_request, prompt_cache_breakpoints_and_thinking_from_the_client_options) {
    forma::anthropic::client_options cached = settings;
    cached.cache = forma::anthropic::prompt_cache::one_hour;
    cached.thinking_budget_tokens = 2048;
    forma::chat_options options;
    options.instructions = "Be brief.";
    options.tools.push_back(forma::make_tool("get_weather", "Weather.", [](city_answer) { return 1; }));
    const json::object body = body_of({chat_message(chat_role::user(), "One"), chat_message(chat_role::assistant(), "Two"),
                                       chat_message(chat_role::user(), "Three")},
                                      options, cached);
    const json::value mark = json::parse(R"({"type":"ephemeral","ttl":"1h"})");
    EXPECT_EQ(body.at("system").at(0).at("cache_control"), mark);
    EXPECT_EQ(body.at("tools").at(0).at("cache_control"), mark);
    EXPECT_EQ(body.at("messages").at(2).at("content").at(0).at("cache_control"), mark);
    EXPECT_FALSE(body.at("messages").at(0).at("content").at(0).as_object().contains("cache_control"));
    EXPECT_EQ(body.at("thinking"), json::parse(R"({"type":"enabled","budget_tokens":2048})"));
    EXPECT_FALSE(body_of({chat_message(chat_role::user(), "One")}).contains("thinking"));
}

TEST(anthropic_request, what_the_api_cannot_take_is_refused_before_sending) {
    const std::vector<chat_message> hi{chat_message(chat_role::user(), "Hi")};
    try {
        (void)forma::anthropic::build_request(hi, {}, forma::anthropic::client_options{}, false);
        ADD_FAILURE() << "no model, no error";
    } catch (const forma::error& e) {
        EXPECT_STREQ(e.what(), "an Anthropic Messages request needs a model: set it in the client options or the chat options");
    }
    forma::chat_options resume;
    resume.continuation_token = forma::continuation_token("resp_1");
    EXPECT_NE(error_of(hi, resume).find("cannot resume a response from a continuation token"), std::string::npos);
    forma::chat_options reserved;
    reserved.additional_properties["max_tokens"] = 5;
    EXPECT_EQ(error_of(hi, reserved),
              "chat_options::additional_properties cannot set \"max_tokens\": the Anthropic client sets it");
    EXPECT_NE(error_of({chat_message(chat_role::user(), std::string("caf\xC3"))}).find("the Anthropic request holds text that is not valid UTF-8"),
              std::string::npos);
    EXPECT_EQ(error_of({chat_message(chat_role("critic"), "Hm")}),
              "the Anthropic Messages API has no role \"critic\" (system, user, assistant, tool)");
}

TEST(anthropic_request, additional_properties_are_sent_and_count_tokens_has_no_limit_stream_or_extras) {
    forma::chat_options options;
    options.additional_properties["metadata"] = json::object{{"user_id", "u-1"}};
    const std::vector<chat_message> hi{chat_message(chat_role::user(), "Hi")};
    EXPECT_EQ(body_of(hi, options).at("metadata").at("user_id"), "u-1");
    const json::object count = forma::anthropic::build_count_tokens_request(hi, options, settings);
    EXPECT_FALSE(count.contains("max_tokens"));
    EXPECT_FALSE(count.contains("stream"));
    EXPECT_EQ(count.at("model"), "claude-test");
    EXPECT_EQ(count.at("messages"), body_of(hi).at("messages"));
    EXPECT_FALSE(count.contains("metadata")) << "count_tokens takes no additional properties";
}

} // namespace
