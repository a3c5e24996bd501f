// forma::a2a::server driven by the official A2A SDK's client (@a2a-js/sdk, through
// sdk_client.mjs): what a client no one here wrote sends and expects. The SDK prints its
// objects in A2A 1.0 form (TASK_STATE_*, parts without "kind"), whatever the wire spoke.
#include <forma/a2a/server.hpp>

#include "a2a_test_agent.hpp"
#include "support/approval_agent.hpp"
#include "support/trigger_agent.hpp"
#include "support/bounded_run.hpp"
#include "support/program_output.hpp"
#include "support/running_server.hpp"

#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;

/// The served agent behind an A2A server and an HTTP server, and the SDK client against them,
/// speaking A2A 1.0 (the SDK's default) or 0.3 (its compat layer, reading the card as 0.3).
class SdkClient : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override { A2A_REQUIRE_TEST_AGENT(); }

    asio::awaitable<json::object> sdk(const forma_test::running_server& s, std::vector<std::string> args) {
        std::vector<std::string> argv{FORMA_NODE, FORMA_A2A_SDK_CLIENT, s.base_url() + "/"};
        argv.insert(argv.end(), args.begin(), args.end());
        std::vector<std::string> env{"FORMA_NPM_DIR=" FORMA_NPM_DIR, "FORMA_SDK_CLIENT_PROTOCOL=" + GetParam()};
        if (GetParam() == "0.3") env.push_back("FORMA_SDK_CLIENT_V03_CARD=1");
        co_return co_await forma_test::printed_object(std::move(argv), std::move(env));
    }

    void run(asio::awaitable<void> test) { forma_test::run_bounded(io, std::move(test), 60s); }

    asio::io_context io;
    forma_test::trigger_agent served{io.get_executor()};
    forma::a2a::server a2a{served, {.task_after = 100ms}};
};

std::string state_of(const json::value& task) { return std::string(task.at("status").at("state").as_string()); }

std::string text_of(const json::value& parts) {
    std::string text;
    for (const auto& p : parts.as_array())
        if (const auto* t = p.as_object().if_contains("text")) text += t->as_string();
    return text;
}

// The answer a send got: a completed Task's artifacts (the server's default), or a Message's parts.
std::string answer_of(const json::value& result) {
    if (const json::value* parts = result.as_object().if_contains("parts")) return text_of(*parts);
    std::string text;
    for (const auto& a : result.at("artifacts").as_array()) text += text_of(a.at("parts"));
    return text;
}

// The answer's text over a stream's artifact updates, and the last state a status update said.
std::pair<std::string, std::string> read_events(const json::value& events) {
    std::string text, last_state;
    for (const auto& e : events.as_array()) {
        const json::object& event = e.as_object();
        if (const auto* a = event.if_contains("artifactUpdate")) text += text_of(a->at("artifact").at("parts"));
        if (const auto* s = event.if_contains("statusUpdate")) last_state = state_of(*s);
        if (const auto* t = event.if_contains("task")) {
            last_state = state_of(*t);
            if (const auto* artifacts = t->as_object().if_contains("artifacts"))
                for (const auto& a : artifacts->as_array()) text += text_of(a.at("parts"));
        }
    }
    return {text, last_state};
}

INSTANTIATE_TEST_SUITE_P(Versions, SdkClient, ::testing::Values("1.0", "0.3"),
                         [](const auto& info) { return info.param == "1.0" ? "A2a1_0" : "A2a0_3"; });

TEST_P(SdkClient, ReadsTheCardAndPicksJsonRpcOfItsVersion) {
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, a2a.routes());
        const json::object out = co_await sdk(s, {"card"});
        co_await s.finish();
        EXPECT_FALSE(out.contains("error")) << json::serialize(out);
        EXPECT_EQ(out.at("card").at("name").as_string(), "Served agent");
        EXPECT_EQ(out.at("transport").at("protocolBinding").as_string(), "JSONRPC");
        EXPECT_EQ(out.at("transport").at("protocolVersion").as_string(), GetParam());
    }());
}

TEST_P(SdkClient, SendsAMessageAndStreamsATask) {
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, a2a.routes());
        const json::object sent = co_await sdk(s, {"send", "hello sdk"});
        const json::object streamed = co_await sdk(s, {"stream", "count"});
        co_await s.finish();
        EXPECT_EQ(answer_of(sent.at("result")), "Hello! You said: hello sdk") << json::serialize(sent);
        const auto [text, state] = read_events(streamed.at("events"));
        EXPECT_EQ(text, "one two three") << json::serialize(streamed);
        EXPECT_EQ(state, "TASK_STATE_COMPLETED");
    }());
}

