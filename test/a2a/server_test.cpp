// forma::a2a::server serving an agent, reached by forma's own A2A client and by raw JSON-RPC:
// messages, streams, tasks (background, cancel), questions, approvals, typed answers, errors.
#include <forma/a2a.hpp>
#include <forma/agent/in_memory_task_store.hpp>
#include <forma/model/awaits_input.hpp>

#include "a2a/a2a_replies.hpp"
#include "net/http_client_stub.hpp"
#include "support/approval_agent.hpp"
#include "support/trigger_agent.hpp"
#include "support/bounded_run.hpp"
#include "support/co_assert.hpp"
#include "support/gathering_task_store.hpp"
#include "support/running_server.hpp"

#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;
using forma_test::running_server;

using person = forma_test::served_person;

void run(asio::io_context& io, asio::awaitable<void> test) { forma_test::run_bounded(io, std::move(test), 30s); }

using forma::a2a::protocol_version;

// Every test with forma's own client runs in both versions the server speaks.
class A2aServer : public ::testing::TestWithParam<protocol_version> {
protected:
    forma::a2a::agent_options client_options(const running_server& s) const {
        return {.base_url = s.base_url(), .poll_interval = 20ms, .speak = GetParam()};
    }
};

INSTANTIATE_TEST_SUITE_P(Versions, A2aServer, ::testing::Values(protocol_version::v1_0, protocol_version::v0_3),
                         [](const auto& info) { return info.param == protocol_version::v1_0 ? "A2a1_0" : "A2a0_3"; });

TEST_P(A2aServer, TheCardDescribesTheAgent) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
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
        EXPECT_EQ(remote.card().spoken_version, GetParam());
        EXPECT_EQ(remote.card().skills.size(), 1u);
    }());
}

TEST_P(A2aServer, AQuickRunIsAMessageWholeOrStreamed) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
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

TEST_P(A2aServer, ALongRunIsATaskThatTheClientFollows) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
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

TEST_P(A2aServer, CancelsARunningTask) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
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

TEST_P(A2aServer, AQuestionWaitsForTheNextMessageInTheSameTask) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
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

TEST_P(A2aServer, AFailedRunIsAFailedTask) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
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

TEST_P(A2aServer, ATypedAgentAnswersWithADataPartThatRunTReads) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
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

TEST_P(A2aServer, AnApprovalRequestIsInputRequiredAndTheNextMessageDecides) {
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

// Two first runs of one client at once read the agent's card once (a second read replaced the
// connection pool under the first run's request).
TEST(A2aServerWire, TwoFirstRunsAtOnceReadTheCardOnce) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    const forma::net::http_routes served_routes = a2a.routes();
    const forma::net::route_handler card = *served_routes.find("GET", "/.well-known/agent-card.json").handler;
    int card_reads = 0;
    forma::net::http_routes routes;
    routes.add("GET", "/.well-known/agent-card.json", [&](forma::net::server_request& r, forma::net::response_writer& w) -> asio::awaitable<void> {
        ++card_reads;
        co_await card(r, w);
    });
    routes.add_all(served_routes);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, routes);
        forma::a2a::agent remote(io.get_executor(), {.base_url = s.base_url()});
        using namespace boost::asio::experimental::awaitable_operators;
        const auto [first, second] = co_await (remote.run("hello one") && remote.run("hello two"));
        co_await s.finish();
        EXPECT_EQ(card_reads, 1);
        EXPECT_EQ(first.text(), "Hello! You said: hello one");
        EXPECT_EQ(second.text(), "Hello! You said: hello two");
    }());
}

// Raw JSON-RPC: what a client no one wrote may send.
asio::awaitable<json::value> post(unsigned short port, std::string body, std::string content_type = "application/json",
                                  unsigned* status = nullptr) {
    auto c = co_await forma_test::raw_http::connection::open(port);
    co_await c.send("POST /a2a HTTP/1.1\r\nHost: localhost\r\nContent-Type: " + content_type + "\r\nContent-Length: " +
                    std::to_string(body.size()) + "\r\n\r\n" + body);
    auto response = co_await c.read();
    if (!response) co_return json::value();
    if (status) *status = response->result_int();
    co_return json::parse(response->body());
}

using forma_test::error_code_of;

