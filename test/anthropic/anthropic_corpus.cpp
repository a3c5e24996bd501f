// What forma sends to and what the local model server answers as Anthropic's Messages API, written
// for validate_sdk_types.py to judge against the official SDK's types: request bodies (whole,
// streamed and count_tokens) of every kind of message, content and option the builder writes; the
// local server's generated Messages, event streams and errors.
//
//   forma_anthropic_corpus <dir>    writes <dir>/{requests,requests_stream,count,messages,events,errors}/
#include <forma/anthropic/request_builder.hpp>
#include <forma/chat/make_tool.hpp>

#include "testing/messages_endpoint.hpp" // the generator itself, as the server runs it

#include <boost/describe.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

namespace json = boost::json;
using forma::chat_message;
using forma::chat_role;
namespace fs = std::filesystem;

struct city_answer {
    std::string city;
    int days = 0;
};
BOOST_DESCRIBE_STRUCT(city_answer, (), (city, days))

struct request_case {
    std::string name;
    std::vector<chat_message> messages;
    forma::chat_options options;
    forma::anthropic::client_options settings;
};

forma::anthropic::client_options settings(forma::anthropic::prompt_cache cache = forma::anthropic::prompt_cache::none,
                                          std::int64_t thinking = 0) {
    return {.model = "claude-test", .max_tokens = 1000, .cache = cache, .thinking_budget_tokens = thinking};
}

std::vector<request_case> cases() {
    const std::vector<std::byte> png{std::byte{0x89}, std::byte{'P'}, std::byte{'N'}, std::byte{'G'}};
    forma::chat_options tools;
    tools.tools.push_back(forma::make_tool("get_weather", "The weather in a city.", [](city_answer) { return 1; }));
    std::vector<request_case> out;
    out.push_back({"text", {chat_message(chat_role::user(), "Hi")}, {}, settings()});
    forma::chat_options sampling;
    sampling.instructions = "Be brief.";
    sampling.temperature = 0.5;
    sampling.top_p = 0.9;
    sampling.max_output_tokens = 77;
    sampling.stop_sequences = {"END", "STOP"};
    sampling.additional_properties["metadata"] = json::object{{"user_id", "u-1"}};
    out.push_back({"system_and_sampling", {chat_message(chat_role::system(), "You are terse."), chat_message(chat_role::user(), "Hi")},
                   sampling, settings()});
    out.push_back({"images_and_documents",
                   {chat_message(chat_role::user(), std::vector<forma::content>{
                                                        forma::text_content("What is this?"), forma::data_content(png, "image/png"),
                                                        forma::uri_content("https://example.com/cat.jpg", "image/jpeg"),
                                                        forma::data_content(png, "application/pdf", "report.pdf"),
                                                        forma::uri_content("https://example.com/report.pdf", "application/pdf")})},
                   {}, settings()});
    forma::text_reasoning_content redacted("", std::string("opaque"));
    redacted.additional_properties["redacted"] = true;
    const std::vector<chat_message> tool_round{
        chat_message(chat_role::user(), "Weather in Oslo and Rome?"),
        chat_message(chat_role::assistant(), std::vector<forma::content>{
                                                 forma::text_reasoning_content("Two cities.", std::string("sig-1")), redacted,
                                                 forma::text_content("Checking."),
                                                 forma::function_call_content("toolu_1", "get_weather", {{"city", "Oslo"}}),
                                                 forma::function_call_content("toolu_2", "get_weather", {{"city", "Rome"}})}),
        chat_message(chat_role::tool(), std::vector<forma::content>{forma::function_result_content("toolu_1", "5 degrees")}),
        chat_message(chat_role::tool(), std::vector<forma::content>{
                                            forma::function_result_content("toolu_2", nullptr, "the service is down")}),
        chat_message(chat_role::user(), "And tomorrow?")};
    out.push_back({"tool_round_with_thinking", tool_round, tools, settings(forma::anthropic::prompt_cache::none, 2048)});
    out.push_back({"prompt_cache_five_minutes", tool_round, tools, settings(forma::anthropic::prompt_cache::five_minutes)});
    out.push_back({"prompt_cache_one_hour", tool_round, tools, settings(forma::anthropic::prompt_cache::one_hour)});
    for (const auto& [name, choice] : std::vector<std::pair<std::string, forma::tool_choice>>{
             {"tool_choice_auto", forma::tool_choice::automatic()},
             {"tool_choice_any", forma::tool_choice::required()},
             {"tool_choice_named", forma::tool_choice::function("get_weather")},
             {"tool_choice_none", forma::tool_choice::none()}}) {
        forma::chat_options o = tools;
        o.tool_choice = choice;
        o.parallel_tool_calls = false;
        out.push_back({name, {chat_message(chat_role::user(), "Weather?")}, o, settings()});
    }
    forma::chat_options native;
    native.response_format = forma::response_format::for_type<city_answer>();
    native.structured_output_mode = forma::structured_output_mode::native;
    out.push_back({"schema_native", {chat_message(chat_role::user(), "Oslo, 2 days")}, native, settings()});
    forma::chat_options tool_mode = native;
    tool_mode.structured_output_mode = forma::structured_output_mode::tool;
    out.push_back({"schema_tool_mode", {chat_message(chat_role::user(), "Oslo, 2 days")}, tool_mode, settings()});
    forma::chat_options object;
    object.response_format = forma::response_format::json();
    out.push_back({"json_object", {chat_message(chat_role::user(), "Oslo")}, object, settings()});
    return out;
}

