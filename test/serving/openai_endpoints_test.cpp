// forma::serving::openai_endpoints reached by forma's own OpenAI clients (Chat Completions and
// Responses: whole, streamed, typed, background, canceled, resumed) and by raw requests; the
// shapes it writes checked against OpenAI's definitions (../shared/openai/validate.py).
#include <forma/agent/chat_client_agent.hpp>
#include <forma/openai.hpp>
#include <forma/serving/openai_endpoints.hpp>

#include "net/http_client_stub.hpp"
#include "support/bounded_run.hpp"
#include "support/running_server.hpp"
#include "support/served_agent.hpp"

#include <boost/describe/class.hpp>
#include <boost/json/parse.hpp>

#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;
using forma_test::running_server;

struct person {
    std::string name;
    int age;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age))

void run(asio::io_context& io, asio::awaitable<void> test) { forma_test::run_bounded(io, std::move(test), 30s); }

forma::openai::client_options client_options(const running_server& s) {
    forma::openai::client_options o;
    o.base_url = s.base_url() + "/v1";
    o.api_key = "sk-test";
    o.model = "forma";
    o.retry.max_retries = 0;
    return o;
}

std::string text_of(std::vector<forma::agent_response_update> updates) { return forma::to_agent_response(updates).text(); }

TEST(OpenaiEndpoints, ChatCompletionsWholeStreamedAndTyped) {
    asio::io_context io;
    forma_test::served_agent served(io.get_executor());
    forma::serving::openai_endpoints endpoints(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes());
        forma::openai::chat_client model(io.get_executor(), client_options(s));
        forma::chat_client_agent agent(model, {.name = "caller"});
        const auto whole = co_await agent.run("count");
        auto stream = agent.run_streaming("count");
        std::vector<forma::agent_response_update> updates;
        while (auto u = co_await stream.next()) updates.push_back(std::move(*u));
        const auto typed = co_await agent.run<person>("person");
        co_await s.finish();
        EXPECT_EQ(whole.text(), "one two three");
        EXPECT_EQ(text_of(updates), whole.text()) << "streamed == whole";
        EXPECT_GE(updates.size(), 3u);
        EXPECT_EQ(typed.result().name, "Ada");
        EXPECT_EQ(typed.result().age, 36);
    }());
}

TEST(OpenaiEndpoints, ResponsesWholeStreamedBackgroundCanceled) {
    asio::io_context io;
    forma_test::served_agent served(io.get_executor());
    forma::serving::openai_endpoints endpoints(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes());
        forma::openai::responses_client model(io.get_executor(), client_options(s));
        forma::chat_client_agent agent(model, {.name = "caller"});
        const auto whole = co_await agent.run("count");
        auto stream = agent.run_streaming("count");
        std::vector<forma::agent_response_update> updates;
        while (auto u = co_await stream.next()) updates.push_back(std::move(*u));
        forma::agent_run_options background;
        background.allow_background_responses = true;
        const auto started = co_await agent.run("slow 200", {}, background);
        forma::agent_run_options poll = background;
        poll.continuation_token = started.continuation_token;
        auto polled = co_await agent.run(std::vector<forma::chat_message>{}, {}, poll);
        while (polled.continuation_token) {
            asio::steady_timer pause(io, 20ms);
            co_await pause.async_wait(asio::use_awaitable);
            poll.continuation_token = polled.continuation_token;
            polled = co_await agent.run(std::vector<forma::chat_message>{}, {}, poll);
        }
        const auto forever = co_await agent.run("forever", {}, background);
        const auto canceled = co_await model.cancel(*forever.continuation_token);
        co_await s.finish();
        EXPECT_EQ(whole.text(), "one two three");
        EXPECT_EQ(text_of(updates), whole.text()) << "streamed == whole";
        EXPECT_TRUE(started.continuation_token.has_value()) << "a background response is queued";
        EXPECT_EQ(polled.text(), "finished after 200 ms");
        EXPECT_FALSE(canceled.continuation_token.has_value());
        EXPECT_EQ(served.runs, 4) << "polls and cancels run nothing";
    }());
}

// Raw requests: the shapes, checked by OpenAI's definitions, and the errors.
asio::awaitable<forma_test::raw_http::response> post(unsigned short port, std::string target, std::string body,
                                                      std::string content_type = "application/json") {
    auto c = co_await forma_test::raw_http::connection::open(port);
    co_await c.send("POST " + target + " HTTP/1.1\r\nHost: t\r\nContent-Type: " + content_type + "\r\nContent-Length: " +
                    std::to_string(body.size()) + "\r\n\r\n" + body);
    auto r = co_await c.read();
    co_return r ? std::move(*r) : forma_test::raw_http::response();
}

asio::awaitable<forma_test::raw_http::response> get(unsigned short port, std::string target) {
    auto c = co_await forma_test::raw_http::connection::open(port);
    co_await c.send(forma_test::raw_http::get(target));
    auto r = co_await c.read();
    co_return r ? std::move(*r) : forma_test::raw_http::response();
}

// The data of each event of an SSE body.
std::vector<std::string> event_data(const std::string& body) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while ((at = body.find("data: ", at)) != std::string::npos) {
        const std::size_t end = body.find('\n', at);
        out.push_back(body.substr(at + 6, end - at - 6));
        at = end;
    }
    return out;
}

