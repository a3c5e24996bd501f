// forma::a2a::server serving an agent, reached by forma's own A2A client and by raw JSON-RPC:
// messages, streams, tasks (background, cancel), questions, approvals, typed answers, errors.
#include <forma/a2a.hpp>
#include <forma/model/awaits_input.hpp>

#include "net/http_client_stub.hpp"
#include "support/approval_agent.hpp"
#include "support/served_agent.hpp"
#include "support/bounded_run.hpp"
#include "support/co_assert.hpp"
#include "support/running_server.hpp"

#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;
using forma_test::running_server;

using person = forma_test::served_person;

void run(asio::io_context& io, asio::awaitable<void> test) { forma_test::run_bounded(io, std::move(test), 30s); }

forma::a2a::agent_options client_options(const running_server& s) {
    return {.base_url = s.base_url(), .poll_interval = 20ms};
}

TEST(A2aServer, TheCardDescribesTheAgent) {
    asio::io_context io;
    forma_test::served_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        forma::a2a::agent remote(io.get_executor(), client_options(s));
        co_await remote.connect();
        const std::string endpoint = s.base_url() + "/a2a";
        co_await s.finish();
        EXPECT_EQ(remote.name(), "Served agent");
        EXPECT_EQ(remote.description(), "Answers by the first word it reads");
        EXPECT_TRUE(remote.card().streaming);
        EXPECT_EQ(remote.card().url, endpoint);
        EXPECT_EQ(remote.card().protocol_version, "0.3.0");
        EXPECT_EQ(remote.card().skills.size(), 1u);
    }());
}

TEST(A2aServer, AQuickRunIsAMessageWholeOrStreamed) {
    asio::io_context io;
    forma_test::served_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        forma::a2a::agent remote(io.get_executor(), client_options(s));
        const auto hello = co_await remote.run("hello there");
        const auto whole = co_await remote.run("count");
        auto stream = remote.run_streaming("count");
        std::vector<forma::agent_response_update> updates;
        while (auto u = co_await stream.next()) updates.push_back(std::move(*u));
        co_await s.finish();
        EXPECT_EQ(hello.text(), "Hello! You said: hello there");
        EXPECT_EQ(whole.text(), "one two three");
        EXPECT_EQ(forma::to_agent_response(updates).text(), whole.text()); // streamed == whole
        EXPECT_GE(updates.size(), 3u) << "the text came in pieces";
    }());
}

TEST(A2aServer, ALongRunIsATaskThatTheClientFollows) {
    asio::io_context io;
    forma_test::served_agent served(io.get_executor());
    forma::a2a::server a2a(served, {.task_after = 50ms});
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        forma::a2a::agent remote(io.get_executor(), client_options(s));
        const auto waited = co_await remote.run("slow 300"); // the client follows the task to its end
        forma::agent_run_options background;
        background.allow_background_responses = true;
        const auto started = co_await remote.run("slow 200", {}, background);
        forma::agent_run_options poll = background;
        poll.continuation_token = started.continuation_token;
        auto resumed = remote.run_streaming("", {}, [&] {
            forma::agent_run_options o;
            o.continuation_token = started.continuation_token;
            return o;
        }());
        std::vector<forma::agent_response_update> updates;
        while (auto u = co_await resumed.next()) updates.push_back(std::move(*u));
        co_await s.finish();
        EXPECT_EQ(waited.text(), "finished after 300 ms");
        EXPECT_TRUE(started.continuation_token.has_value()) << "an unfinished task gives a token";
        EXPECT_EQ(forma::to_agent_response(updates).text(), "finished after 200 ms");
    }());
}

TEST(A2aServer, CancelsARunningTask) {
    asio::io_context io;
    forma_test::served_agent served(io.get_executor());
    forma::a2a::server a2a(served, {.task_after = 50ms});
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        forma::a2a::agent remote(io.get_executor(), client_options(s));
        forma::agent_run_options background;
        background.allow_background_responses = true;
        const auto started = co_await remote.run("forever", {}, background);
        CO_ASSERT_TRUE(started.continuation_token.has_value());
        EXPECT_EQ(a2a.running_tasks(), 1u);
        const auto canceled = co_await remote.cancel(*started.continuation_token);
        const std::size_t running_after = a2a.running_tasks();
        co_await s.finish();
        EXPECT_EQ(canceled.additional_properties.at("a2a.task_state").as_string(), "canceled");
        EXPECT_EQ(running_after, 0u);
    }());
}

TEST(A2aServer, AQuestionWaitsForTheNextMessageInTheSameTask) {
    asio::io_context io;
    forma_test::served_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        forma::a2a::agent remote(io.get_executor(), client_options(s));
        auto session = remote.create_session();
        const auto question = co_await remote.run("weather", session);
        const auto answer = co_await remote.run("Paris", session);
        co_await s.finish();
        EXPECT_EQ(question.text(), "Which city?");
        EXPECT_TRUE(forma::awaits_input(question));
        EXPECT_EQ(answer.text(), "Sunny in Paris");
        EXPECT_EQ(served.runs, 2);
    }());
}

TEST(A2aServer, AFailedRunIsAFailedTask) {
    asio::io_context io;
    forma_test::served_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        forma::a2a::agent remote(io.get_executor(), client_options(s));
        std::string error;
        try {
            (void)co_await remote.run("fail");
        } catch (const forma::a2a::a2a_error& e) {
            error = e.what();
        }
        co_await s.finish();
        EXPECT_NE(error.find("failed on purpose"), std::string::npos) << error;
    }());
}

