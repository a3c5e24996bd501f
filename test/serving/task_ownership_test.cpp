// Tasks belong to the protocol that made them and to the caller that asked: the A2A, OpenAI
// and AG-UI servers of one port share one task store and one session store (as serve_agent
// does), yet an id of one protocol's task is unknown to the others' endpoints, a caller's tasks,
// contexts and MCP sessions are unknown to another caller, and a Responses continuation must
// answer the pending approvals by their call ids.
#include <forma/a2a/server.hpp>
#include <forma/agent/in_memory_session_store.hpp>
#include <forma/agent/in_memory_task_store.hpp>
#include <forma/chat/make_tool.hpp>
#include <forma/mcp/server.hpp>
#include <forma/serving/ag_ui_endpoint.hpp>
#include <forma/serving/openai_endpoints.hpp>

#include "net/http_client_stub.hpp"
#include "support/approval_agent.hpp"
#include "support/bounded_run.hpp"
#include "support/co_assert.hpp"
#include "support/running_server.hpp"
#include "support/trigger_agent.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

namespace task_ownership_test {

namespace asio = boost::asio;
namespace json = boost::json;
namespace raw_http = forma_test::raw_http;
using namespace std::chrono_literals;
using forma_test::running_server;

void run(asio::io_context& io, asio::awaitable<void> test) { forma_test::run_bounded(io, std::move(test), 30s); }

/// Every protocol for one agent on one set of routes, over shared stores.
struct all_protocols {
    all_protocols(asio::io_context& io, forma::agent& agent)
        : tasks(std::make_shared<forma::in_memory_task_store>(io.get_executor())),
          sessions(std::make_shared<forma::in_memory_session_store>(io.get_executor())),
          a2a(agent, {.tasks = tasks, .sessions = sessions}),
          openai(agent, {.tasks = tasks, .sessions = sessions}),
          ag_ui(agent, {.tasks = tasks, .sessions = sessions}),
          mcp(io.get_executor(), {forma::make_tool("ping", "Answers pong", []() { return std::string("pong"); })}) {}

    forma::net::http_routes routes() const {
        forma::net::http_routes all = a2a.routes();
        all.add_all(openai.routes()).add_all(ag_ui.routes()).add_all(mcp.routes());
        return all;
    }

    std::shared_ptr<forma::in_memory_task_store> tasks;
    std::shared_ptr<forma::in_memory_session_store> sessions;
    forma::a2a::server a2a;
    forma::serving::openai_endpoints openai;
    forma::serving::ag_ui_endpoint ag_ui;
    forma::mcp::server mcp;
};

// The caller is what the Authorization header names (a test's stand-in for a real identity).
const forma::net::authenticator by_name = [](const forma::net::server_request& head) -> forma::net::authentication {
    const std::string* who = head.header("Authorization");
    if (!who) return forma::net::access_denied{};
    return forma::net::authentication::let_in(*who);
};

std::string as(std::string_view caller) { return caller.empty() ? "" : "Authorization: " + std::string(caller) + "\r\n"; }

asio::awaitable<json::value> a2a_call(unsigned short port, std::string body, std::string_view caller = {}) {
    const raw_http::response r = co_await raw_http::exchange(port, raw_http::post("/a2a", body, as(caller)));
    co_return json::parse(r.body());
}

std::string a2a_send(std::string_view text, std::string_view context_id = {}, std::string_view task_id = {}) {
    json::object message{{"kind", "message"}, {"messageId", "m"}, {"role", "user"}, {"parts", json::array{{{"kind", "text"}, {"text", text}}}}};
    if (!context_id.empty()) message["contextId"] = context_id;
    if (!task_id.empty()) message["taskId"] = task_id;
    return json::serialize(json::object{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "message/send"}, {"params", {{"message", message}}}});
}

std::string a2a_task_call(std::string_view method, std::string_view id) {
    return R"({"jsonrpc":"2.0","id":2,"method":")" + std::string(method) + R"(","params":{"id":")" + std::string(id) + R"("}})";
}

