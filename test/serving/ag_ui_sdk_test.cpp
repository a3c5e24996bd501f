// forma::serving::ag_ui_endpoint run by @ag-ui/client's HttpAgent (through ag_ui_client.mjs):
// a streamed answer, a typed answer as state, an approval and a question resumed, an aborted run.
#include <forma/serving/ag_ui_endpoint.hpp>

#include "support/approval_agent.hpp"
#include "support/bounded_run.hpp"
#include "support/co_assert.hpp"
#include "support/program_output.hpp"
#include "support/running_server.hpp"
#include "support/trigger_agent.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>

#include <gtest/gtest.h>

namespace ag_ui_sdk_test {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;

using person = forma_test::served_person;

class AgUiClient : public ::testing::Test {
protected:
    void SetUp() override {
        if (std::string(FORMA_NODE).empty()) GTEST_SKIP() << "Node.js is not installed: no AG-UI client";
        ASSERT_TRUE(std::filesystem::exists(std::string(FORMA_NPM_DIR) + "/node_modules/@ag-ui/client"))
            << "the npm packages are missing: run tools/bootstrap";
    }

    // What the client printed for `scenario` against the endpoint at `path`.
    asio::awaitable<json::object> client(const forma_test::running_server& s, std::string path, std::vector<std::string> scenario) {
        std::vector<std::string> argv{FORMA_NODE, FORMA_AG_UI_CLIENT, s.base_url() + path};
        argv.insert(argv.end(), scenario.begin(), scenario.end());
        json::object printed = co_await forma_test::printed_object(std::move(argv), {"FORMA_NPM_DIR=" FORMA_NPM_DIR});
        EXPECT_FALSE(printed.contains("error")) << json::serialize(printed);
        co_return printed;
    }

    void run(asio::awaitable<void> test) { forma_test::run_bounded(io, std::move(test), 60s); }

    asio::io_context io;
};

const json::array& runs_of(const json::object& printed) { return printed.at("runs").as_array(); }

std::vector<std::string> types_of(const json::value& run) {
    std::vector<std::string> out;
    for (const auto& e : run.at("events").as_array()) out.emplace_back(e.at("type").as_string());
    return out;
}

// The text of the messages the client built from the events, by role.
std::string said_by(const json::object& printed, std::string_view role) {
    std::string out;
    for (const auto& m : printed.at("messages").as_array())
        if (m.at("role").as_string() == role && m.as_object().contains("content") && m.at("content").is_string()) out += m.at("content").as_string();
    return out;
}

TEST_F(AgUiClient, RunsAnAgentAndBuildsItsMessages) {
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::ag_ui_endpoint ag_ui(served);
    forma_test::trigger_agent typed_served(io.get_executor());
    forma::serving::ag_ui_endpoint typed(typed_served, {.path = "/typed", .answer_format = forma::response_format::for_type<person>()});
    run([&]() -> asio::awaitable<void> {
        forma::net::http_routes routes = ag_ui.routes();
        routes.add_all(typed.routes());
        forma_test::running_server s(io, std::move(routes));
        const json::object counted = co_await client(s, "/ag-ui", {"run", "count"});
        const json::object state = co_await client(s, "/typed", {"run", "person"});
        const json::object failed = co_await client(s, "/ag-ui", {"run", "fail"});
        co_await s.finish();
        EXPECT_EQ(said_by(counted, "assistant"), "one two three") << json::serialize(counted);
        EXPECT_EQ(said_by(counted, "user"), "count");
        EXPECT_EQ(types_of(runs_of(counted).at(0)).front(), "RUN_STARTED");
        EXPECT_EQ(types_of(runs_of(counted).at(0)).back(), "RUN_FINISHED");
        const json::value ada = json::parse(R"({"name":"Ada","age":36})");
        EXPECT_EQ(state.at("state"), ada) << json::serialize(state);
        EXPECT_EQ(runs_of(state).at(0).at("result"), ada);
        CO_ASSERT_TRUE(failed.contains("runs"));
        const json::value& failure = runs_of(failed).at(0).at("events").as_array().back();
        EXPECT_EQ(failure.at("type"), "RUN_ERROR") << json::serialize(failed);
        EXPECT_EQ(failure.at("message"), "failed on purpose");
    }());
}

TEST_F(AgUiClient, ResumesAnApprovalAndAQuestion) {
    forma_test::approval_agent files(io);
    files.calls().says("Deleted notes.txt");
    forma::serving::ag_ui_endpoint approvals(files.agent);
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::ag_ui_endpoint questions(served, {.path = "/questions"});
    run([&]() -> asio::awaitable<void> {
        forma::net::http_routes routes = approvals.routes();
        routes.add_all(questions.routes());
        forma_test::running_server s(io, std::move(routes));
        const json::object approved = co_await client(s, "/ag-ui", {"resume", "delete notes.txt", "approve"});
        const json::object answered = co_await client(s, "/questions", {"resume", "weather", "Paris"});
        co_await s.finish();
        CO_ASSERT_TRUE(runs_of(approved).size() == 2);
        const json::array& interrupts = runs_of(approved).at(0).at("interrupts").as_array();
        CO_ASSERT_TRUE(interrupts.size() == 1);
        EXPECT_EQ(interrupts.at(0).at("toolCallId"), "call-1");
        EXPECT_TRUE(runs_of(approved).at(1).at("interrupts").as_array().empty()) << "answered";
        EXPECT_EQ(files.deleted, std::vector<std::string>{"notes.txt"});
        EXPECT_EQ(said_by(approved, "assistant"), "Deleted notes.txt") << json::serialize(approved);
        EXPECT_EQ(said_by(approved, "tool"), "deleted");
        EXPECT_EQ(said_by(answered, "assistant"), "Which city?Sunny in Paris") << json::serialize(answered);
    }());
}

TEST_F(AgUiClient, AnAbortedRunIsCanceled) {
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::ag_ui_endpoint ag_ui(served);
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, ag_ui.routes());
        const json::object aborted = co_await client(s, "/ag-ui", {"abort", "ticking"});
        asio::steady_timer look(io);
        while (served.canceled() == 0) {
            look.expires_after(5ms);
            co_await look.async_wait(asio::use_awaitable);
        }
        co_await s.finish();
        EXPECT_EQ(served.canceled(), 1) << json::serialize(aborted);
    }());
}

} // namespace ag_ui_sdk_test
