#include <forma/openai/request_builder.hpp>

#include "request_cases.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using namespace forma;
using forma::openai::build_request;
using forma_openai_test::bytes_of;
using forma_openai_test::user;

boost::json::value json(std::string_view text) { return boost::json::parse(text); }

boost::json::object build(const std::vector<chat_message>& messages, const chat_options& options = {},
                          bool stream = false) {
    return build_request(messages, options, "gpt-4o-mini", stream);
}

#define EXPECT_JSON(actual, expected) \
    EXPECT_EQ(boost::json::value(actual), json(expected)) << boost::json::serialize(actual)

TEST(openai_request, plain) {
    EXPECT_JSON(build({user("Hello")}),
                R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello"}]})");
}

TEST(openai_request, streaming_asks_for_usage) {
    EXPECT_JSON(build({user("Hi")}, {}, true),
                R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hi"}],)"
                R"("stream":true,"stream_options":{"include_usage":true}})");
}

TEST(openai_request, instructions_come_first_as_a_system_message) {
    EXPECT_JSON(build({chat_message(chat_role::system(), "Second."), user("Hi")}, {.instructions = "First."}),
                R"({"model":"gpt-4o-mini","messages":[{"role":"system","content":"First."},)"
                R"({"role":"system","content":"Second."},{"role":"user","content":"Hi"}]})");
}

TEST(openai_request, the_options_model_wins_over_the_default) {
    EXPECT_EQ(build({user("Hi")}, {.model = "o3"}).at("model"), "o3");
}

TEST(openai_request, sampling_options) {
    const auto body = build({user("Hi")}, {.temperature = 0.25,
                                           .top_p = 0.5,
                                           .max_output_tokens = 300,
                                           .stop_sequences = {"END", "\n\n"},
                                           .seed = 42});
    EXPECT_EQ(body.at("temperature"), 0.25);
    EXPECT_EQ(body.at("top_p"), 0.5);
    EXPECT_EQ(body.at("max_completion_tokens"), 300);
    EXPECT_FALSE(body.contains("max_tokens"));
    EXPECT_EQ(body.at("stop"), json(R"(["END","\n\n"])"));
    EXPECT_EQ(body.at("seed"), 42);
}

TEST(openai_request, unset_options_are_left_out) {
    const auto body = build({user("Hi")});
    for (const char* key : {"temperature", "top_p", "max_completion_tokens", "stop", "seed",
                            "response_format", "stream", "stream_options"})
        EXPECT_FALSE(body.contains(key)) << key;
}

TEST(openai_request, response_format_text_and_json) {
    EXPECT_EQ(build({user("Hi")}, {.response_format = response_format::text()}).at("response_format"),
              json(R"({"type":"text"})"));
    EXPECT_EQ(build({user("Hi")}, {.response_format = response_format::json()}).at("response_format"),
              json(R"({"type":"json_object"})"));
}

TEST(openai_request, response_format_json_schema_passes_the_schema_unchanged) {
    const char* schema = R"({"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]})";
    EXPECT_EQ(build({user("Hi")},
                    {.response_format = response_format::json_schema("count", schema, "A count", true)})
                  .at("response_format"),
              json(std::string(R"({"type":"json_schema","json_schema":{"name":"count","description":"A count",)") +
                   R"("schema":)" + schema + R"(,"strict":true}})"));
    EXPECT_EQ(build({user("Hi")}, {.response_format = response_format::json_schema("count", schema)})
                  .at("response_format"),
              json(std::string(R"({"type":"json_schema","json_schema":{"name":"count","schema":)") + schema +
                   "}}"));
    EXPECT_EQ(build({user("Hi")}, {.response_format = response_format::json_schema("count", schema, "", false)})
                  .at("response_format")
                  .at("json_schema")
                  .at("strict"),
              false);
}

TEST(openai_request, response_format_for_a_type) {
    const auto format = response_format::for_type<forma_openai_test::weather_report>();
    const auto body = build({user("Hi")}, {.response_format = format});
    const auto& schema = body.at("response_format").at("json_schema");
    EXPECT_EQ(std::string(schema.at("name").as_string()), format.name());
    EXPECT_EQ(schema.at("schema"), format.schema());
    EXPECT_EQ(schema.at("strict"), true);
}

TEST(openai_request, images_by_uri_and_as_data) {
    chat_message m(chat_role::user(),
                   std::vector<content>{text_content("What is this?"),
                                        uri_content("https://example.com/a.jpg", "image/jpeg"),
                                        data_content(bytes_of("GIF89a"), "image/gif")});
    EXPECT_JSON(build({m}),
                R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":[)"
                R"({"type":"text","text":"What is this?"},)"
                R"({"type":"image_url","image_url":{"url":"https://example.com/a.jpg"}},)"
                R"({"type":"image_url","image_url":{"url":"data:image/gif;base64,R0lGODlh"}}]}]})");
}