TEST_P(SdkClient, GetsCancelsAndResubscribesToBackgroundTasks) {
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, a2a.routes());
        const json::object started = co_await sdk(s, {"background", "forever"});
        const std::string id(started.at("result").at("id").as_string());
        const json::object got = co_await sdk(s, {"get", id});
        const json::object canceled = co_await sdk(s, {"cancel", id});
        // Long enough to be running still when the next node process subscribes (a finished task cannot be followed).
        const json::object slow = co_await sdk(s, {"background", "slow 3000"});
        const json::object followed = co_await sdk(s, {"resubscribe", std::string(slow.at("result").at("id").as_string())});
        co_await s.finish();
        EXPECT_EQ(state_of(started.at("result")), "TASK_STATE_WORKING") << json::serialize(started);
        EXPECT_EQ(state_of(got.at("result")), "TASK_STATE_WORKING");
        EXPECT_EQ(state_of(canceled.at("result")), "TASK_STATE_CANCELED") << json::serialize(canceled);
        const auto [text, state] = read_events(followed.at("events"));
        EXPECT_EQ(text, "finished after 3000 ms") << json::serialize(followed);
        EXPECT_EQ(state, "TASK_STATE_COMPLETED");
    }());
}

TEST_P(SdkClient, CancelsAStreamedTask) {
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, a2a.routes());
        const json::object out = co_await sdk(s, {"stream_cancel", "forever"});
        co_await s.finish();
        EXPECT_FALSE(out.contains("error")) << json::serialize(out);
        EXPECT_EQ(read_events(out.at("events")).second, "TASK_STATE_CANCELED") << json::serialize(out);
        EXPECT_EQ(state_of(out.at("cancel")), "TASK_STATE_CANCELED");
    }());
}

TEST_P(SdkClient, AnswersAnInputRequiredTaskInTheSameTask) {
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, a2a.routes());
        const json::object out = co_await sdk(s, {"follow_up", "weather", "Paris"});
        co_await s.finish();
        EXPECT_FALSE(out.contains("error")) << json::serialize(out);
        EXPECT_EQ(state_of(out.at("first")), "TASK_STATE_INPUT_REQUIRED");
        EXPECT_EQ(text_of(out.at("first").at("status").at("message").at("parts")), "Which city?");
        EXPECT_EQ(answer_of(out.at("second")), "Sunny in Paris") << json::serialize(out);
    }());
}

TEST_P(SdkClient, GetsTypedErrors) {
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, a2a.routes());
        const json::object missing = co_await sdk(s, {"get", "no-such-task"});
        const json::object done = co_await sdk(s, {"background", "fail"});
        const json::object refused = co_await sdk(s, {"cancel", std::string(done.at("result").at("id").as_string())});
        co_await s.finish();
        EXPECT_EQ(missing.at("error").at("name").as_string(), "TaskNotFoundError") << json::serialize(missing);
        EXPECT_EQ(missing.at("error").at("code").as_int64(), -32001);
        EXPECT_EQ(state_of(done.at("result")), "TASK_STATE_FAILED");
        EXPECT_EQ(refused.at("error").at("name").as_string(), "TaskNotCancelableError") << json::serialize(refused);
    }());
}

// An approval answered by words that reject, by a data part that approves, and by one that
// names no request the task waits for (refused; the task still waits).
TEST_P(SdkClient, AnswersAnApprovalWithWordsOrADataPart) {
    const std::string reject_words = "no, do not delete notes.txt: it holds the minutes of the board meeting";
    const std::string approve_part = R"([{"data":{"type":"function_approval_response","id":"call-1","approved":true}}])";
    const std::string unknown_part = R"([{"data":{"type":"function_approval_response","id":"call-9","approved":true}}])";
    forma_test::approval_agent files(io);
    files.calls().says("Kept it").calls().says("Deleted it").calls();
    forma::a2a::server approvals(files.agent);
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, approvals.routes());
        const json::object rejected = co_await sdk(s, {"follow_up", "delete notes.txt", reject_words});
        const std::size_t asked_after_rejection = files.model.requests().size();
        const json::object approved = co_await sdk(s, {"follow_up_parts", "delete notes.txt", approve_part});
        const json::object unknown = co_await sdk(s, {"follow_up_parts", "delete notes.txt", unknown_part});
        co_await s.finish();
        EXPECT_FALSE(rejected.contains("error")) << json::serialize(rejected);
        EXPECT_EQ(answer_of(rejected.at("second")), "Kept it") << json::serialize(rejected);
        const auto& seen = files.model.requests().at(asked_after_rejection - 1).messages.back();
        EXPECT_EQ(json::serialize(std::get<forma::function_result_content>(seen.contents.at(0)).result),
                  json::serialize(json::string("rejected: " + reject_words)));
        EXPECT_EQ(answer_of(approved.at("second")), "Deleted it") << json::serialize(approved);
        EXPECT_EQ(files.deleted, std::vector<std::string>{"notes.txt"});
        EXPECT_EQ(unknown.at("error").at("code").as_int64(), -32602) << json::serialize(unknown);
        EXPECT_EQ(state_of(unknown.at("first")), "TASK_STATE_INPUT_REQUIRED");
    }());
}

} // namespace
