// Remote tools: an agent uses the tools of an MCP server (the official reference server,
// @modelcontextprotocol/server-everything) next to a local C++ tool, through one tool loop.
//
//   mcp_tools                          runs `npx -y @modelcontextprotocol/server-everything`
//   mcp_tools node path/to/index.js    any MCP server started by a command over stdio
//
// The model: the OpenAI-compatible service when OPENAI_API_KEY or OPENAI_BASE_URL is set, and
// otherwise forma's local model server, which calls the three tools in one turn with arguments
// made from their schemas.
#include "example_support.hpp"

#include <forma/forma.hpp>
#include <forma/mcp.hpp>

#include <boost/describe.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

struct city {
    std::string name;
};
BOOST_DESCRIBE_STRUCT(city, (), (name))

boost::asio::awaitable<void> use_remote_tools(forma::chat_client& model, forma::mcp::stdio_server server) {
    const auto executor = co_await boost::asio::this_coro::executor;
    forma::mcp::client remote(executor, forma::mcp::make_stdio_transport(executor, std::move(server)));
    co_await remote.connect();
    std::cout << "connected to " << remote.server().name << ' ' << remote.server().version << " (MCP "
              << remote.server().protocol_version << ")\n";

    // The server's tools, as function_tools; this agent needs two of them, and one of its own.
    std::vector<forma::function_tool> tools;
    for (const forma::function_tool& tool : co_await forma::mcp::tools(remote)) {
        if (tool.name() == "echo" || tool.name() == "get-sum") tools.push_back(tool);
    }
    std::sort(tools.begin(), tools.end(), [](const auto& a, const auto& b) { return a.name() < b.name(); });
    tools.push_back(forma::make_tool("get_weather", "The weather in a city",
                                     [](const city& c) { return "4 degrees and light snow in " + c.name; }));
    std::cout << "tools:";
    for (const auto& tool : tools) std::cout << ' ' << tool.name();
    std::cout << '\n';

    forma::chat_client_agent agent(model, {.name = "assistant",
                                           .instructions = "Use the tools to answer.",
                                           .tools = tools});
    const forma::agent_response<> response = co_await agent.run("Echo 'hello', add 2 and 3, and tell me Oslo's weather.");
    example::show_tool_activity(response);
    std::cout << "answer: " << response.text() << '\n';
    co_await remote.close(); // the server process ends here
}

int main(int argc, char** argv) {
    forma::mcp::stdio_server server{.command = "npx", .args = {"-y", "@modelcontextprotocol/server-everything"}};
    if (argc > 1) server = {.command = argv[1], .args = std::vector<std::string>(argv + 2, argv + argc)};
    try {
        boost::asio::io_context io;
        example::model model(io, {.tool_calls_per_turn = 3});
        example::run(io, use_remote_tools(model.client(), std::move(server)));
        return 0;
    } catch (const forma::mcp::mcp_error& e) {
        std::cerr << "The MCP server failed: " << e.what() << '\n';
    } catch (const std::exception& e) {
        std::cerr << "Failed: " << e.what() << '\n';
    }
    return 1;
}