std::int64_t error_code(const json::value& reply) {
    const json::value* e = reply.as_object().if_contains("error");
    return e ? e->at("code").as_int64() : 0;
}

std::string ag_ui_input(std::string_view text) {
    return json::serialize(json::object{{"threadId", "t"}, {"runId", "r"}, {"messages", json::array{{{"id", "m"}, {"role", "user"}, {"content", text}}}}});
}

std::string ag_ui_resume(std::string_view interrupt) {
    return R"({"threadId":"t","runId":"r2","messages":[],"resume":[{"interruptId":")" + std::string(interrupt) + R"(","status":"resolved","payload":{"approved":true}}]})";
}

// The id of the task an AG-UI run paused in (its interrupt's id is "<task>/<call>").
std::string paused_task(const raw_http::response& r) {
    const std::vector<std::string> events = raw_http::sse_data(r.body());
    const json::value finished = json::parse(events.back());
    const std::string interrupt(finished.at("outcome").at("interrupts").at(0).at("id").as_string());
    return interrupt.substr(0, interrupt.find('/'));
}

TEST(TaskOwnership, AnIdOfOneProtocolsTaskIsUnknownToTheOthers) {
    asio::io_context io;
    forma_test::approval_agent files(io);
    files.calls().calls().calls().says("Deleted notes.txt");
    all_protocols served(io, files.agent);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, served.routes());
        const unsigned short port = s.port();
        // An A2A task and an AG-UI run, each waiting for an approval; a Responses response waiting too.
        const json::value a2a_task = co_await a2a_call(port, a2a_send("delete notes.txt"));
        const std::string a2a_id(a2a_task.at("result").at("id").as_string());
        const std::string ag_ui_id = paused_task(co_await raw_http::posted(port, "/ag-ui", ag_ui_input("delete notes.txt")));
        const auto response = co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"delete notes.txt"})");
        const std::string response_id(json::parse(response.body()).at("id").as_string());

        const auto cancel_a2a = co_await raw_http::posted(port, "/v1/responses/" + a2a_id + "/cancel", "{}");
        const auto get_a2a = co_await raw_http::exchange(port, raw_http::get("/v1/responses/" + a2a_id));
        const auto stream_a2a = co_await raw_http::exchange(port, raw_http::get("/v1/responses/" + a2a_id + "?stream=true"));
        const auto continue_ag_ui = co_await raw_http::posted(
            port, "/v1/responses",
            R"({"model":"m","previous_response_id":")" + ag_ui_id + R"(","input":[{"type":"function_call_output","call_id":"call-1","output":"{\"approved\":true}"}]})");
        const json::value a2a_gets_ag_ui = co_await a2a_call(port, a2a_task_call("tasks/get", ag_ui_id));
        const json::value a2a_gets_response = co_await a2a_call(port, a2a_task_call("tasks/get", response_id));
        const json::value a2a_cancels_response = co_await a2a_call(port, a2a_task_call("tasks/cancel", response_id));
        const json::value a2a_answers_ag_ui = co_await a2a_call(port, a2a_send("approve", "", ag_ui_id));
        const auto ag_ui_resumes_a2a = co_await raw_http::posted(port, "/ag-ui", ag_ui_resume(a2a_id + "/call-1"));
        // Each is still waiting, and its own protocol still answers it.
        const auto resumed = co_await raw_http::posted(port, "/ag-ui", ag_ui_resume(ag_ui_id + "/call-1"));
        const json::value a2a_state = co_await a2a_call(port, a2a_task_call("tasks/get", a2a_id));
        co_await s.finish();

        EXPECT_EQ(cancel_a2a.result_int(), 404u) << cancel_a2a.body();
        EXPECT_EQ(get_a2a.result_int(), 404u);
        EXPECT_EQ(stream_a2a.result_int(), 404u);
        EXPECT_EQ(continue_ag_ui.result_int(), 400u) << continue_ag_ui.body();
        EXPECT_EQ(json::parse(continue_ag_ui.body()).at("error").at("param"), "previous_response_id");
        EXPECT_EQ(error_code(a2a_gets_ag_ui), -32001);
        EXPECT_EQ(error_code(a2a_gets_response), -32001);
        EXPECT_EQ(error_code(a2a_cancels_response), -32001);
        EXPECT_EQ(error_code(a2a_answers_ag_ui), -32001);
        EXPECT_EQ(ag_ui_resumes_a2a.result_int(), 404u) << ag_ui_resumes_a2a.body();
        EXPECT_NE(resumed.body().find("Deleted notes.txt"), std::string::npos) << resumed.body();
        EXPECT_EQ(a2a_state.at("result").at("status").at("state"), "input-required");
        EXPECT_EQ(files.deleted, std::vector<std::string>{"notes.txt"}) << "only the AG-UI run's own resume ran the call";
    }());
}