TEST(openai_request, audio_and_pdf_data) {
    chat_message m(chat_role::user(),
                   std::vector<content>{data_content(bytes_of("abc"), "audio/wav"),
                                        data_content(bytes_of("abc"), "Audio/MPEG"),
                                        data_content(bytes_of("%PDF"), "application/pdf", "r.pdf")});
    EXPECT_JSON(build({m}).at("messages"),
                R"([{"role":"user","content":[)"
                R"({"type":"input_audio","input_audio":{"data":"YWJj","format":"wav"}},)"
                R"({"type":"input_audio","input_audio":{"data":"YWJj","format":"mp3"}},)"
                R"({"type":"file","file":{"file_data":"data:application/pdf;base64,JVBERg==","filename":"r.pdf"}}]}])");
}

TEST(openai_request, several_text_contents_join_into_one_string) {
    chat_message m(chat_role::user(), std::vector<content>{text_content("Hel"), text_content("lo")});
    EXPECT_JSON(build({m}).at("messages"), R"([{"role":"user","content":"Hello"}])");
}

TEST(openai_request, author_names_the_api_accepts_are_sent) {
    chat_message a = user("Hi");
    a.author_name = "ana_1-x";
    chat_message b = user("Hi");
    b.author_name = "Ana María";
    chat_message c = user("Hi");
    c.author_name = std::string(65, 'a');
    EXPECT_JSON(build({a, b, c}).at("messages"),
                R"([{"role":"user","name":"ana_1-x","content":"Hi"},{"role":"user","content":"Hi"},)"
                R"({"role":"user","content":"Hi"}])");
}

TEST(openai_request, roles_are_written_in_lower_case) {
    EXPECT_JSON(build({chat_message(chat_role(std::string("USER")), "Hi"),
                       chat_message(chat_role(std::string("Developer")), "Be kind")})
                    .at("messages"),
                R"([{"role":"user","content":"Hi"},{"role":"developer","content":"Be kind"}])");
}

TEST(openai_request, tool_calls_and_their_results) {
    chat_message calls(chat_role::assistant(),
                       std::vector<content>{text_content("Checking."),
                                            function_call_content("call_1", "get_weather",
                                                                  boost::json::object{{"city", "Oslo"}})});
    chat_message results(chat_role::tool(),
                         std::vector<content>{function_result_content("call_1", boost::json::object{{"t", 3}}),
                                              function_result_content("call_2", "plain text"),
                                              function_result_content("call_3", nullptr, "timed out"),
                                              function_result_content("call_4", nullptr)}); // a void tool's result
    EXPECT_JSON(build({calls, results}).at("messages"),
                R"([{"role":"assistant","content":"Checking.","tool_calls":[{"id":"call_1","type":"function",)"
                R"("function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]},)"
                R"({"role":"tool","tool_call_id":"call_1","content":"{\"t\":3}"},)"
                R"({"role":"tool","tool_call_id":"call_2","content":"plain text"},)"
                R"({"role":"tool","tool_call_id":"call_3","content":"Error: timed out"},)"
                R"({"role":"tool","tool_call_id":"call_4","content":"null"}])");
}

TEST(openai_request, an_assistant_of_only_tool_calls_has_null_content) {
    chat_message calls(chat_role::assistant(),
                       std::vector<content>{function_call_content("c", "f", boost::json::object{})});
    EXPECT_JSON(build({calls}).at("messages"),
                R"([{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function",)"
                R"("function":{"name":"f","arguments":"{}"}}]}])");
}

TEST(openai_request, an_assistant_refusal_is_sent_as_refusal_not_text) {
    chat_message refused(chat_role::assistant(), std::vector<content>{refusal_content("No.")});
    EXPECT_JSON(build({refused}).at("messages"), R"([{"role":"assistant","content":null,"refusal":"No."}])");
}

TEST(openai_request, secondary_output_is_not_sent) {
    chat_message m(chat_role::assistant(),
                   std::vector<content>{text_reasoning_content("hmm"), text_content("42"),
                                        usage_content(usage_details{.input_token_count = 1}),
                                        error_content("oops"), unknown_content("x", {})});
    EXPECT_JSON(build({m}).at("messages"), R"([{"role":"assistant","content":"42"}])");
}

