// forma::mcp::client as the MCP conformance suite's client under test: the suite runs
// `conformance_client <server url>` with the scenario in MCP_CONFORMANCE_SCENARIO, and judges
// what the client sent. Exits 0 when the scenario ran, 1 (and says why on stderr) otherwise.
#include <forma/mcp.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: conformance_client <server url>\n";
        return 2;
    }
    const char* scenario = std::getenv("MCP_CONFORMANCE_SCENARIO");
    const std::string name = scenario ? scenario : "";
    boost::asio::io_context io;
    // Every question accepted as it is asked: the client fills in the schema's defaults.
    forma::mcp::client_options options{
        .on_elicitation = [](forma::mcp::elicitation_request) -> boost::asio::awaitable<forma::mcp::elicitation_result> {
            co_return forma::mcp::elicitation_result{.action = forma::mcp::elicitation_result::kind::accept};
        }};
    forma::mcp::client client(io.get_executor(), forma::mcp::make_http_transport(io.get_executor(), {.url = argv[argc - 1]}), std::move(options));
    int status = 0;
    // Named, so that it outlives io.run(): the coroutine reads its captures through it. (An
    // unnamed lambda called in co_spawn's arguments dies when co_spawn returns; ASan reports it
    // once the program is compiled at -O0.)
    const auto play = [&]() -> boost::asio::awaitable<void> {
        co_await client.connect();
        if (name == "tools_call") {
            boost::json::object numbers{{"a", 5}, {"b", 3}};
            const forma::mcp::call_result sum = co_await client.call_tool("add_numbers", std::move(numbers));
            std::cout << sum.text() << '\n';
        } else if (name == "elicitation-sep1034-client-defaults") {
            const forma::mcp::call_result answered = co_await client.call_tool("test_client_elicitation_defaults", boost::json::object());
            std::cout << answered.text() << '\n';
        } else if (name != "initialize") {
            std::cerr << "conformance_client: the scenario \"" << name << "\" is not one it plays\n";
            status = 1;
        }
        co_await client.close();
    };
    boost::asio::co_spawn(
        io, play(),
        [&](std::exception_ptr e) {
            if (!e) return;
            try {
                std::rethrow_exception(e);
            } catch (const std::exception& error) {
                std::cerr << "conformance_client: " << error.what() << '\n';
            }
            status = 1;
        });
    io.run();
    return status;
}