TEST(TaskOwnership, ACallersTasksContextsAndSessionsAreUnknownToAnotherCaller) {
    asio::io_context io;
    forma_test::trigger_agent agent(io.get_executor());
    all_protocols served(io, agent);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, served.routes(), {.authenticate = by_name});
        const unsigned short port = s.port();
        // Alice's A2A task asks a question; her context's session remembers it.
        const json::value asked = co_await a2a_call(port, a2a_send("weather"), "alice");
        const std::string task_id(asked.at("result").at("id").as_string());
        const std::string context_id(asked.at("result").at("contextId").as_string());
        const json::value bob_gets = co_await a2a_call(port, a2a_task_call("tasks/get", task_id), "bob");
        const json::value bob_cancels = co_await a2a_call(port, a2a_task_call("tasks/cancel", task_id), "bob");
        const json::value bob_answers = co_await a2a_call(port, a2a_send("Oslo", context_id, task_id), "bob");
        // Bob names Alice's context in a message of his own: a conversation of his, not hers.
        const json::value bob_in_her_context = co_await a2a_call(port, a2a_send("Oslo", context_id), "bob");
        const json::value alice_answers = co_await a2a_call(port, a2a_send("Paris", context_id, task_id), "alice");

        const auto stored = co_await raw_http::exchange(port, raw_http::post("/v1/responses", R"({"model":"m","input":"hello","background":true})", as("alice")));
        const std::string response_id(json::parse(stored.body()).at("id").as_string());
        const auto bob_reads = co_await raw_http::exchange(port, raw_http::get("/v1/responses/" + response_id, as("bob")));
        const auto bob_continues = co_await raw_http::exchange(
            port, raw_http::post("/v1/responses", R"({"model":"m","input":"hello","previous_response_id":")" + response_id + R"("})", as("bob")));
        const auto alice_reads = co_await raw_http::exchange(port, raw_http::get("/v1/responses/" + response_id, as("alice")));
        const json::value alice_lists_tasks = co_await a2a_call(port, R"({"jsonrpc":"2.0","id":9,"method":"tasks/list","params":{}})", "alice");
        const json::value bob_lists_tasks = co_await a2a_call(port, R"({"jsonrpc":"2.0","id":9,"method":"tasks/list","params":{}})", "bob");

        const auto initialized = co_await raw_http::exchange(
            port, raw_http::post("/mcp", R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})",
                                 as("alice")));
        const std::string session(initialized["Mcp-Session-Id"]);
        const std::string list = R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})";
        const auto bob_lists = co_await raw_http::exchange(port, raw_http::post("/mcp", list, as("bob") + "Mcp-Session-Id: " + session + "\r\n"));
        const auto alice_lists = co_await raw_http::exchange(port, raw_http::post("/mcp", list, as("alice") + "Mcp-Session-Id: " + session + "\r\n"));
        co_await s.finish();

        EXPECT_EQ(error_code(bob_gets), -32001);
        EXPECT_EQ(error_code(bob_cancels), -32001);
        EXPECT_EQ(error_code(bob_answers), -32001);
        EXPECT_EQ(bob_in_her_context.at("result").at("artifacts").at(0).at("parts").at(0).at("text"), "I do not understand: Oslo")
            << "Bob's message does not continue Alice's conversation: " << json::serialize(bob_in_her_context);
        EXPECT_EQ(alice_answers.at("result").at("artifacts").at(0).at("parts").at(0).at("text"), "Sunny in Paris") << json::serialize(alice_answers);
        EXPECT_EQ(bob_reads.result_int(), 404u);
        EXPECT_EQ(bob_continues.result_int(), 400u);
        EXPECT_EQ(alice_reads.result_int(), 200u);
        const json::array& alices = alice_lists_tasks.at("result").at("tasks").as_array();
        EXPECT_EQ(alices.size(), 1u) << "her A2A task, not her stored response: " << json::serialize(alice_lists_tasks);
        EXPECT_EQ(alices.at(0).at("id").as_string(), task_id);
        EXPECT_EQ(bob_lists_tasks.at("result").at("totalSize"), 1) << "Bob's own message in her context id, only";
        CO_ASSERT_TRUE(!session.empty());
        EXPECT_EQ(bob_lists.result_int(), 404u) << bob_lists.body();
        EXPECT_EQ(alice_lists.result_int(), 200u) << alice_lists.body();
    }());
}

