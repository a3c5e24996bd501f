// forma::mcp::server driven by the official MCP SDK's Client (@modelcontextprotocol/sdk,
// through sdk_client.mjs) over stdio (the SDK spawns test_tool_server) and Streamable HTTP.
#include <forma/mcp/server.hpp>

#include "served_tools.hpp"
#include "support/bounded_run.hpp"
#include "support/program_output.hpp"
#include "support/running_server.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;

enum class transport { stdio, http };

class SdkClient : public ::testing::TestWithParam<transport> {
protected:
    void SetUp() override {
        if (std::string(FORMA_NODE).empty()) GTEST_SKIP() << "Node.js is not installed: no MCP SDK client";
        ASSERT_TRUE(std::filesystem::exists(std::string(FORMA_NPM_DIR) + "/node_modules/@modelcontextprotocol/sdk"))
            << "the npm packages are missing: run tools/bootstrap";
    }

    // Runs the SDK client on the transport of the test against `http` (unused for stdio).
    asio::awaitable<json::object> sdk(const forma_test::running_server& http, std::vector<std::string> scenario) {
        std::vector<std::string> argv{FORMA_NODE, FORMA_MCP_SDK_CLIENT};
        if (GetParam() == transport::stdio) {
            argv.insert(argv.end(), {"stdio", FORMA_MCP_TEST_TOOL_SERVER, "--"});
        } else {
            argv.insert(argv.end(), {"http", http.base_url() + "/mcp"});
        }
        argv.insert(argv.end(), scenario.begin(), scenario.end());
        co_return co_await forma_test::printed_object(std::move(argv), {"FORMA_NPM_DIR=" FORMA_NPM_DIR});
    }

    void run(asio::awaitable<void> test) { forma_test::run_bounded(io, std::move(test), 60s); }

    asio::io_context io;
    forma::mcp::server mcp{io.get_executor(), forma_test::mcp_tools::all(),
                           {.name = "forma-test-tools", .version = "1.2.3", .instructions = "Tools for tests", .page_size = 2}};
};

std::string text_of(const json::value& result) {
    std::string text;
    for (const auto& c : result.at("content").as_array()) text += c.at("text").as_string();
    return text;
}

TEST_P(SdkClient, NegotiatesAndListsEveryPage) {
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, mcp.routes());
        const json::object info = co_await sdk(s, {"info"});
        const json::object listed = co_await sdk(s, {"list"});
        co_await s.finish();
        EXPECT_EQ(info.at("server").at("name").as_string(), "forma-test-tools") << json::serialize(info);
        EXPECT_EQ(info.at("protocolVersion").as_string(), "2025-11-25") << "the newest both speak";
        EXPECT_EQ(info.at("instructions").as_string(), "Tools for tests");
        EXPECT_TRUE(info.at("capabilities").as_object().contains("tools"));
        EXPECT_EQ(listed.at("pages").as_int64(), 3);
        EXPECT_EQ(listed.at("tools").as_array().size(), 5u) << json::serialize(listed);
    }());
}

TEST_P(SdkClient, CallsToolsWithStructuredContentAndErrors) {
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, mcp.routes());
        const json::object structured = co_await sdk(s, {"structured", "add", R"({"a":20,"b":22})"});
        const json::object failed = co_await sdk(s, {"call", "fail", "{}"});
        const json::object unknown = co_await sdk(s, {"call_unknown"});
        co_await s.finish();
        EXPECT_EQ(structured.at("result").at("structuredContent"), json::parse(R"({"sum":42})")) << json::serialize(structured);
        EXPECT_EQ(structured.at("validated"), json::value(true)) << "the SDK checked it against the outputSchema";
        EXPECT_EQ(failed.at("result").at("isError"), json::value(true));
        EXPECT_EQ(text_of(failed.at("result")), "the tool failed: failed on purpose");
        EXPECT_EQ(unknown.at("error").at("code").as_int64(), -32602) << json::serialize(unknown);
    }());
}

TEST_P(SdkClient, ReportsProgressAndCancels) {
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, mcp.routes());
        const int canceled_before = forma_test::mcp_tools::canceled_calls;
        const json::object progress = co_await sdk(s, {"progress", "slow", R"({"steps":4})"});
        const json::object canceled = co_await sdk(s, {"cancel", "forever", "{}", "300"});
        co_await s.finish();
        EXPECT_EQ(text_of(progress.at("result")), "done after 4 steps") << json::serialize(progress);
        EXPECT_EQ(progress.at("progress").as_array().size(), 4u);
        EXPECT_EQ(progress.at("progress").at(3), json::parse(R"({"progress":4,"total":4,"message":"step 4"})"));
        EXPECT_EQ(canceled.at("aborted"), json::value(true)) << json::serialize(canceled);
        EXPECT_EQ(canceled.at("ping_after"), json::value(true));
        EXPECT_EQ(text_of(canceled.at("after")), "still here");
        if (GetParam() == transport::http) EXPECT_EQ(forma_test::mcp_tools::canceled_calls, canceled_before + 1) << "the call ended on the server";
    }());
}

INSTANTIATE_TEST_SUITE_P(Transports, SdkClient, ::testing::Values(transport::stdio, transport::http),
                         [](const auto& info) { return info.param == transport::stdio ? "Stdio" : "StreamableHttp"; });

} // namespace
