// forma::serving::openai_endpoints called by the official `openai` npm package (through
// openai_sdk_client.mjs): chat completions whole, streamed and with a JSON Schema; responses
// whole, streamed, typed, in the background (polled, canceled) and a dropped stream resumed; and
// an agent on Anthropic's Messages API served as an OpenAI model.
#include <forma/agent/chat_client_agent.hpp>
#include <forma/anthropic/messages_client.hpp>
#include <forma/serving/openai_endpoints.hpp>
#include <forma/testing/model_server.hpp>

#include "support/bounded_run.hpp"
#include "support/program_output.hpp"
#include "support/running_server.hpp"
#include "support/trigger_agent.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;

class OpenaiSdk : public ::testing::Test {
protected:
    void SetUp() override {
        if (std::string(FORMA_NODE).empty()) GTEST_SKIP() << "Node.js is not installed: no OpenAI SDK";
        ASSERT_TRUE(std::filesystem::exists(std::string(FORMA_NPM_DIR) + "/node_modules/openai"))
            << "the npm packages are missing: run tools/bootstrap";
    }

    asio::awaitable<json::object> sdk(const forma_test::running_server& s, std::vector<std::string> scenario) {
        std::vector<std::string> argv{FORMA_NODE, FORMA_OPENAI_SDK_CLIENT, s.base_url() + "/v1"};
        argv.insert(argv.end(), scenario.begin(), scenario.end());
        co_return co_await forma_test::printed_object(std::move(argv), {"FORMA_NPM_DIR=" FORMA_NPM_DIR});
    }

    void run(asio::awaitable<void> test) { forma_test::run_bounded(io, std::move(test), 60s); }

    asio::io_context io;
    forma_test::trigger_agent served{io.get_executor()};
    forma::serving::openai_endpoints endpoints{served};
};

TEST_F(OpenaiSdk, ChatCompletions) {
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, endpoints.routes());
        const json::object whole = co_await sdk(s, {"chat", "hello sdk"});
        const json::object streamed = co_await sdk(s, {"chat_stream", "count"});
        const json::object typed = co_await sdk(s, {"chat_schema", "person"});
        const json::object bad = co_await sdk(s, {"chat_bad"});
        co_await s.finish();
        EXPECT_EQ(whole.at("result").at("choices").at(0).at("message").at("content").as_string(), "Hello! You said: hello sdk")
            << json::serialize(whole);
        EXPECT_EQ(streamed.at("text").as_string(), "one two three") << json::serialize(streamed);
        EXPECT_EQ(typed.at("parsed"), json::parse(R"({"name":"Ada","age":36})")) << json::serialize(typed);
        EXPECT_EQ(bad.at("error").at("status").as_int64(), 400) << json::serialize(bad);
        EXPECT_EQ(bad.at("error").at("param").as_string(), "messages");
    }());
}

TEST_F(OpenaiSdk, Responses) {
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, endpoints.routes());
        const json::object whole = co_await sdk(s, {"responses", "hello sdk"});
        const json::object streamed = co_await sdk(s, {"responses_stream", "count"});
        const json::object typed = co_await sdk(s, {"responses_schema", "person"});
        co_await s.finish();
        EXPECT_EQ(whole.at("output_text").as_string(), "Hello! You said: hello sdk") << json::serialize(whole);
        EXPECT_EQ(streamed.at("text").as_string(), "one two three") << json::serialize(streamed);
        EXPECT_EQ(typed.at("parsed"), json::parse(R"({"name":"Ada","age":36})")) << json::serialize(typed);
    }());
}

TEST_F(OpenaiSdk, BackgroundResponsesArePolledCanceledAndResumed) {
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, endpoints.routes());
        const json::object polled = co_await sdk(s, {"background", "slow 200"});
        const json::object canceled = co_await sdk(s, {"background_cancel", "forever"});
        const json::object resumed = co_await sdk(s, {"resume", "count", "4"});
        co_await s.finish();
        EXPECT_EQ(polled.at("created").at("status").as_string(), "queued") << json::serialize(polled);
        EXPECT_EQ(polled.at("final").at("status").as_string(), "completed");
        EXPECT_EQ(polled.at("final").at("output").at(0).at("content").at(0).at("text").as_string(), "finished after 200 ms");
        EXPECT_EQ(canceled.at("cancelled").at("status").as_string(), "cancelled") << json::serialize(canceled);
        EXPECT_EQ(canceled.at("retrieved").at("status").as_string(), "cancelled");
        EXPECT_EQ(resumed.at("text").as_string(), "one two three") << json::serialize(resumed);
        EXPECT_EQ(resumed.at("first").as_array().size(), 4u);
    }());
}

// The served agent runs on the Anthropic client, which the local model server answers over TLS:
// an OpenAI client gets its answers, streamed and typed, from a Messages API model.
TEST_F(OpenaiSdk, AnAgentOnTheMessagesApiIsServedAsAnOpenaiModel) {
    forma::testing::model_server model(io.get_executor(), {.delta_size = 4});
    forma::anthropic::messages_client messages(io.get_executor(), {.base_url = model.base_url(),
                                                                   .model = "claude-local",
                                                                   .trust = {.ca_certificates = model.certificate_pem()}});
    forma::chat_client_agent agent(messages);
    forma::serving::openai_endpoints anthropic_endpoints(agent);
    run([&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, anthropic_endpoints.routes());
        const json::object whole = co_await sdk(s, {"chat", "hello sdk"});
        const json::object streamed = co_await sdk(s, {"chat_stream", "count to three"});
        const json::object typed = co_await sdk(s, {"chat_schema", "Ada Lovelace, 36"});
        co_await s.finish();
        EXPECT_EQ(whole.at("result").at("choices").at(0).at("message").at("content").as_string(), "You said: hello sdk")
            << json::serialize(whole);
        EXPECT_EQ(streamed.at("text").as_string(), "You said: count to three") << json::serialize(streamed);
        EXPECT_EQ(typed.at("parsed").at("age"), 36) << json::serialize(typed);
        EXPECT_TRUE(typed.at("parsed").at("name").is_string()) << json::serialize(typed);
    }());
    const auto requests = model.requests();
    ASSERT_EQ(requests.size(), 3u);
    for (const auto& r : requests) EXPECT_EQ(r.target, "/v1/messages");
    EXPECT_TRUE(json::parse(requests[1].body).at("stream").as_bool());
    EXPECT_EQ(json::parse(requests[2].body).at("output_config").at("format").at("type"), "json_schema");
}

} // namespace