TEST(openai_request, output_errors_are_sent_as_the_correction_text) {
    const output_errors_content errors(std::vector<output_error>{{"/age", "expected integer"}});
    chat_message correction(chat_role::user(), std::vector<content>{errors});
    EXPECT_JSON(build({correction}).at("messages"),
                boost::json::serialize(boost::json::array{
                    boost::json::object{{"role", "user"}, {"content", correction_text(errors)}}}));
}

TEST(openai_request, a_message_of_only_what_is_not_sent_is_left_out) {
    const function_call_content call("c1", "f", {{"x", 1}});
    const function_approval_request_content asked("c1", call);
    chat_message thought(chat_role::assistant(), std::vector<content>{text_reasoning_content("hmm")});
    chat_message approval(chat_role::assistant(), std::vector<content>{asked});
    chat_message answer(chat_role::user(), std::vector<content>{asked.reject("no")});
    EXPECT_JSON(build({user("Hi"), thought, approval, answer, user("Bye")}).at("messages"),
                R"([{"role":"user","content":"Hi"},{"role":"user","content":"Bye"}])");
}

TEST(openai_request, tools_are_declared_with_strict_when_their_schema_keeps_the_rules) {
    const auto tools = forma_openai_test::sample_tools();
    const auto body = build({user("Hi")}, {.tools = tools});
    const auto& declared = body.at("tools").as_array();
    ASSERT_EQ(declared.size(), 3u);
    // A typed tool: its strict schema, strict on.
    EXPECT_EQ(declared[0].at("type"), "function");
    const auto& weather = declared[0].at("function").as_object();
    EXPECT_EQ(weather.at("name"), "get_weather");
    EXPECT_EQ(weather.at("description"), "The weather in a city");
    EXPECT_EQ(weather.at("parameters"), boost::json::value(forma::json_schema<forma_openai_test::city_query>(
                                            {.dialect = schema_dialect::openai_strict})));
    EXPECT_EQ(weather.at("strict"), true);
    // A runtime schema that keeps the rules is strict too; one that does not (minLength, an
    // optional property) is sent without strict, and a tool without a description has none.
    EXPECT_EQ(declared[1].at("function").at("strict"), true);
    EXPECT_JSON(declared[2], R"({"type":"function","function":{"name":"search","parameters":)"
                             R"({"type":"object","properties":{"q":{"type":"string","minLength":1}}}}})");
    EXPECT_FALSE(body.contains("tool_choice"));
    EXPECT_FALSE(body.contains("parallel_tool_calls"));
}

TEST(openai_request, tool_choice_and_parallel_calls) {
    const auto tools = forma_openai_test::sample_tools();
    EXPECT_EQ(build({user("Hi")}, {.tools = tools, .tool_choice = tool_choice::automatic()}).at("tool_choice"),
              "auto");
    EXPECT_EQ(build({user("Hi")}, {.tools = tools, .tool_choice = tool_choice::none()}).at("tool_choice"), "none");
    EXPECT_EQ(build({user("Hi")}, {.tools = tools, .tool_choice = tool_choice::required()}).at("tool_choice"),
              "required");
    EXPECT_JSON(build({user("Hi")}, {.tools = tools, .tool_choice = tool_choice::function("get_time")})
                    .at("tool_choice"),
                R"({"type":"function","function":{"name":"get_time"}})");
    EXPECT_EQ(build({user("Hi")}, {.tools = tools, .parallel_tool_calls = false}).at("parallel_tool_calls"), false);
    // Without tools the API refuses both: they are left out.
    const auto bare = build({user("Hi")}, {.tool_choice = tool_choice::none(), .parallel_tool_calls = true});
    EXPECT_FALSE(bare.contains("tools"));
    EXPECT_FALSE(bare.contains("tool_choice"));
    EXPECT_FALSE(bare.contains("parallel_tool_calls"));
}

TEST(openai_request, additional_properties_are_merged_last_and_win) {
    chat_options o{.temperature = 0.5};
    o.additional_properties = {{"temperature", 1.5}, {"user", "u1"}, {"max_tokens", 10}};
    const auto body = build({user("Hi")}, o);
    EXPECT_EQ(body.at("temperature"), 1.5);
    EXPECT_EQ(body.at("user"), "u1");
    EXPECT_EQ(body.at("max_tokens"), 10);
}

template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const forma::error& e) {
        return e.what();
    }
    return "no error";
}

