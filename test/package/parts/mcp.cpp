// forma::mcp alone: a server of one tool, its Streamable HTTP routes mounted in an http_server.
#include <forma/mcp/server.hpp>
#include <forma/net/http_server.hpp>
#include <forma/tools.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp>

#include <iostream>

struct sum_request {
    int a = 0;
    int b = 0;
};
BOOST_DESCRIBE_STRUCT(sum_request, (), (a, b))

int main() {
    boost::asio::io_context io;
    forma::mcp::server mcp(io.get_executor(), {forma::make_tool("sum", "Adds two numbers", [](const sum_request& r) { return r.a + r.b; })});
    forma::net::http_server http(io.get_executor(), mcp.routes());
    std::cout << "an MCP server of one tool\n";
}
