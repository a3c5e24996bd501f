// An agent calls the MCP reference server's tools and a local tool in one turn, over the
// OpenAI client and the local model server (real TLS on loopback).
#include <forma/agent/chat_client_agent.hpp>
#include <forma/mcp.hpp>
#include <forma/tools.hpp>

#include "everything_server.hpp"
#include "openai/loopback.hpp"
#include "telemetry/span_reading.hpp"

#include <forma/middleware/agent_builder.hpp>
#include <forma/telemetry/gen_ai.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>

#include <boost/describe.hpp>

#include <gtest/gtest.h>

namespace {

namespace json = boost::json;
using forma::testing::scripted_reply;
using forma::testing::scripted_tool_call;

struct city {
    std::string name;
};
BOOST_DESCRIBE_STRUCT(city, (), (name))

class agent_with_mcp_tools : public loopback::fixture {};

// The results of the run's tool messages, by call id.
std::map<std::string, forma::function_result_content> results_of(const forma::agent_response<>& r) {
    std::map<std::string, forma::function_result_content> out;
    for (const auto& m : r.messages) {
        for (const auto& c : m.contents) {
            if (const auto* result = std::get_if<forma::function_result_content>(&c)) out[result->call_id] = *result;
        }
    }
    return out;
}

TEST_F(agent_with_mcp_tools, remote_and_local_tools_run_in_one_turn) {
    MCP_REQUIRE_EVERYTHING_SERVER();
    forma::mcp::client remote(io.get_executor(), forma::mcp::make_stdio_transport(io.get_executor(), mcp_test::everything_server()));
    std::vector<forma::function_tool> tools = run([&]() -> boost::asio::awaitable<std::vector<forma::function_tool>> {
        co_await remote.connect();
        co_return co_await forma::mcp::tools(remote);
    }());
    tools.push_back(forma::make_tool("get_weather", "The weather", [](const city& c) { return "5 degrees in " + c.name; }));

    auto& s = server();
    const std::vector<scripted_tool_call> calls{{"call_1", "echo", R"({"message":"from the model"})"},
                                               {"call_2", "get_weather", R"({"name":"Oslo"})"},
                                               {"call_3", "get-sum", R"({"a":2,"b":"three"})"}};
    s.enqueue(scripted_reply::tool_calls(calls));
    s.enqueue(scripted_reply::completion("Done."));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "mixed", .tools = tools});
    const auto response = run(agent.run("Use the tools"));
    run([&]() -> boost::asio::awaitable<bool> {
        co_await remote.close();
        co_return true;
    }());

    EXPECT_EQ(response.text(), "Done.");
    const auto results = results_of(response);
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(results.at("call_1").result, json::value("Echo: from the model"));
    EXPECT_FALSE(results.at("call_1").error);
    EXPECT_EQ(results.at("call_2").result, json::value("5 degrees in Oslo"));
    ASSERT_TRUE(results.at("call_3").error) << "arguments the schema refuses never reach the server";
    EXPECT_NE(results.at("call_3").error->find("/b"), std::string::npos) << *results.at("call_3").error;

    // The model's second request carries each result as a tool message, remote ones included.
    const auto sent = bodies();
    ASSERT_EQ(sent.size(), 2u);
    const auto& declared = sent[0].at("tools").as_array();
    EXPECT_TRUE(std::any_of(declared.begin(), declared.end(),
                            [](const json::value& t) { return t.at("function").at("name") == "echo"; }));
    const auto& messages = sent[1].at("messages").as_array();
    EXPECT_EQ(messages.at(2).at("tool_call_id"), "call_1");
    EXPECT_EQ(messages.at(2).at("content"), "Echo: from the model");
}

TEST_F(agent_with_mcp_tools, a_remote_call_over_http_is_an_execute_tool_span_under_the_run) {
    MCP_REQUIRE_EVERYTHING_SERVER();
    namespace attr = forma::telemetry::gen_ai::attr;
    auto everything = mcp_test::everything_http_server();
    forma::mcp::client remote(io.get_executor(), forma::mcp::make_http_transport(io.get_executor(), {.url = everything.url("/mcp")}));
    const std::vector<forma::function_tool> tools = run([&]() -> boost::asio::awaitable<std::vector<forma::function_tool>> {
        co_await remote.connect();
        co_return co_await forma::mcp::tools(remote);
    }());

    auto& s = server();
    const std::vector<scripted_tool_call> calls{{"call_1", "echo", R"({"message":"traced"})"}};
    s.enqueue(scripted_reply::tool_calls(calls));
    s.enqueue(scripted_reply::completion("Done."));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    auto memory = std::make_shared<forma::telemetry::in_memory_exporter>();
    auto agent = forma::agent_builder(std::make_shared<forma::chat_client_agent>(
                                          client, forma::chat_client_agent_options{.name = "traced", .tools = tools}))
                     .use_telemetry({.exporter = memory, .sensitive_data = true})
                     .build();
    EXPECT_EQ(run(agent->run("Echo it")).text(), "Done.");
    run([&]() -> boost::asio::awaitable<bool> {
        co_await remote.close();
        co_return true;
    }());

    const auto spans = memory->spans();
    const auto tool_span = std::find_if(spans.begin(), spans.end(), [](const auto& sp) { return sp.name == "execute_tool echo"; });
    ASSERT_NE(tool_span, spans.end());
    const auto run_span = std::find_if(spans.begin(), spans.end(), [](const auto& sp) { return sp.name == "invoke_agent traced"; });
    ASSERT_NE(run_span, spans.end());
    EXPECT_EQ(tool_span->parent_span_id, run_span->context.span_id);
    EXPECT_EQ(span_reading::text(*tool_span, attr::tool_call_id), std::string("call_1"));
    EXPECT_EQ(span_reading::text(*tool_span, attr::tool_call_arguments), std::string(R"({"message":"traced"})"));
    EXPECT_EQ(span_reading::text(*tool_span, attr::tool_call_result), std::string("Echo: traced"));
}

} // namespace