void write(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text << '\n';
}

// The data of each event of a streamed generated reply, a line each.
std::string event_lines(const forma::testing::scripted_reply& reply) {
    std::string lines;
    for (const std::string& chunk : reply.chunks)
        for (std::size_t at = chunk.find("data: "); at != std::string::npos; at = chunk.find("data: ", at + 1))
            lines += chunk.substr(at + 6, chunk.find('\n', at) - at - 6) + "\n";
    return lines;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: forma_anthropic_corpus <dir>\n";
        return 2;
    }
    const fs::path dir = argv[1];
    std::size_t written = 0;
    for (const request_case& c : cases()) {
        write(dir / "requests" / (c.name + ".json"), json::serialize(forma::anthropic::build_request(c.messages, c.options, c.settings, false)));
        write(dir / "requests_stream" / (c.name + ".json"), json::serialize(forma::anthropic::build_request(c.messages, c.options, c.settings, true)));
        write(dir / "count" / (c.name + ".json"), json::serialize(forma::anthropic::build_count_tokens_request(c.messages, c.options, c.settings)));
        written += 3;
        // The local server's answer to the same request, whole and streamed.
        const std::string body = json::serialize(forma::anthropic::build_request(c.messages, c.options, c.settings, false));
        const std::string stream = json::serialize(forma::anthropic::build_request(c.messages, c.options, c.settings, true));
        const forma::testing::detail::generation options{{.seed = 1}, 1};
        const auto whole = forma::testing::detail::generate_message("POST", "/v1/messages", body, options);
        write(dir / (whole.status == 200 ? "messages" : "errors") / (c.name + ".json"), whole.body);
        const auto streamed = forma::testing::detail::generate_message("POST", "/v1/messages", stream, {{.seed = 1, .delta_size = 5}, 2});
        if (streamed.status == 200) write(dir / "events" / (c.name + ".jsonl"), event_lines(streamed));
        written += 2;
    }
    // Errors: a body without messages, and one without max_tokens.
    write(dir / "errors" / "no_messages.json", forma::testing::detail::generate_message("POST", "/v1/messages", "{}", {}).body);
    write(dir / "errors" / "no_max_tokens.json",
          forma::testing::detail::generate_message("POST", "/v1/messages", R"({"messages":[]})", {}).body);
    std::cout << written + 2 << " files written to " << dir.string() << '\n';
    return 0;
}
