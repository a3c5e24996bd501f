#pragma once

// Requests of every kind the request builder makes: plain, streaming, each
// response format, sampling options, multimodal, tool round trips. The schema
// test writes each body to a file for Python's jsonschema to judge against
// CreateChatCompletionRequest; the unit tests build them all too.

#include <forma/chat/chat_options.hpp>
#include <forma/chat/make_tool.hpp>
#include <forma/model.hpp>

#include <boost/describe/class.hpp>
#include <boost/json/parse.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace forma_openai_test {

struct weather_report {
    std::string city;
    double temperature_c = 0;
    std::optional<std::string> summary;
};
BOOST_DESCRIBE_STRUCT(weather_report, (), (city, temperature_c, summary))

struct city_query {
    std::string city;
    std::optional<std::string> units;
    std::vector<std::string> days;
};
BOOST_DESCRIBE_STRUCT(city_query, (), (city, units, days))

/// A typed tool (strict), a runtime-schema tool that keeps the strict rules, and one that does not.
inline std::vector<forma::function_tool> sample_tools() {
    return {forma::make_tool("get_weather", "The weather in a city", [](const city_query&) { return 21.5; }),
            forma::make_tool("get_time", "The time in a zone",
                             R"({"type":"object","properties":{"zone":{"type":"string"}},"required":["zone"],)"
                             R"("additionalProperties":false})",
                             [](const boost::json::value&) { return std::string("12:00"); }),
            forma::make_tool("search", "",
                             R"({"type":"object","properties":{"q":{"type":"string","minLength":1}}})",
                             [](boost::json::value) {})};
}

struct request_case {
    std::string name;
    std::vector<forma::chat_message> messages;
    forma::chat_options options{};
    bool stream = false;
};

inline std::vector<std::byte> bytes_of(std::string_view s) {
    std::vector<std::byte> out;
    for (char c : s) out.push_back(static_cast<std::byte>(c));
    return out;
}

inline forma::chat_message user(std::string text) {
    return forma::chat_message(forma::chat_role::user(), std::move(text));
}