TEST(A2aServer, ATypedAgentAnswersWithADataPartThatRunTReads) {
    asio::io_context io;
    forma_test::served_agent served(io.get_executor());
    forma::a2a::server a2a(served, {.answer_format = forma::response_format::for_type<person>()});
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        forma::a2a::agent remote(io.get_executor(), client_options(s));
        const auto typed = co_await remote.run<person>("person");
        co_await s.finish();
        EXPECT_EQ(typed.result().name, "Ada");
        EXPECT_EQ(typed.result().age, 36);
        const json::object card = a2a.card("http://x/a2a");
        EXPECT_EQ(card.at("defaultOutputModes").as_array().at(0).as_string(), "application/json");
        EXPECT_EQ(card.at("capabilities").at("extensions").at(0).at("params").at("schema").at("required"),
                  json::parse(R"(["name","age"])"));
    }());
}

TEST(A2aServer, AnApprovalRequestIsInputRequiredAndTheNextMessageDecides) {
    asio::io_context io;
    forma_test::approval_agent files(io);
    files.calls().says("Deleted notes.txt");
    forma::a2a::server a2a(files.agent);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        forma::a2a::agent remote(io.get_executor(), client_options(s));
        auto session = remote.create_session();
        const auto asked = co_await remote.run("delete notes.txt", session);
        const auto done = co_await remote.run("approve", session);
        co_await s.finish();
        EXPECT_TRUE(forma::awaits_input(asked));
        EXPECT_NE(asked.text().find("\"function_approval_request\""), std::string::npos) << asked.text();
        EXPECT_NE(asked.text().find("delete_file"), std::string::npos);
        EXPECT_EQ(files.deleted, std::vector<std::string>{"notes.txt"});
        EXPECT_EQ(done.text(), "Deleted notes.txt");
    }());
}

// Raw JSON-RPC: what a client no one wrote may send.
asio::awaitable<json::value> post(unsigned short port, std::string body, std::string content_type = "application/json",
                                  unsigned* status = nullptr) {
    auto c = co_await forma_test::raw_http::connection::open(port);
    co_await c.send("POST /a2a HTTP/1.1\r\nHost: t\r\nContent-Type: " + content_type + "\r\nContent-Length: " +
                    std::to_string(body.size()) + "\r\n\r\n" + body);
    auto response = co_await c.read();
    if (!response) co_return json::value();
    if (status) *status = response->result_int();
    co_return json::parse(response->body());
}

std::int64_t error_code_of(const json::value& reply) { return reply.at("error").at("code").as_int64(); }

TEST(A2aServer, AnswersMalformedRequestsWithJsonRpcErrors) {
    asio::io_context io;
    forma_test::served_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes(), {.max_body_size = 1000});
        const unsigned short port = s.port();
        const json::value not_json = co_await post(port, "{\"jsonrpc\":");
        const json::value unknown = co_await post(port, R"({"jsonrpc":"2.0","id":1,"method":"tasks/explode","params":{}})");
        const json::value no_task = co_await post(port, R"({"jsonrpc":"2.0","id":"x","method":"tasks/get","params":{"id":"nope"}})");
        const json::value no_message = co_await post(port, R"({"jsonrpc":"2.0","id":2,"method":"message/send","params":{}})");
        const json::value batch = co_await post(port, R"([{"jsonrpc":"2.0","id":1,"method":"tasks/get"}])");
        unsigned wrong_type_status = 0, too_big_status = 0;
        const json::value wrong_type = co_await post(port, "{}", "text/plain", &wrong_type_status);
        const json::value too_big = co_await post(port, std::string(2000, ' '), "application/json", &too_big_status);
        const json::value sent = co_await post(port, R"({"jsonrpc":"2.0","id":3,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"hello"}]}}})");
        co_await s.finish();
        EXPECT_EQ(error_code_of(not_json), -32700);
        EXPECT_EQ(error_code_of(unknown), -32601);
        EXPECT_EQ(error_code_of(no_task), -32001);
        EXPECT_EQ(no_task.at("id").as_string(), "x");
        EXPECT_EQ(error_code_of(no_message), -32602);
        EXPECT_EQ(error_code_of(batch), -32600);
        EXPECT_EQ(wrong_type_status, 415u);
        EXPECT_EQ(error_code_of(wrong_type), -32600);
        EXPECT_EQ(too_big_status, 413u);
        EXPECT_EQ(error_code_of(too_big), -32600);
        EXPECT_EQ(sent.at("result").at("kind").as_string(), "message");
        EXPECT_EQ(sent.at("result").at("parts").at(0).at("text").as_string(), "Hello! You said: hello");
    }());
}

TEST(A2aServer, AFinishedTaskCannotBeCanceled) {
    asio::io_context io;
    forma_test::served_agent served(io.get_executor());
    forma::a2a::server a2a(served, {.task_after = 0ms});
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const json::value started = co_await post(s.port(), R"({"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"fail"}]}}})");
        const std::string id(started.at("result").at("id").as_string());
        const json::value got = co_await post(s.port(), R"({"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"id":")" + id + R"("}})");
        const json::value refused = co_await post(s.port(), R"({"jsonrpc":"2.0","id":3,"method":"tasks/cancel","params":{"id":")" + id + R"("}})");
        co_await s.finish();
        EXPECT_EQ(started.at("result").at("kind").as_string(), "task");
        EXPECT_EQ(got.at("result").at("status").at("state").as_string(), "failed");
        EXPECT_EQ(got.at("result").at("status").at("message").at("parts").at(0).at("text").as_string(), "failed on purpose");
        EXPECT_EQ(error_code_of(refused), -32002);
    }());
}

} // namespace
