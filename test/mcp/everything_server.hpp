#pragma once
// The official MCP reference server (@modelcontextprotocol/server-everything, from npm, installed
// by tools/bootstrap into build/npm) and small stand-in servers written as shell scripts.

#include <forma/mcp/stdio_transport.hpp>

#include "support/child_processes.hpp"
#include "support/node_server.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace mcp_test {

inline forma::mcp::stdio_server everything_server() {
    return {.command = FORMA_NODE,
            .args = {std::string(FORMA_NPM_DIR) + "/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
                     "stdio"}};
}

/// The reference server in its Streamable HTTP mode, on a free port: its endpoint is url("/mcp").
inline forma_test::node_server everything_http_server() {
    return forma_test::node_server(FORMA_NODE, everything_server().args[0], {"streamableHttp"});
}

/// Skips the test where Node.js is absent; fails it where the npm packages are missing.
#define MCP_REQUIRE_EVERYTHING_SERVER()                                                              \
    do {                                                                                             \
        if (std::string(FORMA_NODE).empty()) GTEST_SKIP() << "Node.js is not installed: no MCP server to test against"; \
        ASSERT_TRUE(std::filesystem::exists(mcp_test::everything_server().args[0]))                  \
            << "the npm packages are missing: run tools/bootstrap";                                  \
    } while (0)

/// A stand-in server: `sh -c script`.
inline forma::mcp::stdio_server shell_server(std::string script) {
    return {.command = "/bin/sh", .args = {"-c", std::move(script)}, .shutdown_grace = std::chrono::milliseconds(500)};
}

} // namespace mcp_test