TEST(openai_request, requests_that_cannot_be_expressed_are_errors) {
    EXPECT_EQ(error_of([] { build_request(std::vector{user("Hi")}, {}, "", false); }),
              "an OpenAI chat request needs a model: set it in the client options or the chat options");
    EXPECT_EQ(error_of([] { build({}); }), "an OpenAI chat request needs at least one message or instructions");
    EXPECT_EQ(error_of([] { build({user("x")}, {.stop_sequences = {"1", "2", "3", "4", "5"}}); }),
              "the OpenAI Chat Completions API takes at most 4 stop sequences, got 5");
    EXPECT_EQ(error_of([] {
                  build({user("x")}, {.continuation_token = continuation_token("abc")});
              }),
              "the OpenAI Chat Completions API cannot resume a response from a continuation token: "
              "background runs need forma::openai::responses_client");
    EXPECT_EQ(error_of([] {
                  chat_options o;
                  o.additional_properties = {{"stream", false}};
                  build({user("x")}, o);
              }),
              "chat_options::additional_properties cannot set \"stream\": the OpenAI client sets it");
    EXPECT_EQ(error_of([] { build({chat_message(chat_role(std::string("critic")), "x")}); }),
              "an OpenAI chat message cannot have the role \"critic\": the roles are system, developer, "
              "user, assistant and tool");
    EXPECT_EQ(error_of([] {
                  build({chat_message(chat_role::system(),
                                      std::vector<content>{uri_content("https://x/y.png", "image/png")})});
              }),
              "an OpenAI system message cannot hold uri contents (images)");
    EXPECT_EQ(error_of([] {
                  build({chat_message(chat_role::user(),
                                      std::vector<content>{uri_content("https://x/y.mp4", "video/mp4")})});
              }),
              "an OpenAI user message cannot hold a URI of media type \"video/mp4\" (only images can be "
              "sent by URI)");
    EXPECT_EQ(error_of([] {
                  build({chat_message(chat_role::user(),
                                      std::vector<content>{data_content(bytes_of("x"), "text/csv")})});
              }),
              "an OpenAI user message cannot hold data of media type \"text/csv\" (images, WAV and MP3 "
              "audio and PDF only)");
    EXPECT_EQ(error_of([] {
                  auto tools = forma_openai_test::sample_tools();
                  tools.push_back(tools.front());
                  build({user("x")}, {.tools = tools});
              }),
              "chat_options::tools has two tools named \"get_weather\"");
    EXPECT_EQ(error_of([] {
                  build({user("x")}, {.tools = forma_openai_test::sample_tools(),
                                      .tool_choice = tool_choice::function("get_wether")});
              }),
              "chat_options::tool_choice names the tool \"get_wether\", which is not among chat_options::tools");
    EXPECT_EQ(error_of([] {
                  chat_options o{.tools = forma_openai_test::sample_tools()};
                  o.additional_properties = {{"tools", boost::json::array()}};
                  build({user("x")}, o);
              }),
              "chat_options::additional_properties cannot set \"tools\" beside chat_options::tools: declare every "
              "tool in chat_options::tools");
    EXPECT_EQ(error_of([] { build({chat_message(chat_role::tool(), "42")}); }),
              "an OpenAI tool message needs a function_result_content (the call id it answers); put the "
              "tool's output there instead of in text");
}

TEST(openai_request, text_that_is_not_utf8_is_an_error_naming_where_it_is) {
    // serialize() would copy such bytes as they are, and the server would answer 400.
    EXPECT_EQ(error_of([] { build({user("caf\xE9 au lait")}); }),
              "the OpenAI request holds text that is not valid UTF-8: the string at \"/messages/0/content\" "
              "(12 bytes) has an invalid byte at offset 3; convert the text to UTF-8 before sending it");
    EXPECT_EQ(error_of([] { build({user("x")}, {.instructions = "ok", .stop_sequences = {"\xC0\xAF"}}); }),
              "the OpenAI request holds text that is not valid UTF-8: the string at \"/stop/0\" (2 bytes) has "
              "an invalid byte at offset 0; convert the text to UTF-8 before sending it");
    const std::vector<std::string> invalid = {
        "\x80",         // a lone continuation byte
        "ab\xE2\x82",   // a sequence cut at the end
        "\xED\xA0\x80", // a UTF-16 surrogate
        "\xF4\x90\x80\x80", // past U+10FFFF
        "\xE0\x80\xAF", // overlong
    };
    for (const std::string& text : invalid) {
        chat_message message(chat_role::user(), std::vector<content>{text_content("fine"), text_content(text)});
        message.contents.push_back(uri_content("https://example.com/a.png", "image/png"));
        EXPECT_NE(error_of([&] { build({user("first"), message}); }).find("\"/messages/1/content/1/text\""),
                  std::string::npos)
            << ::testing::PrintToString(text);
    }
    // A bad member name is reported at its object, so the message itself stays UTF-8.
    EXPECT_EQ(error_of([] {
                  chat_options o;
                  o.additional_properties = {{"metadata", boost::json::object{{"k\xFF", 1}}}};
                  build({user("x")}, o);
              }),
              "the OpenAI request holds text that is not valid UTF-8: a member name in the object at "
              "\"/metadata\" (2 bytes) has an invalid byte at offset 1; convert the text to UTF-8 before "
              "sending it");
    // Valid multi-byte text of every length passes.
    EXPECT_EQ(error_of([] { build({user("caf\u00e9 \u20ac \U0001F600 ~/")}); }), "no error");
}