TEST(A2aServerWire, AnswersMalformedRequestsWithJsonRpcErrors) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes(), {.max_body_size = 1000});
        const unsigned short port = s.port();
        const json::value not_json = co_await post(port, "{\"jsonrpc\":");
        const json::value unknown = co_await post(port, R"({"jsonrpc":"2.0","id":1,"method":"tasks/explode","params":{}})");
        const json::value no_task = co_await post(port, R"({"jsonrpc":"2.0","id":"x","method":"tasks/get","params":{"id":"nope"}})");
        const json::value no_message = co_await post(port, R"({"jsonrpc":"2.0","id":2,"method":"message/send","params":{}})");
        const json::value batch = co_await post(port, R"([{"jsonrpc":"2.0","id":1,"method":"tasks/get"}])");
        const json::value no_method = co_await post(port, R"({"jsonrpc":"2.0","id":"x"})");
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
        EXPECT_EQ(error_code_of(no_method), -32600);
        EXPECT_EQ(no_method.at("id"), "x") << "an id that can be told is kept (found by fuzz_a2a_server)";
        EXPECT_EQ(wrong_type_status, 415u);
        EXPECT_EQ(error_code_of(wrong_type), -32600);
        EXPECT_EQ(too_big_status, 413u);
        EXPECT_EQ(error_code_of(too_big), -32600);
        EXPECT_EQ(sent.at("result").at("kind").as_string(), "task") << "a completed run answers with its task";
        EXPECT_EQ(sent.at("result").at("status").at("state").as_string(), "completed");
        EXPECT_EQ(sent.at("result").at("artifacts").at(0).at("parts").at(0).at("text").as_string(), "Hello! You said: hello");
    }());
}

// JSON-RPC 2.0 read as it is written: a version other than "2.0", an id neither a string nor an
// integer, params neither an object nor an array, or no id at all is -32600 (not the method's
// -32602 or -32001), with the id when it can be told.
TEST(A2aServerWire, RefusesRequestsThatAreNotJsonRpcTwo) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const unsigned short port = s.port();
        const json::value old_version = co_await post(port, R"({"jsonrpc":"1.0","id":1,"method":"tasks/get","params":{"id":"t"}})");
        const json::value object_id = co_await post(port, R"({"jsonrpc":"2.0","id":{"a":1},"method":"tasks/get","params":{"id":"t"}})");
        const json::value fractional_id = co_await post(port, R"({"jsonrpc":"2.0","id":2.5,"method":"tasks/get","params":{"id":"t"}})");
        const json::value null_id = co_await post(port, R"({"jsonrpc":"2.0","id":null,"method":"tasks/get","params":{"id":"t"}})");
        const json::value no_id = co_await post(port, R"({"jsonrpc":"2.0","method":"tasks/get","params":{"id":"t"}})");
        const json::value string_params = co_await post(port, R"({"jsonrpc":"2.0","id":"p","method":"message/send","params":"hello"})");
        const json::value found = co_await post(port, R"({"jsonrpc":"2.0","id":"f","method":"tasks/get","params":{"id":"t"}})");
        co_await s.finish();
        for (const json::value* refused : {&old_version, &object_id, &fractional_id, &null_id, &no_id, &string_params})
            EXPECT_EQ(error_code_of(*refused), -32600) << json::serialize(*refused);
        EXPECT_EQ(old_version.at("id"), 1);
        EXPECT_EQ(string_params.at("id"), "p");
        EXPECT_TRUE(object_id.at("id").is_null());
        EXPECT_EQ(error_code_of(found), -32001) << "a well-formed request reaches its method";
    }());
}

// An error is a whole answer: the connection carries the next request (found by fuzz_a2a_server:
// the dispatcher ended an error it had sent whole as if it were a stream, which closed the connection).
TEST(A2aServerWire, AnErrorKeepsTheConnectionForTheNextRequest) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        auto c = co_await forma_test::raw_http::connection::open(s.port());
        co_await c.send(forma_test::raw_http::post("/a2a", R"({"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"nope"}})"));
        const auto refused = co_await c.read();
        co_await c.send(forma_test::raw_http::post("/a2a", R"({"jsonrpc":"2.0","id":2,"method":"tasks/explode","params":{}})"));
        const auto second = co_await c.read();
        co_await s.finish();
        CO_ASSERT_TRUE(refused && second);
        EXPECT_EQ(error_code_of(json::parse(refused->body())), -32001);
        EXPECT_EQ(error_code_of(json::parse(second->body())), -32601) << "answered on the same connection";
    }());
}