TEST(TaskOwnership, AContinuationAnswersThePendingApprovalsByTheirCallIds) {
    asio::io_context io;
    forma_test::approval_agent files(io);
    files.calls().says("Deleted notes.txt");
    all_protocols served(io, files.agent);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, served.routes());
        const unsigned short port = s.port();
        const auto asked = co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"delete notes.txt"})");
        const std::string previous(json::parse(asked.body()).at("id").as_string());
        auto continuation = [&](std::string input) {
            return R"({"model":"m","previous_response_id":")" + previous + R"(","input":)" + input + "}";
        };
        const auto other_call = co_await raw_http::posted(
            port, "/v1/responses", continuation(R"([{"type":"function_call_output","call_id":"call-9","output":"{\"approved\":true}"}])"));
        const auto no_answer = co_await raw_http::posted(port, "/v1/responses", continuation(R"("go on")"));
        const auto not_a_decision = co_await raw_http::posted(
            port, "/v1/responses", continuation(R"([{"type":"function_call_output","call_id":"call-1","output":"sure"}])"));
        const auto chat_stray = co_await raw_http::posted(
            port, "/v1/chat/completions",
            R"({"model":"m","messages":[{"role":"user","content":"x"},{"role":"tool","tool_call_id":"call-7","content":"{\"approved\":true}"}]})");
        const auto answered = co_await raw_http::posted(
            port, "/v1/responses", continuation(R"([{"type":"function_call_output","call_id":"call-1","output":"{\"approved\":true}"}])"));
        co_await s.finish();
        for (const auto* refused : {&other_call, &no_answer, &not_a_decision}) {
            EXPECT_EQ(refused->result_int(), 400u) << refused->body();
            EXPECT_EQ(json::parse(refused->body()).at("error").at("param"), "input") << refused->body();
        }
        EXPECT_NE(json::parse(other_call.body()).at("error").at("message").as_string().find("call-9"), std::string::npos);
        EXPECT_EQ(chat_stray.result_int(), 400u) << chat_stray.body();
        EXPECT_EQ(json::parse(chat_stray.body()).at("error").at("param"), "messages");
        EXPECT_EQ(answered.result_int(), 200u) << "the refused continuations left the response waiting: " << answered.body();
        EXPECT_EQ(json::parse(answered.body()).at("output").at(0).at("content").at(0).at("text"), "Deleted notes.txt");
        EXPECT_EQ(files.deleted, std::vector<std::string>{"notes.txt"});
    }());
}

} // namespace task_ownership_test