inline std::vector<request_case> request_cases() {
    using namespace forma;
    const boost::json::object schema =
        boost::json::parse(R"({"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},)"
                           R"("required":["name","age"],"additionalProperties":false})")
            .as_object();
    std::vector<request_case> cases;
    auto add = [&](std::string name, std::vector<chat_message> messages, chat_options options = {},
                   bool stream = false) {
        cases.push_back({std::move(name), std::move(messages), std::move(options), stream});
    };

    add("plain", {user("Hello")});
    add("plain_streaming", {user("Hello")}, {}, true);
    add("instructions", {user("What is 2+2?")}, {.instructions = "You are terse."});
    add("instructions_only", {}, {.instructions = "Say hello."});
    add("model_override", {user("Hi")}, {.model = "gpt-4.1-mini"});
    add("format_text", {user("Hi")}, {.response_format = response_format::text()});
    add("format_json_object", {user("Give JSON")}, {.response_format = response_format::json()});
    add("format_json_schema_full", {user("John is 35")},
        {.response_format = response_format::json_schema("person", schema, "A person in the text", true)});
    add("format_json_schema_minimal", {user("John is 35")},
        {.response_format = response_format::json_schema("person", schema)});
    add("format_json_schema_not_strict", {user("John is 35")},
        {.response_format = response_format::json_schema("person", schema, "", false)});
    add("format_for_type_strict", {user("Weather in Paris")},
        {.response_format = response_format::for_type<weather_report>()});
    add("format_for_type_standard", {user("Weather in Paris")},
        {.response_format = response_format::for_type<weather_report>(false)});
    add("format_json_schema_streaming", {user("John is 35")},
        {.response_format = response_format::json_schema("person", schema, "A person", true)}, true);
    add("format_json_object_streaming", {user("Give JSON")}, {.response_format = response_format::json()},
        true);
    add("format_as_tool", {user("Weather in Paris")},
        {.response_format = response_format::for_type<weather_report>(),
         .structured_output_mode = structured_output_mode::tool});
    add("format_as_tool_beside_tools_streaming", {user("Weather in Paris")},
        {.response_format = response_format::for_type<weather_report>(),
         .structured_output_mode = structured_output_mode::tool, .tools = sample_tools()},
        true);
    add("sampling", {user("Write a haiku")},
        {.temperature = 0.2, .top_p = 0.9, .max_output_tokens = 256,
         .stop_sequences = {"\n\n", "END"}, .seed = 42});
    add("four_stop_sequences", {user("Count")}, {.stop_sequences = {"5", "6", "7", "8"}});
    add("temperature_zero_streaming", {user("Hi")}, {.temperature = 0.0}, true);

    {
        chat_message m(chat_role::user(), std::vector<content>{
                                              text_content("What is in this picture?"),
                                              uri_content("https://example.com/cat.png", "image/png")});
        add("image_by_uri", {m});
    }
    {
        chat_message m(chat_role::user(),
                       std::vector<content>{data_content(bytes_of("\x89PNG\r\n\x1a\nfake"), "image/png"),
                                            text_content("Describe it.")});
        add("image_as_data", {m});
        add("image_as_data_streaming", {m}, {}, true);
    }
    {
        chat_message m(chat_role::user(),
                       std::vector<content>{text_content("Transcribe both."),
                                            data_content(bytes_of("RIFF....WAVEfmt "), "audio/wav"),
                                            data_content(bytes_of("ID3\x03\x00"), "audio/mpeg")});
        add("audio", {m});
    }
    {
        chat_message m(chat_role::user(),
                       std::vector<content>{text_content("Summarise the report."),
                                            data_content(bytes_of("%PDF-1.7\n"), "application/pdf",
                                                         "report.pdf")});
        add("pdf_file", {m});
    }
    {
        chat_message system(chat_role::system(), "Be brief.");
        chat_message first = user("My name is Ana.");
        first.author_name = "ana_1";
        chat_message answer(chat_role::assistant(), "Hello Ana.");
        answer.author_name = "helper-bot";
        chat_message odd_name = user("And what is my name?");
        odd_name.author_name = "Ana María"; // not a name the API accepts: left out
        add("conversation", {system, first, answer, odd_name});
    }
    add("developer_role", {chat_message(chat_role(std::string("developer")), "Answer in French."),
                           user("Hello")});
    {
        chat_message call(chat_role::assistant(),
                          std::vector<content>{function_call_content(
                              "call_1", "get_weather", boost::json::object{{"city", "Paris"}})});
        chat_message result(chat_role::tool(),
                            std::vector<content>{function_result_content(
                                "call_1", boost::json::object{{"temperature_c", 21.5}})});
        add("tool_round_trip", {user("Weather in Paris?"), call, result});
        add("tool_round_trip_streaming", {user("Weather in Paris?"), call, result}, {}, true);
    }
    {
        chat_message calls(chat_role::assistant(),
                           std::vector<content>{text_content("Let me check both."),
                                                function_call_content("call_a", "get_time", {}),
                                                function_call_content("call_b", "get_date", {})});
        chat_message results(chat_role::tool(),
                             std::vector<content>{function_result_content("call_a", "12:00"),
                                                  function_result_content("call_b", nullptr, "no calendar")});
        add("tool_results_text_and_error", {user("Time and date?"), calls, results});
    }
    {
        chat_message refused(chat_role::assistant(),
                             std::vector<content>{refusal_content("I can't help with that.")});
        add("assistant_refusal", {user("Do something bad"), refused, user("Then say hi")});
    }
    {
        chat_message thought(chat_role::assistant(),
                             std::vector<content>{text_reasoning_content("thinking..."),
                                                  text_content("42"), usage_content(usage_details{})});
        add("assistant_with_reasoning", {user("Answer?"), thought, user("Why?")});
    }
    add("unicode", {user("Grüße, 你好, 🚀 \"quoted\" \\ back\nslash")});
    {
        const auto tools = sample_tools();
        add("tools", {user("Weather in Oslo?")}, {.tools = tools});
        add("tools_streaming", {user("Weather in Oslo?")}, {.tools = tools}, true);
        add("tool_choice_auto", {user("Hi")}, {.tools = tools, .tool_choice = tool_choice::automatic()});
        add("tool_choice_none", {user("Hi")}, {.tools = tools, .tool_choice = tool_choice::none()});
        add("tool_choice_required", {user("Hi")},
            {.tools = tools, .tool_choice = tool_choice::required(), .parallel_tool_calls = false});
        add("tool_choice_named", {user("Hi")},
            {.tools = tools, .tool_choice = tool_choice::function("get_time"), .parallel_tool_calls = true});
        add("tools_with_a_format", {user("Weather report for Oslo")},
            {.response_format = response_format::for_type<weather_report>(), .tools = tools}, true);
        chat_message asked(chat_role::assistant(),
                           std::vector<content>{function_approval_request_content(
                               "call_9", function_call_content("call_9", "get_time", {{"zone", "UTC"}}))});
        chat_message answered(chat_role::user(), std::vector<content>{
                                                     std::get<function_approval_request_content>(asked.contents[0])
                                                         .approve()});
        add("approval_contents_are_not_sent", {user("Time?"), asked, answered, user("Go on")}, {.tools = tools});
    }
    {
        chat_options o;
        o.additional_properties = {{"user", "user-1234"},
                                   {"n", 1},
                                   {"frequency_penalty", 0.5},
                                   {"presence_penalty", -0.5},
                                   {"logprobs", true},
                                   {"top_logprobs", 3},
                                   {"max_tokens", 100},
                                   {"parallel_tool_calls", false}};
        add("additional_properties", {user("Hi")}, o);
    }
    {
        chat_options o{.model = "gpt-4o",
                       .instructions = "You extract people.",
                       .temperature = 1.0,
                       .top_p = 1.0,
                       .max_output_tokens = 1000,
                       .stop_sequences = {"###"},
                       .seed = -7,
                       .response_format = response_format::for_type<weather_report>()};
        o.additional_properties = {{"service_tier", "auto"}, {"store", false}};
        add("everything_streaming", {user("Weather in Oslo")}, o, true);
    }
    return cases;
}

} // namespace forma_openai_test