// A store that must refuse says why, in the request's answer (with its id), and names its limit.
TEST(A2aServerWire, AStoreThatRefusesIsAnErrorWithTheRequestsId) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served, {.task_after = 0ms, .tasks = std::make_shared<forma::in_memory_task_store>(io.get_executor(), 1)});
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const json::value running = co_await post(s.port(), R"({"jsonrpc":"2.0","id":1,"method":"message/send","params":{"configuration":{"blocking":false},"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"forever"}]}}})");
        const json::value refused = co_await post(s.port(), R"({"jsonrpc":"2.0","id":"second","method":"message/send","params":{"message":{"kind":"message","messageId":"n","role":"user","parts":[{"kind":"text","text":"hello"}]}}})");
        (void)co_await post(s.port(), R"({"jsonrpc":"2.0","id":3,"method":"tasks/cancel","params":{"id":")" +
                                          std::string(running.at("result").at("id").as_string()) + R"("}})");
        co_await s.finish();
        EXPECT_EQ(running.at("result").at("status").at("state"), "working") << json::serialize(running);
        EXPECT_EQ(error_code_of(refused), -32603);
        EXPECT_EQ(refused.at("id"), "second");
        EXPECT_NE(std::string(refused.at("error").at("message").as_string()).find("max_tasks 1"), std::string::npos) << json::serialize(refused);
    }());
}

TEST(A2aServerWire, AFinishedTaskCannotBeCanceled) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
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

TEST(A2aServerWire, TwoAnswersAtOnceToOneQuestionRunOnce) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    auto tasks = std::make_shared<forma_test::gathering_task_store>(io.get_executor());
    forma::a2a::server a2a(served, {.tasks = tasks});
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const json::value asked = co_await post(s.port(), R"({"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"weather"}]}}})");
        const std::string answer = R"({"jsonrpc":"2.0","id":2,"method":"message/send","params":{"message":{"kind":"message","messageId":"a","role":"user","taskId":")" +
                                   std::string(asked.at("result").at("id").as_string()) + R"(","parts":[{"kind":"text","text":"Paris"}]}}})";
        tasks->gather(2); // both answers read the task as waiting before either acts
        using namespace boost::asio::experimental::awaitable_operators;
        const auto [first, second] = co_await (post(s.port(), answer) && post(s.port(), answer));
        co_await s.finish();
        EXPECT_NE(first.as_object().contains("result"), second.as_object().contains("result"))
            << "one answer runs, the other is refused: " << json::serialize(first) << " / " << json::serialize(second);
        const json::value& refused = first.as_object().contains("result") ? second : first;
        EXPECT_EQ(error_code_of(refused), -32602);
        EXPECT_EQ(served.runs, 2) << "the question and one answer";
    }());
}

// A2A 1.0 on the wire, as a 1.0 client sends it.
namespace a2a_1_0 {

namespace raw_http = forma_test::raw_http;

asio::awaitable<raw_http::response> exchange(unsigned short port, std::string_view body, std::string_view version = "1.0") {
    const std::string header = version.empty() ? std::string() : "A2A-Version: " + std::string(version) + "\r\n";
    co_return co_await raw_http::exchange(port, raw_http::post("/a2a", body, header));
}

asio::awaitable<json::value> call(unsigned short port, std::string_view body, std::string_view version = "1.0") {
    const raw_http::response r = co_await exchange(port, body, version);
    co_return json::parse(r.body());
}

std::string send_request(std::string_view method, std::string_view text, std::string_view configuration = "{}") {
    return R"({"jsonrpc":"2.0","id":1,"method":")" + std::string(method) +
           R"(","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":")" + std::string(text) +
           R"("}]},"configuration":)" + std::string(configuration) + "}}";
}

std::string reason_of(const json::value& reply) {
    return std::string(reply.at("error").at("data").at(0).at("reason").as_string());
}

