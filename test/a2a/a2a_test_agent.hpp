#pragma once
// The A2A test agent (test_agent.mjs on the official SDK, run by Node.js) for a test: on a free port.

#include "support/node_server.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#define A2A_REQUIRE_TEST_AGENT()                                                                                       \
    do {                                                                                                               \
        if (std::string(FORMA_NODE).empty()) GTEST_SKIP() << "Node.js is not installed: no A2A agent to test against"; \
        ASSERT_TRUE(std::filesystem::exists(std::string(FORMA_NPM_DIR) + "/node_modules/@a2a-js/sdk"))               \
            << "the npm packages are missing: run tools/bootstrap";                                                    \
    } while (0)

/// Starts the test agent.
inline void start_test_agent(std::optional<forma_test::node_server>& server) {
    server.emplace(FORMA_NODE, FORMA_A2A_TEST_AGENT, std::vector<std::string>{},
                   std::vector<std::string>{"FORMA_NPM_DIR=" FORMA_NPM_DIR});
}