TEST(openai_request, tool_mode_asks_for_the_format_as_a_forced_call_of_final_result) {
    const auto format = response_format::json_schema(
        "person", R"({"type":"object","properties":{},"required":[],"additionalProperties":false})", "Who", true);
    auto tool_mode = [&](std::optional<tool_choice> choice, std::vector<function_tool> tools = {}) {
        return build({user("Hi")}, {.response_format = format,
                                    .structured_output_mode = structured_output_mode::tool,
                                    .tools = std::move(tools),
                                    .tool_choice = std::move(choice)});
    };
    const auto alone = tool_mode(std::nullopt);
    EXPECT_FALSE(alone.contains("response_format"));
    EXPECT_JSON(alone.at("tools"), R"([{"type":"function","function":{"name":"final_result","description":"Who",)"
                                   R"("parameters":{"type":"object","properties":{},"required":[],"additionalProperties":false},)"
                                   R"("strict":true}}])");
    EXPECT_EQ(alone.at("tool_choice"), "required"); // the answer tool alone: servers that take no named choice take this
    EXPECT_EQ(alone.at("parallel_tool_calls"), false);  // one answer: a server that follows the flag stops after it

    const auto tools = forma_openai_test::sample_tools();
    EXPECT_EQ(tool_mode(std::nullopt, tools).at("tool_choice"), "required"); // the others may come first
    EXPECT_EQ(tool_mode(tool_choice::automatic(), tools).at("tool_choice"), "required");
    const auto none_of_the_others = tool_mode(tool_choice::none(), tools);
    EXPECT_EQ(none_of_the_others.at("tool_choice"), "required");
    ASSERT_EQ(none_of_the_others.at("tools").as_array().size(), 1u) << "none of the others is declared";
    EXPECT_EQ(none_of_the_others.at("tools").at(0).at("function").at("name"), "final_result");
    EXPECT_JSON(tool_mode(tool_choice::function("get_time"), tools).at("tool_choice"),
                R"({"type":"function","function":{"name":"get_time"}})"); // the caller's choice stays
    EXPECT_EQ(tool_mode(std::nullopt, tools).at("tools").as_array().size(), tools.size() + 1);
    EXPECT_FALSE(tool_mode(std::nullopt, tools).contains("parallel_tool_calls")) << "the other tools may run in parallel";
    EXPECT_EQ(none_of_the_others.at("parallel_tool_calls"), false);

    // Native mode, or a format that is not a JSON Schema, is sent as it is.
    EXPECT_EQ(build({user("Hi")}, {.response_format = format, .structured_output_mode = structured_output_mode::native})
                  .at("response_format").at("type"), "json_schema");
    const auto json_mode = build({user("Hi")}, {.response_format = response_format::json(),
                                                .structured_output_mode = structured_output_mode::tool});
    EXPECT_EQ(json_mode.at("response_format").at("type"), "json_object");
    EXPECT_FALSE(json_mode.contains("tools"));

    // A tool's parameters must be an object schema: a format whose schema is not one is refused by name.
    const std::string refused = error_of([] {
        build({user("Hi")}, {.response_format = response_format::json_schema("names", R"({"type":"array"})"),
                             .structured_output_mode = structured_output_mode::tool});
    });
    EXPECT_NE(refused.find("structured_output_mode::tool cannot send the response format \"names\": the parameters "
                           "schema of the tool \"final_result\" must be an object schema"),
              std::string::npos)
        << refused;
    EXPECT_NE(refused.find("use structured_output_mode::native"), std::string::npos) << refused;
}

TEST(openai_request, every_case_of_the_schema_corpus_builds) {
    const auto cases = forma_openai_test::request_cases();
    EXPECT_GE(cases.size(), 30u);
    for (const auto& c : cases) {
        const auto body = build_request(c.messages, c.options, "gpt-4o-mini", c.stream);
        EXPECT_FALSE(body.at("messages").as_array().empty()) << c.name;
        EXPECT_EQ(body.contains("stream"), c.stream) << c.name;
    }
}

} // namespace