TEST(A2aServerWire, ServesTheCardOfTheVersionAskedFor) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const auto modern = co_await raw_http::exchange(s.port(), raw_http::get("/.well-known/agent-card.json", "A2A-Version: 1.0\r\n"));
        const auto legacy = co_await raw_http::exchange(s.port(), raw_http::get("/.well-known/agent-card.json"));
        const std::string reached = s.base_url() + "/a2a";
        co_await s.finish();
        const json::object card_1_0 = json::parse(modern.body()).as_object();
        const json::object card_0_3 = json::parse(legacy.body()).as_object();
        EXPECT_FALSE(card_1_0.contains("url")) << modern.body();
        EXPECT_FALSE(card_1_0.contains("protocolVersion"));
        const json::array& interfaces = card_1_0.at("supportedInterfaces").as_array();
        CO_ASSERT_TRUE(interfaces.size() == 2u);
        EXPECT_EQ(interfaces.at(0).at("protocolVersion").as_string(), "1.0");
        EXPECT_EQ(interfaces.at(0).at("protocolBinding").as_string(), "JSONRPC");
        EXPECT_EQ(interfaces.at(0).at("url").as_string(), reached) << "the address reached, not the Host";
        EXPECT_EQ(interfaces.at(1).at("protocolVersion").as_string(), "0.3");
        EXPECT_EQ(card_0_3.at("protocolVersion").as_string(), "0.3.0");
        EXPECT_EQ(card_0_3.at("url").as_string(), reached);
        EXPECT_EQ(card_0_3.at("supportedInterfaces"), card_1_0.at("supportedInterfaces"));
        EXPECT_EQ(modern[boost::beast::http::field::vary], "A2A-Version");
    }());
}

// The card's URL comes from the server's configuration or the address a client reached, never
// from a Host header the operator did not list: a client cannot make the card send other
// agents elsewhere, nor put bytes that are not UTF-8 into it (such a Host is refused first).
TEST(A2aServerWire, TheCardNamesAHostOnlyWhereTheOperatorListsIt) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server listed(served, {.card_hosts = {"Agents.Example.com:8443"}});
    forma::a2a::server configured(served, {.public_url = "https://agents.example.com/a2a"});
    run(io, [&]() -> asio::awaitable<void> {
        forma::net::server_options any_host; // the server's own Host check let aside: the card's rule is tested
        any_host.origins.allowed_hosts = {"*"};
        running_server by_host(io, listed.routes(), any_host);
        running_server by_url(io, configured.routes(), any_host);
        auto card_for = [](unsigned short port, std::string host) -> asio::awaitable<raw_http::response> {
            co_return co_await raw_http::exchange(port, "GET /.well-known/agent-card.json HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
        };
        const auto hostile = co_await card_for(by_host.port(), "\xff\xfe");
        const auto elsewhere = co_await card_for(by_host.port(), "evil.example.com");
        const auto named = co_await card_for(by_host.port(), "agents.example.com:8443");
        const auto configured_card = co_await card_for(by_url.port(), "evil.example.com");
        const std::string reached = by_host.base_url() + "/a2a";
        co_await by_host.finish();
        co_await by_url.finish();
        boost::system::error_code ec;
        const json::value hostile_answer = json::parse(hostile.body(), ec); // Boost.JSON refuses text that is not UTF-8
        CO_ASSERT_TRUE(!ec);
        EXPECT_EQ(hostile.result_int(), 403u) << "a Host that is no host name is refused, whatever the policy lists";
        EXPECT_FALSE(hostile_answer.as_object().contains("url"));
        EXPECT_EQ(json::parse(elsewhere.body()).at("url").as_string(), reached);
        EXPECT_EQ(json::parse(named.body()).at("url").as_string(), "http://agents.example.com:8443/a2a");
        EXPECT_EQ(json::parse(configured_card.body()).at("url").as_string(), "https://agents.example.com/a2a");
    }());
}

TEST(A2aServerWire, AnswersInOneZeroShapes) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served, {.task_after = 0ms, .answer_with_message = true});
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const unsigned short port = s.port();
        const json::value hello = co_await call(port, send_request("SendMessage", "hello"));
        const json::value by_name = co_await call(port, send_request("SendMessage", "hello"), ""); // no header: the method says 1.0
        const json::value failed = co_await call(port, send_request("SendMessage", "fail"));
        const std::string id(failed.at("result").at("task").at("id").as_string());
        const json::value got = co_await call(port, R"({"jsonrpc":"2.0","id":2,"method":"GetTask","params":{"id":")" + id + R"("}})");
        const json::value no_history = co_await call(port, R"({"jsonrpc":"2.0","id":3,"method":"GetTask","params":{"id":")" + id + R"(","historyLength":0}})");
        const json::value snake = co_await call(port, R"({"jsonrpc":"2.0","id":4,"method":"SendMessage","params":{"message":{"message_id":"m","role":1,"parts":[{"text":"hello snake"}]}}})");
        co_await s.finish();
        const json::object& message = hello.at("result").at("message").as_object();
        EXPECT_FALSE(message.contains("kind")) << json::serialize(hello);
        EXPECT_EQ(message.at("role").as_string(), "ROLE_AGENT");
        EXPECT_EQ(message.at("parts").at(0), json::parse(R"({"text":"Hello! You said: hello"})"));
        EXPECT_EQ(by_name.at("result").at("message").at("role").as_string(), "ROLE_AGENT") << json::serialize(by_name);
        const json::object& task = got.at("result").as_object(); // GetTask's result is the bare task
        EXPECT_FALSE(task.contains("kind"));
        EXPECT_EQ(task.at("status").at("state").as_string(), "TASK_STATE_FAILED") << json::serialize(got);
        EXPECT_EQ(task.at("status").at("message").at("role").as_string(), "ROLE_AGENT");
        EXPECT_EQ(task.at("status").at("message").at("parts").at(0).at("text").as_string(), "failed on purpose");
        EXPECT_EQ(task.at("history").at(0).at("role").as_string(), "ROLE_USER");
        EXPECT_EQ(task.at("history").at(0).at("parts").at(0), json::parse(R"({"text":"fail"})"));
        EXPECT_TRUE(no_history.at("result").at("history").as_array().empty()) << json::serialize(no_history);
        EXPECT_EQ(snake.at("result").at("message").at("parts").at(0).at("text").as_string(), "Hello! You said: hello snake")
            << json::serialize(snake);
    }());
}

