#include <forma/openai/response_parser.hpp>

#include "fixtures.hpp"

#include <forma/model.hpp>
#include <forma/model/output_truncated_error.hpp>
#include <forma/model/refusal_error.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace {

using namespace forma;
using forma::openai::parse_error;
using forma::openai::parse_response;
using forma_openai_test::fixture;

std::chrono::system_clock::time_point at_seconds(std::int64_t s) {
    return std::chrono::system_clock::time_point(std::chrono::seconds(s));
}

TEST(openai_response, text_answer) {
    const std::string body = fixture("responses/text.json");
    const agent_response<> r = parse_response(body);
    EXPECT_EQ(r.text(), "Hello! How can I help you today?");
    EXPECT_EQ(r.response_id, "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG");
    EXPECT_EQ(r.created_at, at_seconds(1741570283));
    EXPECT_EQ(r.finish_reason, finish_reason::stop());
    EXPECT_EQ(r.additional_properties.at("model"), "gpt-4o-2024-08-06");
    EXPECT_EQ(r.raw_representation, boost::json::parse(body));
    ASSERT_EQ(r.messages.size(), 1u);
    const chat_message& m = r.messages[0];
    EXPECT_EQ(m.role, chat_role::assistant());
    EXPECT_EQ(m.message_id, "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG");
    EXPECT_EQ(m.created_at, at_seconds(1741570283));
    ASSERT_EQ(m.contents.size(), 1u);
    EXPECT_EQ(std::get<text_content>(m.contents[0]).text, "Hello! How can I help you today?");
    ASSERT_TRUE(r.usage);
    EXPECT_EQ(r.usage->input_token_count, 19);
    EXPECT_EQ(r.usage->output_token_count, 10);
    EXPECT_EQ(r.usage->total_token_count, 29);
    EXPECT_EQ(r.usage->cached_input_token_count, 0);
    EXPECT_EQ(r.usage->reasoning_token_count, 0);
    EXPECT_EQ(r.usage->additional_counts.at("prompt_tokens_details.audio_tokens"), 0);
    EXPECT_EQ(r.usage->additional_counts.at("completion_tokens_details.accepted_prediction_tokens"), 0);
}

TEST(openai_response, cached_and_reasoning_tokens) {
    const agent_response<> r = parse_response(fixture("responses/reasoning.json"));
    ASSERT_TRUE(r.usage);
    EXPECT_EQ(r.usage->input_token_count, 1536);
    EXPECT_EQ(r.usage->output_token_count, 340);
    EXPECT_EQ(r.usage->total_token_count, 1876);
    EXPECT_EQ(r.usage->cached_input_token_count, 1024);
    EXPECT_EQ(r.usage->reasoning_token_count, 320);
    EXPECT_EQ(r.text(), "The answer is 42. \xC3\x9Cn\xC3\xAF" "c\xC3\xB6" "d\xC3\xA9 survives: "
                        "\xE4\xBD\xA0\xE5\xA5\xBD \xF0\x9F\x9A\x80");
}

TEST(openai_response, a_refusal_is_refusal_content_never_text) {
    const agent_response<> r = parse_response(fixture("responses/refusal.json"));
    EXPECT_EQ(r.text(), "");
    ASSERT_EQ(r.messages.size(), 1u);
    ASSERT_EQ(r.messages[0].contents.size(), 1u);
    EXPECT_EQ(std::get<refusal_content>(r.messages[0].contents[0]).refusal,
              "I'm sorry, I can't help with that request.");
}

struct person {
    std::string name;
    int age = 0;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age))

TEST(openai_response, reading_a_refusal_as_a_type_gives_refusal_error) {
    const agent_response<> r = parse_response(fixture("responses/refusal.json"));
    try {
        r.deserialize<person>();
        FAIL() << "no error";
    } catch (const refusal_error& e) {
        EXPECT_EQ(e.refusal(), "I'm sorry, I can't help with that request.");
    }
}

TEST(openai_response, a_length_finish_gives_output_truncated_error) {
    const agent_response<> r = parse_response(fixture("responses/length.json"));
    EXPECT_EQ(r.finish_reason, finish_reason::length());
    EXPECT_THROW(r.deserialize<person>(), output_truncated_error);
}

