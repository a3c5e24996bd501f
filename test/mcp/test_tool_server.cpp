// The MCP server the stdio tests spawn: the tools of served_tools.hpp over standard input and
// output, two tools a page. Ends when its input ends.
#include <forma/mcp/server.hpp>

#include "served_tools.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <exception>
#include <iostream>

int main() {
    boost::asio::io_context io;
    forma::mcp::server server(io.get_executor(), forma_test::mcp_tools::all(),
                              {.name = "forma-test-tools", .version = "1.2.3", .instructions = "Tools for tests", .page_size = 2});
    boost::asio::co_spawn(io, server.serve_stdio(), [](std::exception_ptr e) {
        if (!e) return;
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& error) {
            std::cerr << "test_tool_server: " << error.what() << '\n';
        }
    });
    io.run();
}