TEST(A2aServerWire, StreamsOneZeroEventsThatSayWhatTheyHoldByTheirKey) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const raw_http::response r = co_await exchange(s.port(), send_request("SendStreamingMessage", "count"));
        co_await s.finish();
        std::string text, last_state, keys;
        for (const std::string& data : raw_http::sse_data(r.body())) {
            const json::value reply = json::parse(data);
            const json::object& result = reply.at("result").as_object();
            EXPECT_EQ(result.size(), 1u) << data;
            if (result.empty()) continue;
            const auto& [key, event] = *result.begin();
            keys += std::string(key) + ' ';
            EXPECT_FALSE(event.as_object().contains("kind")) << data;
            EXPECT_FALSE(event.as_object().contains("final")) << data;
            if (key == "artifactUpdate")
                for (const auto& p : event.at("artifact").at("parts").as_array()) text += p.at("text").as_string();
            if (key == "statusUpdate") last_state = event.at("status").at("state").as_string();
        }
        EXPECT_TRUE(keys.starts_with("task artifactUpdate ")) << keys;
        EXPECT_EQ(text, "one two three") << r.body();
        EXPECT_EQ(last_state, "TASK_STATE_COMPLETED");
    }());
}

TEST(A2aServerWire, OneZeroErrorsCarryTheirReasonAndMixedVersionsAreRefused) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const unsigned short port = s.port();
        const json::value missing = co_await call(port, R"({"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"nope"}})");
        const json::value old_name = co_await call(port, send_request("message/send", "hello"));
        const json::value new_name_old_header = co_await call(port, send_request("SendMessage", "hello"), "0.3");
        const json::value future = co_await call(port, send_request("SendMessage", "hello"), "2.0");
        const json::value list = co_await call(port, R"({"jsonrpc":"2.0","id":5,"method":"ListTasks","params":{}})");
        const json::value push = co_await call(port, R"({"jsonrpc":"2.0","id":6,"method":"CreateTaskPushNotificationConfig","params":{"taskId":"t","url":"http://x"}})");
        const json::value legacy_missing = co_await call(port, R"({"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"id":"nope"}})", "");
        co_await s.finish();
        EXPECT_EQ(error_code_of(missing), -32001);
        EXPECT_EQ(reason_of(missing), "TASK_NOT_FOUND") << json::serialize(missing);
        EXPECT_EQ(missing.at("error").at("data").at(0).at("@type").as_string(), "type.googleapis.com/google.rpc.ErrorInfo");
        EXPECT_EQ(error_code_of(old_name), -32601);
        EXPECT_NE(std::string(old_name.at("error").at("message").as_string()).find("SendMessage"), std::string::npos);
        EXPECT_EQ(error_code_of(new_name_old_header), -32601);
        EXPECT_EQ(error_code_of(future), -32009);
        EXPECT_EQ(reason_of(future), "VERSION_NOT_SUPPORTED");
        EXPECT_EQ(list.at("result").at("totalSize"), 0) << json::serialize(list);
        EXPECT_EQ(error_code_of(push), -32003);
        EXPECT_FALSE(legacy_missing.at("error").as_object().contains("data")) << "0.3 errors have no ErrorInfo";
    }());
}

} // namespace a2a_1_0

} // namespace