TEST(openai_response, tool_calls) {
    const agent_response<> r = parse_response(fixture("responses/tool_calls.json"));
    EXPECT_EQ(r.finish_reason, finish_reason::tool_calls());
    ASSERT_EQ(r.messages.size(), 1u);
    const auto& contents = r.messages[0].contents;
    ASSERT_EQ(contents.size(), 2u);
    const auto& weather = std::get<function_call_content>(contents[0]);
    EXPECT_EQ(weather.call_id, "call_Ab12Cd34Ef56Gh78");
    EXPECT_EQ(weather.name, "get_weather");
    EXPECT_EQ(weather.arguments, boost::json::parse(R"({"city":"Paris","unit":"c"})").as_object());
    EXPECT_EQ(weather.raw_representation,
              boost::json::parse(R"({"id":"call_Ab12Cd34Ef56Gh78","type":"function","function":)"
                                 R"({"name":"get_weather","arguments":"{\"city\":\"Paris\",\"unit\":\"c\"}"}})"));
    EXPECT_EQ(std::get<function_call_content>(contents[1]).name, "get_time");
}

TEST(openai_response, tool_call_arguments_that_are_not_json_are_kept_raw) {
    const agent_response<> r = parse_response(
        R"({"id":"x","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":)"
        R"({"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":)"
        R"({"name":"f","arguments":"{\"a\":"}}]}}]})");
    const auto& call = std::get<function_call_content>(r.messages[0].contents[0]);
    EXPECT_TRUE(call.arguments.empty());
    EXPECT_EQ(call.raw_representation.at("function").at("arguments"), "{\"a\":");
}

TEST(openai_response, tool_call_arguments_with_numbers_past_a_double) {
    auto call_with = [](std::string_view arguments) {
        const agent_response<> r = parse_response(
            R"({"id":"x","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":)"
            R"({"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":)"
            R"({"name":"f","arguments":")" + std::string(arguments) + R"("}}]}}]})");
        return std::get<function_call_content>(r.messages[0].contents[0]);
    };
    EXPECT_EQ(call_with(R"({\"a\":0e400})").arguments, boost::json::parse(R"({"a":0.0})").as_object());
    const auto too_large = call_with(R"({\"a\":1e400})");
    EXPECT_TRUE(too_large.arguments.empty()); // as arguments that are not JSON: kept raw only
    EXPECT_EQ(too_large.raw_representation.at("function").at("arguments"), R"({"a":1e400})");
}

TEST(openai_response, reasoning_text_of_compatible_servers) {
    const agent_response<> r = parse_response(
        R"({"id":"x","created":1700000000,"model":"deepseek-reasoner","choices":[{"index":0,"finish_reason":"stop",)"
        R"("message":{"role":"assistant","reasoning_content":"Let me think.","content":"4"}}]})");
    ASSERT_EQ(r.messages[0].contents.size(), 2u);
    EXPECT_EQ(std::get<text_reasoning_content>(r.messages[0].contents[0]).text, "Let me think.");
    EXPECT_EQ(r.text(), "4");
}

TEST(openai_response, a_lean_body_from_a_compatible_server) {
    // No usage, no created, no model: what some local servers send.
    const agent_response<> r =
        parse_response(R"({"id":"1","choices":[{"message":{"role":"assistant","content":"ok"}}]})");
    EXPECT_EQ(r.text(), "ok");
    EXPECT_FALSE(r.usage);
    EXPECT_FALSE(r.created_at);
    EXPECT_FALSE(r.finish_reason);
    EXPECT_FALSE(r.additional_properties.contains("model"));
}

TEST(openai_response, only_the_first_choice_becomes_a_message) {
    const agent_response<> r = parse_response(
        R"({"id":"x","created":1,"model":"m","choices":[)"
        R"({"index":1,"finish_reason":"length","message":{"role":"assistant","content":"second"}},)"
        R"({"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"first"}}]})");
    EXPECT_EQ(r.text(), "first");
    EXPECT_EQ(r.finish_reason, finish_reason::stop());
    EXPECT_EQ(r.messages.size(), 1u);
}

TEST(openai_response, an_error_body_is_an_http_error) {
    try {
        parse_response(fixture("errors/rate_limit.json"), 429);
        FAIL() << "no error";
    } catch (const http_error& e) {
        EXPECT_EQ(e.status(), 429);
        EXPECT_EQ(e.type(), "tokens");
        EXPECT_EQ(e.code(), "rate_limit_exceeded");
        EXPECT_EQ(std::string(e.what()).rfind("HTTP 429 (rate_limit_exceeded): Rate limit reached for gpt-4o", 0),
                  0u)
            << e.what();
    }
    // An error object with a 200 status is still an error.
    try {
        parse_response(fixture("errors/server_error.json"));
        FAIL() << "no error";
    } catch (const http_error& e) {
        EXPECT_EQ(e.status(), 200);
        EXPECT_STREQ(e.what(), "HTTP 200 (server_error): The server had an error while processing your "
                               "request. Sorry about that!");
    }
}

