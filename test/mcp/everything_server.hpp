#pragma once
// The official MCP reference server (@modelcontextprotocol/server-everything, from npm, installed
// by tools/bootstrap into build/npm) and small stand-in servers written as shell scripts.

#include <forma/mcp/stdio_transport.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include <sys/types.h>
#include <unistd.h>

namespace mcp_test {

inline forma::mcp::stdio_server everything_server() {
    return {.command = FORMA_NODE,
            .args = {std::string(FORMA_NPM_DIR) + "/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
                     "stdio"}};
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

/// The processes whose parent is this one (from /proc), for checking that none is left.
inline int child_processes() {
    int count = 0;
    const std::string self = std::to_string(::getpid());
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        std::ifstream stat(entry.path() / "stat");
        std::string pid, name, state, parent;
        if (!(stat >> pid)) continue;
        // The name is in parentheses and may hold spaces: skip to its closing one.
        std::string rest((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
        const auto close = rest.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream fields(rest.substr(close + 1));
        if (fields >> state >> parent && parent == self) ++count; // zombies too: a child not reaped is left behind
    }
    return count;
}

} // namespace mcp_test
