#pragma once
// What the MCP conformance suite (@modelcontextprotocol/conformance, server scenarios) asks a
// server to serve, by the names and contents its scenarios give: tools of every content kind,
// with logging, progress, sampling and elicitation; resources, a template and a watched
// resource; prompts; completion of a prompt argument.

#include <forma/mcp/server.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <chrono>
#include <string>

namespace forma_test::conformance {

namespace asio = boost::asio;
namespace json = boost::json;
namespace mcp = forma::mcp;

// A 1x1 PNG and a silent WAV, as the suite's scenarios give them.
inline constexpr const char* png_base64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
inline constexpr const char* wav_base64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

inline forma::data_content png() { return forma::data_content::from_base64(png_base64, "image/png"); }

inline mcp::server_tool content_tool(std::string name, std::string description, std::vector<mcp::content_block> content) {
    return {.name = std::move(name), .description = std::move(description),
            .invoke = [content = std::move(content)](mcp::call_context&) -> asio::awaitable<mcp::tool_result> {
                co_return mcp::tool_result{.content = content};
            }};
}

inline asio::awaitable<void> pause(std::chrono::milliseconds how_long) {
    asio::steady_timer timer(co_await asio::this_coro::executor, how_long);
    co_await timer.async_wait(asio::use_awaitable);
}

inline json::object string_property(std::string description) { return {{"type", "string"}, {"description", std::move(description)}}; }

inline json::array titled(std::initializer_list<std::pair<const char*, const char*>> options) {
    json::array out;
    for (const auto& [value, title] : options) out.push_back(json::object{{"const", value}, {"title", title}});
    return out;
}

// Asks the client with `schema` and tells what it answered.
inline mcp::server_tool elicitation_tool(std::string name, std::string description, json::object schema) {
    return {.name = std::move(name), .description = std::move(description),
            .invoke = [schema = std::move(schema)](mcp::call_context& call) -> asio::awaitable<mcp::tool_result> {
                const json::value* asked = call.arguments().if_contains("message");
                const std::string message = asked && asked->is_string() ? std::string(asked->get_string()) : "Please answer";
                const mcp::elicitation_result answer = co_await call.elicit(message, schema);
                const char* action = answer.action == mcp::elicitation_result::kind::accept    ? "accept"
                                     : answer.action == mcp::elicitation_result::kind::decline ? "decline"
                                                                                               : "cancel";
                co_return mcp::tool_result{.content = {forma::text_content(std::string("User response: action=") + action +
                                                                           ", content=" + json::serialize(answer.content))}};
            }};
}

inline void serve(mcp::server& server) {
    server.add(content_tool("test_simple_text", "Returns simple text", {forma::text_content("This is a simple text response for testing.")}));
    server.add(content_tool("test_image_content", "Returns an image", {png()}));
    server.add(content_tool("test_audio_content", "Returns audio", {forma::data_content::from_base64(wav_base64, "audio/wav")}));
    server.add(content_tool("test_embedded_resource", "Returns an embedded resource",
                            {mcp::resource_contents{.uri = "test://embedded-resource", .mime_type = "text/plain",
                                                    .data = std::string("This is an embedded resource content.")}}));
    server.add(content_tool("test_multiple_content_types", "Returns text, an image and a resource",
                            {forma::text_content("Multiple content types test:"), png(),
                             mcp::resource_contents{.uri = "test://mixed-content-resource", .mime_type = "application/json",
                                                    .data = std::string(R"({"test":"data","value":123})")}}));
    server.add(mcp::server_tool{.name = "test_tool_with_logging", .description = "Logs three messages while it runs",
                                .invoke = [](mcp::call_context& call) -> asio::awaitable<mcp::tool_result> {
                                    for (const char* step : {"Tool execution started", "Tool processing data", "Tool execution completed"}) {
                                        call.log(mcp::log_level::info, json::string(step), "conformance");
                                        co_await pause(std::chrono::milliseconds(50));
                                    }
                                    co_return mcp::tool_result{.content = {forma::text_content("Logged three messages")}};
                                }});
    server.add(mcp::server_tool{.name = "test_error_handling", .description = "Always fails",
                                .invoke = [](mcp::call_context&) -> asio::awaitable<mcp::tool_result> {
                                    throw std::runtime_error("This tool intentionally returns an error for testing");
                                    co_return mcp::tool_result{};
                                }});
    server.add(mcp::server_tool{.name = "test_tool_with_progress", .description = "Reports progress 0, 50, 100 of 100",
                                .invoke = [](mcp::call_context& call) -> asio::awaitable<mcp::tool_result> {
                                    for (double done : {0.0, 50.0, 100.0}) {
                                        call.report_progress(done, 100.0);
                                        co_await pause(std::chrono::milliseconds(10));
                                    }
                                    co_return mcp::tool_result{.content = {forma::text_content("Progress reported")}};
                                }});
    server.add(mcp::server_tool{
        .name = "test_sampling", .description = "Asks the client's model",
        .input_schema = {{"type", "object"}, {"properties", {{"prompt", string_property("What to ask")}}}, {"required", {"prompt"}}},
        .invoke = [](mcp::call_context& call) -> asio::awaitable<mcp::tool_result> {
            const json::value* prompt = call.arguments().if_contains("prompt");
            mcp::sampling_request request{.messages = {forma::chat_message(forma::chat_role::user(), prompt && prompt->is_string() ? std::string(prompt->get_string()) : "")},
                                          .max_tokens = 100};
            const mcp::sampling_result answer = co_await call.create_message(std::move(request));
            co_return mcp::tool_result{.content = {forma::text_content("LLM response: " + answer.message.text())}};
        }});
    server.add(elicitation_tool("test_elicitation", "Asks the user for a name and an e-mail address",
                                {{"type", "object"},
                                 {"properties", {{"username", string_property("User's response")}, {"email", string_property("User's email address")}}},
                                 {"required", {"username", "email"}}}));
    server.add(elicitation_tool("test_elicitation_sep1034_defaults", "Asks with a default for every field",
                                {{"type", "object"},
                                 {"properties",
                                  {{"name", {{"type", "string"}, {"default", "John Doe"}}},
                                   {"age", {{"type", "integer"}, {"default", 30}}},
                                   {"score", {{"type", "number"}, {"default", 95.5}}},
                                   {"status", {{"type", "string"}, {"enum", {"active", "inactive", "pending"}}, {"default", "active"}}},
                                   {"verified", {{"type", "boolean"}, {"default", true}}}}}}));
    server.add(elicitation_tool(
        "test_elicitation_sep1330_enums", "Asks with every kind of enum",
        {{"type", "object"},
         {"properties",
          {{"untitledSingle", {{"type", "string"}, {"enum", {"option1", "option2", "option3"}}}},
           {"titledSingle", {{"type", "string"}, {"oneOf", titled({{"value1", "First Option"}, {"value2", "Second Option"}, {"value3", "Third Option"}})}}},
           {"legacyEnum", {{"type", "string"}, {"enum", {"opt1", "opt2", "opt3"}}, {"enumNames", {"Option One", "Option Two", "Option Three"}}}},
           {"untitledMulti", {{"type", "array"}, {"items", {{"type", "string"}, {"enum", {"option1", "option2", "option3"}}}}}},
           {"titledMulti",
            {{"type", "array"}, {"items", {{"anyOf", titled({{"value1", "First Choice"}, {"value2", "Second Choice"}, {"value3", "Third Choice"}})}}}}}}}}));

    const auto text_resource = [](std::string uri, std::string text) {
        return [uri = std::move(uri), text = std::move(text)]() -> asio::awaitable<std::vector<mcp::resource_contents>> {
            co_return std::vector<mcp::resource_contents>{{.uri = uri, .mime_type = "text/plain", .data = text}};
        };
    };
    server.add(mcp::resource{.uri = "test://static-text", .name = "Static text", .description = "A text resource", .mime_type = "text/plain",
                             .read = text_resource("test://static-text", "This is the content of the static text resource.")});
    server.add(mcp::resource{.uri = "test://static-binary", .name = "Static binary", .description = "A PNG", .mime_type = "image/png",
                             .read = []() -> asio::awaitable<std::vector<mcp::resource_contents>> {
                                 co_return std::vector<mcp::resource_contents>{{.uri = "test://static-binary", .mime_type = "image/png", .data = png().data}};
                             }});
    server.add(mcp::resource{.uri = "test://watched-resource", .name = "Watched", .description = "A resource to subscribe to", .mime_type = "text/plain",
                             .read = text_resource("test://watched-resource", "Watched resource content")});
    server.add(mcp::resource_template{
        .uri_template = "test://template/{id}/data", .name = "Data by id", .description = "Data for one id", .mime_type = "application/json",
        .read = [](const std::string& uri, const mcp::template_variables& variables) -> asio::awaitable<std::vector<mcp::resource_contents>> {
            const std::string& id = variables.at("id");
            json::object data{{"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}};
            co_return std::vector<mcp::resource_contents>{{.uri = uri, .mime_type = "application/json", .data = json::serialize(data)}};
        }});

    const auto messages = [](std::vector<mcp::prompt_message> m) { return m; };
    server.add(mcp::prompt{.name = "test_simple_prompt", .description = "A prompt with no arguments",
                           .get = [messages](const mcp::template_variables&) -> asio::awaitable<std::vector<mcp::prompt_message>> {
                               co_return messages({{.content = forma::text_content("This is a simple prompt for testing.")}});
                           }});
    server.add(mcp::prompt{
        .name = "test_prompt_with_arguments", .description = "A prompt with two arguments",
        .arguments = {{.name = "arg1", .description = "First argument", .required = true}, {.name = "arg2", .description = "Second argument", .required = true}},
        .get = [messages](const mcp::template_variables& a) -> asio::awaitable<std::vector<mcp::prompt_message>> {
            co_return messages({{.content = forma::text_content("Prompt with arguments: arg1='" + a.at("arg1") + "', arg2='" + a.at("arg2") + "'")}});
        },
        .complete = [](const std::string&, const std::string& prefix) {
            std::vector<std::string> out;
            for (std::string v : {"paris", "park", "party", "test", "testing"}) {
                if (v.rfind(prefix, 0) == 0) out.push_back(v);
            }
            return out;
        }});
    server.add(mcp::prompt{
        .name = "test_prompt_with_embedded_resource", .description = "A prompt holding a resource",
        .arguments = {{.name = "resourceUri", .description = "The resource to embed", .required = true}},
        .get = [messages](const mcp::template_variables& a) -> asio::awaitable<std::vector<mcp::prompt_message>> {
            co_return messages({{.content = mcp::resource_contents{.uri = a.at("resourceUri"), .mime_type = "text/plain", .data = std::string("Embedded resource content for testing.")}},
                                {.content = forma::text_content("Please process the embedded resource above.")}});
        }});
    server.add(mcp::prompt{.name = "test_prompt_with_image", .description = "A prompt holding an image",
                           .get = [messages](const mcp::template_variables&) -> asio::awaitable<std::vector<mcp::prompt_message>> {
                               co_return messages({{.content = png()}, {.content = forma::text_content("Please analyze the image above.")}});
                           }});
}

} // namespace forma_test::conformance