// Whether validate.py accepts each document as `definition`.
bool valid_as(const std::string& definition, const std::vector<std::string>& documents, std::string& report) {
    std::vector<std::string> files;
    for (std::size_t i = 0; i < documents.size(); ++i) {
        files.push_back(testing::TempDir() + "openai_shape_" + std::to_string(i) + ".json");
        std::ofstream(files.back()) << documents[i];
    }
    std::string command = "python3 " FORMA_OPENAI_VALIDATOR " " + definition;
    for (const auto& f : files) command += " " + f;
    command += " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe)) report += buffer;
    return ::pclose(pipe) == 0;
}

TEST(OpenaiEndpoints, WritesShapesOpenAiDefines) {
    asio::io_context io;
    forma_test::served_agent served(io.get_executor());
    forma::serving::openai_endpoints endpoints(served);
    std::vector<std::string> completions, chunks, responses, events;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes());
        const unsigned short port = s.port();
        completions.push_back((co_await post(port, "/v1/chat/completions", R"({"model":"m","messages":[{"role":"user","content":"hello"}]})")).body());
        const auto streamed = co_await post(port, "/v1/chat/completions",
                                            R"({"model":"m","messages":[{"role":"user","content":"count"}],"stream":true,"stream_options":{"include_usage":true}})");
        for (auto& d : event_data(streamed.body()))
            if (d != "[DONE]") chunks.push_back(d);
        EXPECT_EQ(event_data(streamed.body()).back(), "[DONE]");
        const auto whole = co_await post(port, "/v1/responses", R"({"model":"m","input":"hello","instructions":"be kind"})");
        responses.push_back(whole.body());
        const auto streamed_response = co_await post(port, "/v1/responses", R"({"model":"m","input":"count","stream":true})");
        events = event_data(streamed_response.body());
        const auto queued = co_await post(port, "/v1/responses", R"({"model":"m","input":"slow 50","background":true})");
        responses.push_back(queued.body());
        const std::string id(json::parse(queued.body()).at("id").as_string());
        const auto resumed = co_await get(port, "/v1/responses/" + id + "?stream=true&starting_after=1");
        const auto first_resumed = json::parse(event_data(resumed.body()).front());
        EXPECT_EQ(first_resumed.at("sequence_number").as_int64(), 2) << "the events after 1";
        EXPECT_EQ(json::parse(event_data(resumed.body()).back()).at("type").as_string(), "response.completed");
        responses.push_back((co_await get(port, "/v1/responses/" + id)).body());
        co_await s.finish();
    }());
    std::string report;
    EXPECT_TRUE(valid_as("CreateChatCompletionResponse", completions, report)) << report;
    EXPECT_TRUE(valid_as("CreateChatCompletionStreamResponse", chunks, report)) << report;
    EXPECT_TRUE(valid_as("Response", responses, report)) << report;
    EXPECT_TRUE(valid_as("ResponseStreamEvent", events, report)) << report;
    EXPECT_GE(events.size(), 10u);
}

TEST(OpenaiEndpoints, AnswersBadRequestsInOpenAiErrorShape) {
    asio::io_context io;
    forma_test::served_agent served(io.get_executor());
    forma::serving::openai_endpoints endpoints(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes());
        const unsigned short port = s.port();
        const auto not_json = co_await post(port, "/v1/chat/completions", "{");
        const auto no_messages = co_await post(port, "/v1/chat/completions", R"({"model":"m","messages":[]})");
        const auto client_tools = co_await post(port, "/v1/chat/completions",
                                                R"({"model":"m","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f"}}]})");
        const auto bad_role = co_await post(port, "/v1/chat/completions", R"({"model":"m","messages":[{"role":"wizard","content":"x"}]})");
        const auto failed = co_await post(port, "/v1/chat/completions", R"({"model":"m","messages":[{"role":"user","content":"fail"}]})");
        const auto wrong_type = co_await post(port, "/v1/responses", "{}", "text/plain");
        const auto unknown = co_await get(port, "/v1/responses/resp_nope");
        const auto no_previous = co_await post(port, "/v1/responses", R"({"model":"m","input":"x","previous_response_id":"resp_nope"})");
        const auto models = co_await get(port, "/v1/models");
        co_await s.finish();
        auto error_of = [](const forma_test::raw_http::response& r) { return json::parse(r.body()).at("error"); };
        EXPECT_EQ(not_json.result_int(), 400u);
        EXPECT_EQ(error_of(not_json).at("type").as_string(), "invalid_request_error");
        EXPECT_EQ(no_messages.result_int(), 400u);
        EXPECT_EQ(error_of(no_messages).at("param").as_string(), "messages");
        EXPECT_EQ(error_of(client_tools).at("param").as_string(), "tools");
        EXPECT_EQ(error_of(bad_role).at("param").as_string(), "messages[0].role");
        EXPECT_EQ(failed.result_int(), 500u);
        EXPECT_EQ(error_of(failed).at("message").as_string(), "the agent failed: failed on purpose");
        EXPECT_EQ(wrong_type.result_int(), 415u);
        EXPECT_EQ(unknown.result_int(), 404u);
        EXPECT_EQ(error_of(unknown).at("type").as_string(), "not_found_error");
        EXPECT_EQ(error_of(no_previous).at("param").as_string(), "previous_response_id");
        EXPECT_EQ(json::parse(models.body()).at("data").at(0).at("id").as_string(), "Served agent");
    }());
}

} // namespace