TEST(openai_response, error_bodies_of_every_shape) {
    EXPECT_STREQ(parse_error(401, fixture("errors/invalid_api_key.json")).what(),
                 "HTTP 401 (invalid_api_key): Incorrect API key provided: "
                 "sk-proj-********************************************wxyz. You can find your API key at "
                 "https://platform.openai.com/account/api-keys.");
    // llama.cpp: a numeric code.
    EXPECT_STREQ(parse_error(400, R"({"error":{"code":400,"message":"context too long","type":"invalid_request_error"}})")
                     .what(),
                 "HTTP 400 (400): context too long");
    // A plain string error.
    EXPECT_STREQ(parse_error(404, R"({"error":"model 'llama9' not found"})").what(),
                 "HTTP 404: model 'llama9' not found");
    // Older vLLM: the members at the top level.
    EXPECT_STREQ(parse_error(400, R"({"object":"error","message":"bad","type":"BadRequestError","param":null,"code":400})")
                     .what(),
                 "HTTP 400 (400): bad");
    // A proxy's HTML page, whitespace collapsed.
    EXPECT_STREQ(parse_error(502, "<html>\r\n<body>\n  <h1>502 Bad Gateway</h1>\n</body>\n</html>\n").what(),
                 "HTTP 502: <html> <body> <h1>502 Bad Gateway</h1> </body> </html>");
    // Nothing at all.
    EXPECT_STREQ(parse_error(503, "").what(), "HTTP 503: Service Unavailable");
    // A long body is cut.
    const std::string long_body(5000, 'x');
    EXPECT_LT(std::string(parse_error(500, long_body).what()).size(), 400u);
    // Cut between characters, never inside one, and bytes that are not UTF-8 as U+FFFD.
    std::string accented;
    for (int i = 0; i < 400; ++i) accented += "\xC3\xA9"; // é: two bytes each
    const std::string cut = parse_error(500, "x" + accented).what();
    EXPECT_TRUE(cut.ends_with("\xC3\xA9...")) << cut;
    boost::system::error_code ec; // valid UTF-8: it survives a JSON round trip
    (void)boost::json::parse(boost::json::serialize(boost::json::value(cut)), ec);
    EXPECT_FALSE(ec) << ec.message();
    EXPECT_STREQ(parse_error(502, "bad \xFF\xC3 gateway\x01").what(), "HTTP 502: bad \xEF\xBF\xBD\xEF\xBF\xBD gateway?");
    // A non-2xx status with a body that looks like a success is still an error.
    EXPECT_THROW(parse_response(fixture("responses/text.json"), 500), http_error);
}

TEST(openai_response, malformed_json_is_a_json_error_with_a_path) {
    try {
        parse_response(R"({"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":5}}]})");
        FAIL() << "no error";
    } catch (const json_error& e) {
        EXPECT_EQ(e.path(), "/choices/0/message/content");
        EXPECT_NE(std::string(e.what()).find("expected string"), std::string::npos) << e.what();
    }
    try {
        parse_response(R"({"id":"x","usage":{"prompt_tokens":"many"}})");
        FAIL() << "no error";
    } catch (const json_error& e) {
        EXPECT_EQ(e.path(), "/usage/prompt_tokens");
    }
    try {
        parse_response("{\"id\": \"x\",\n \"choices\": [}");
        FAIL() << "no error";
    } catch (const json_error& e) {
        EXPECT_EQ(e.path().rfind("/choices", 0), 0u) << e.path();
        EXPECT_NE(e.offset(), json_error::npos);
        EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parse_response(""), json_error);
    EXPECT_THROW(parse_response("[]"), json_error);
}

TEST(openai_response, created_out_of_the_clocks_range_is_unknown) {
    EXPECT_FALSE(parse_response(R"({"id":"x","created":9223372036854775807,"choices":[]})").created_at);
    EXPECT_FALSE(parse_response(R"({"id":"x","created":-5,"choices":[]})").created_at);
    EXPECT_FALSE(parse_response(R"({"id":"x","created":0,"choices":[]})").created_at);
}

} // namespace
