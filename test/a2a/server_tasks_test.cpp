// forma::a2a::server's task methods beyond one task, over raw JSON-RPC: ListTasks (a caller's
// tasks, filtered, paged, checked), the extended card, a finished task that takes no message and
// cannot be followed, a streaming method's errors as events, the card beside the endpoint.
#include <forma/a2a/agent.hpp>
#include <forma/a2a/server.hpp>

#include "a2a/a2a_replies.hpp"
#include "net/http_client_stub.hpp"
#include "support/caller_by_name.hpp"
#include "support/bounded_run.hpp"
#include "support/co_assert.hpp"
#include "support/running_server.hpp"
#include "support/trigger_agent.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <set>

namespace a2a_server_tasks_test {

namespace asio = boost::asio;
namespace json = boost::json;
namespace raw_http = forma_test::raw_http;
using namespace std::chrono_literals;
using forma_test::running_server;

void run(asio::io_context& io, asio::awaitable<void> test) { forma_test::run_bounded(io, std::move(test), 30s); }

using forma_test::caller_by_name;
using forma_test::error_code_of;

asio::awaitable<raw_http::response> exchange(unsigned short port, std::string_view method, std::string_view params,
                                             std::string_view caller = {}, std::string_view version = "1.0") {
    std::string headers = version.empty() ? std::string() : "A2A-Version: " + std::string(version) + "\r\n";
    if (!caller.empty()) headers += "Authorization: " + std::string(caller) + "\r\n";
    const std::string body = R"({"jsonrpc":"2.0","id":1,"method":")" + std::string(method) + R"(","params":)" + std::string(params) + "}";
    co_return co_await raw_http::exchange(port, raw_http::post("/a2a", body, headers));
}

asio::awaitable<json::value> call(unsigned short port, std::string_view method, std::string_view params, std::string_view caller = {},
                                  std::string_view version = "1.0") {
    const raw_http::response r = co_await exchange(port, method, params, caller, version);
    co_return json::parse(r.body());
}

std::string message_params(std::string_view text, std::string_view context_id = "c1", std::string_view task_id = {}) {
    json::object message{{"messageId", "m"}, {"role", "ROLE_USER"}, {"parts", json::array{{{"text", text}}}}, {"contextId", context_id}};
    if (!task_id.empty()) message["taskId"] = task_id;
    return json::serialize(json::object{{"message", std::move(message)}});
}

std::set<std::string> ids_in(const json::value& reply) {
    std::set<std::string> ids;
    for (const json::value& t : reply.at("result").at("tasks").as_array()) ids.insert(std::string(t.at("id").as_string()));
    return ids;
}

TEST(A2aServerTasks, ListsTheCallersTasksFilteredAndAPageAtATime) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes(), {.authenticate = caller_by_name});
        const unsigned short port = s.port();
        for (const char* context : {"c1", "c1", "c2"}) (void)co_await call(port, "SendMessage", message_params("hello", context), "alice");
        (void)co_await call(port, "SendMessage", message_params("fail", "c1"), "alice");
        (void)co_await call(port, "SendMessage", message_params("hello", "c1"), "bob");
        const json::value all = co_await call(port, "ListTasks", "{}", "alice");
        const json::value first = co_await call(port, "ListTasks", R"({"pageSize":3})", "alice");
        const std::string token(first.at("result").at("nextPageToken").as_string());
        const json::value second = co_await call(port, "ListTasks", R"({"pageSize":3,"pageToken":")" + token + "\"}", "alice");
        const json::value in_c2 = co_await call(port, "ListTasks", R"({"contextId":"c2"})", "alice");
        const json::value failed = co_await call(port, "ListTasks", R"({"status":"TASK_STATE_FAILED"})", "alice");
        const json::value rejected = co_await call(port, "ListTasks", R"({"status":"TASK_STATE_REJECTED"})", "alice");
        const json::value recent = co_await call(port, "ListTasks", R"({"statusTimestampAfter":"2000-01-01T00:00:00.5+01:00"})", "alice");
        const json::value future = co_await call(port, "ListTasks", R"({"statusTimestampAfter":"2200-01-01T00:00:00Z"})", "alice");
        const json::value with_artifacts = co_await call(port, "ListTasks", R"({"includeArtifacts":true,"historyLength":0})", "alice");
        const json::value bobs = co_await call(port, "ListTasks", "{}", "bob");
        const json::value nobodys = co_await call(port, "ListTasks", "{}", "carol");
        const json::value legacy = co_await call(port, "tasks/list", "{}", "alice", "");
        co_await s.finish();

        const json::object& listed = all.at("result").as_object();
        EXPECT_EQ(listed.at("totalSize"), 4) << json::serialize(all);
        EXPECT_EQ(listed.at("pageSize"), 4);
        EXPECT_EQ(listed.at("nextPageToken"), "");
        for (const json::value& t : listed.at("tasks").as_array()) {
            EXPECT_FALSE(t.as_object().contains("artifacts")) << "left out unless asked for";
            EXPECT_FALSE(t.as_object().contains("kind")) << "1.0 shapes";
            EXPECT_EQ(t.at("history").as_array().size(), 1u);
        }

        EXPECT_EQ(first.at("result").at("pageSize"), 3);
        EXPECT_EQ(first.at("result").at("totalSize"), 4);
        EXPECT_FALSE(token.empty());
        EXPECT_EQ(second.at("result").at("pageSize"), 1);
        EXPECT_EQ(second.at("result").at("nextPageToken"), "");
        std::set<std::string> paged = ids_in(first);
        paged.merge(ids_in(second));
        EXPECT_EQ(paged, ids_in(all)) << "two pages hold every task once";

        EXPECT_EQ(ids_in(in_c2).size(), 1u);
        EXPECT_EQ(in_c2.at("result").at("tasks").at(0).at("contextId"), "c2");
        EXPECT_EQ(ids_in(failed).size(), 1u);
        EXPECT_EQ(failed.at("result").at("tasks").at(0).at("status").at("state"), "TASK_STATE_FAILED");
        EXPECT_EQ(rejected.at("result").at("totalSize"), 0) << "a state forma never sets matches nothing";
        EXPECT_EQ(ids_in(recent).size(), 4u);
        EXPECT_EQ(future.at("result").at("totalSize"), 0);
        int answers = 0;
        for (const json::value& t : with_artifacts.at("result").at("tasks").as_array()) {
            EXPECT_TRUE(t.at("history").as_array().empty());
            for (const json::value& a : t.at("artifacts").as_array())
                answers += a.at("parts").at(0).at("text") == "Hello! You said: hello" ? 1 : 0;
        }
        EXPECT_EQ(answers, 3) << json::serialize(with_artifacts);
        EXPECT_EQ(ids_in(bobs).size(), 1u) << "a caller finds only its own tasks";
        for (const std::string& id : ids_in(bobs)) EXPECT_EQ(ids_in(all).count(id), 0u);
        EXPECT_EQ(nobodys.at("result"), json::parse(R"({"tasks":[],"nextPageToken":"","pageSize":0,"totalSize":0})"));
        EXPECT_EQ(legacy.at("result").at("tasks").at(0).at("kind"), "task") << "0.3 shapes";
        for (const json::value& t : legacy.at("result").at("tasks").as_array())
            EXPECT_TRUE(t.at("status").at("state") == "completed" || t.at("status").at("state") == "failed") << json::serialize(t);
    }());
}

TEST(A2aServerTasks, RefusesAListingItCannotReadWithInvalidParams) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        std::vector<std::pair<std::string, json::value>> refused;
        for (const char* params : {R"({"pageSize":0})", R"({"pageSize":101})", R"({"pageSize":-1})", R"({"pageSize":"ten"})",
                                   R"({"status":"INVALID_STATUS"})", R"({"statusTimestampAfter":"-1"})", R"({"historyLength":-1})",
                                   R"({"pageToken":"invalid-token-xyz"})", R"({"contextId":7})", R"({"includeArtifacts":"yes"})"})
            refused.emplace_back(params, co_await call(s.port(), "ListTasks", params));
        const json::value biggest = co_await call(s.port(), "ListTasks", R"({"pageSize":100})");
        co_await s.finish();
        for (const auto& [params, reply] : refused) {
            EXPECT_EQ(error_code_of(reply), -32602) << params << " -> " << json::serialize(reply);
            EXPECT_EQ(reply.at("error").at("data").at(0).at("reason"), "INVALID_PARAMS");
        }
        EXPECT_EQ(biggest.at("result").at("pageSize"), 0) << json::serialize(biggest);
    }());
}

// A message into a finished task, or a subscription to one, is an unsupported operation (A2A 1.0
// §3.1.2, §3.1.6); a streaming method says so, as any error of its, in an event.
TEST(A2aServerTasks, AFinishedTaskTakesNoMessageAndCannotBeFollowed) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served, {.task_after = 0ms});
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const json::value failed = co_await call(s.port(), "SendMessage", message_params("fail"));
        const std::string id(failed.at("result").at("task").at("id").as_string());
        const json::value into = co_await call(s.port(), "SendMessage", message_params("more", "c1", id));
        const raw_http::response follow = co_await exchange(s.port(), "SubscribeToTask", R"({"id":")" + id + "\"}");
        const raw_http::response unknown = co_await exchange(s.port(), "SubscribeToTask", R"({"id":"nope"})");
        const raw_http::response bad_stream = co_await exchange(s.port(), "SendStreamingMessage", "{}");
        co_await s.finish();
        EXPECT_EQ(error_code_of(into), -32004) << json::serialize(into);
        EXPECT_EQ(into.at("error").at("data").at(0).at("reason"), "UNSUPPORTED_OPERATION");
        const std::vector<std::pair<const raw_http::response*, std::int64_t>> streams{{&follow, -32004}, {&unknown, -32001}, {&bad_stream, -32602}};
        for (const auto& [r, code] : streams) {
            EXPECT_EQ(r->result_int(), 200u);
            EXPECT_EQ((*r)[boost::beast::http::field::content_type], "text/event-stream");
            const std::vector<std::string> events = raw_http::sse_data(r->body());
            EXPECT_EQ(events.size(), 1u) << r->body();
            CO_ASSERT_TRUE(events.size() == 1);
            EXPECT_EQ(error_code_of(json::parse(events[0])), code) << events[0];
        }
        EXPECT_EQ(served.runs, 1) << "nothing ran again";
    }());
}

TEST(A2aServerTasks, TheCardIsAlsoBesideTheEndpoint) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const auto root = co_await raw_http::exchange(s.port(), raw_http::get("/.well-known/agent-card.json"));
        const auto beside = co_await raw_http::exchange(s.port(), raw_http::get("/a2a/.well-known/agent-card.json"));
        co_await s.finish();
        EXPECT_EQ(beside.result_int(), 200u);
        EXPECT_EQ(json::parse(beside.body()), json::parse(root.body()));
    }());
}

TEST(A2aServerTasks, TheExtendedCardIsForACallerKnownByName) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server plain(served);
    forma::a2a::server extended(served, {.rpc_path = "/extended",
                                         .skills = {{.id = "greet", .name = "Greet", .description = "Says hello"}},
                                         .extended_skills = {{.id = "audit", .name = "Audit", .description = "For partners"}}});
    run(io, [&]() -> asio::awaitable<void> {
        forma::net::http_routes routes = plain.routes();
        forma::net::http_routes more = extended.routes();
        running_server s(io, std::move(more), {.authenticate = caller_by_name});
        running_server p(io, std::move(routes), {.authenticate = caller_by_name});
        const auto post = [&](unsigned short port, std::string_view path, std::string_view method, std::string_view caller,
                              std::string_view version) -> asio::awaitable<json::value> {
            std::string headers = "A2A-Version: " + std::string(version) + "\r\n";
            if (!caller.empty()) headers += "Authorization: " + std::string(caller) + "\r\n";
            const auto r = co_await raw_http::exchange(port, raw_http::post(path, R"({"jsonrpc":"2.0","id":1,"method":")" + std::string(method) + R"(","params":{}})", headers));
            co_return json::parse(r.body());
        };
        const json::value for_alice = co_await post(s.port(), "/extended", "GetExtendedAgentCard", "alice", "1.0");
        const json::value legacy = co_await post(s.port(), "/extended", "agent/getAuthenticatedExtendedCard", "alice", "0.3");
        const json::value anonymous = co_await post(s.port(), "/extended", "GetExtendedAgentCard", "", "1.0");
        const json::value none = co_await post(p.port(), "/a2a", "GetExtendedAgentCard", "alice", "1.0");
        const auto public_card = co_await raw_http::exchange(s.port(), raw_http::get("/.well-known/agent-card.json", "A2A-Version: 1.0\r\n"));
        const auto plain_card = co_await raw_http::exchange(p.port(), raw_http::get("/.well-known/agent-card.json", "A2A-Version: 1.0\r\n"));
        co_await s.finish();
        co_await p.finish();
        const json::value card = json::parse(public_card.body());
        EXPECT_EQ(card.at("capabilities").at("extendedAgentCard"), true);
        EXPECT_EQ(card.at("skills").as_array().size(), 1u) << "the public card keeps the extended skills to itself";
        const json::array& skills = for_alice.at("result").at("skills").as_array();
        EXPECT_EQ(skills.size(), 2u) << json::serialize(for_alice);
        CO_ASSERT_TRUE(skills.size() == 2);
        EXPECT_EQ(skills.at(0).at("id"), "greet");
        EXPECT_EQ(skills.at(1).at("id"), "audit");
        EXPECT_EQ(legacy.at("result").at("supportsAuthenticatedExtendedCard"), true) << json::serialize(legacy);
        EXPECT_EQ(legacy.at("result").at("skills").as_array().size(), 2u);
        EXPECT_EQ(error_code_of(anonymous), -32007);
        EXPECT_EQ(error_code_of(none), -32004);
        EXPECT_FALSE(json::parse(plain_card.body()).at("capabilities").as_object().contains("extendedAgentCard"));
    }());
}

// forma's own client: list_tasks in either version, a page at a time, and a listed task's token
// read back by a run; read_extended_card with the caller's credentials.
TEST(A2aServerTasks, FormasClientListsTasksAndReadsTheExtendedCard) {
    using forma::a2a::protocol_version;
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served, {.extended_skills = {{.id = "audit", .name = "Audit", .description = "For partners"}}});
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes(), {.authenticate = caller_by_name});
        for (const protocol_version version : {protocol_version::v1_0, protocol_version::v0_3}) {
            const std::string who = version == protocol_version::v1_0 ? "alice" : "bob";
            forma::a2a::agent remote(io.get_executor(), {.base_url = s.base_url(), .headers = {{"Authorization", who}}, .speak = version});
            auto session = std::make_shared<forma::agent_session>();
            for (const char* text : {"hello one", "hello two", "fail"}) {
                try {
                    (void)co_await remote.run(std::string(text), session);
                } catch (const forma::a2a::a2a_error&) {
                    // "fail" fails its task, which stays listed
                }
            }
            const forma::a2a::remote_task_page first = co_await remote.list_tasks({.page_size = 2});
            const forma::a2a::remote_task_page second = co_await remote.list_tasks({.page_size = 2, .page_token = first.next_page_token});
            const forma::a2a::remote_task_page failed = co_await remote.list_tasks({.state = "failed", .include_artifacts = true});
            const forma::a2a::remote_task_page one_context =
                co_await remote.list_tasks({.context_id = first.tasks.at(0).context_id, .history_length = 0});
            EXPECT_EQ(first.tasks.size(), 2u);
            EXPECT_EQ(first.total, 3u);
            EXPECT_FALSE(first.next_page_token.empty());
            EXPECT_EQ(second.tasks.size(), 1u);
            EXPECT_TRUE(second.next_page_token.empty());
            CO_ASSERT_TRUE(failed.tasks.size() == 1);
            EXPECT_EQ(failed.tasks[0].state, "failed");
            EXPECT_TRUE(failed.tasks[0].updated.has_value());
            EXPECT_TRUE(failed.tasks[0].raw.contains("artifacts"));
            EXPECT_EQ(one_context.total, 3u) << "one session, one context";
            for (const auto& t : one_context.tasks) EXPECT_TRUE(t.raw.at("history").as_array().empty());
            // A listed completed task's token reads its answer.
            const auto& completed = first.tasks[0].state == "completed" ? first.tasks[0] : first.tasks[1];
            forma::agent_run_options read_back;
            read_back.continuation_token = completed.token;
            const forma::agent_response<> answer = co_await remote.run(std::vector<forma::chat_message>{}, {}, read_back);
            EXPECT_TRUE(answer.text().starts_with("Hello! You said: hello")) << answer.text();

            const forma::a2a::agent_card extended = co_await remote.read_extended_card();
            EXPECT_EQ(extended.skills.size(), 2u);
            EXPECT_EQ(remote.card().skills.size(), 2u) << "the extended card replaces the public one";
            EXPECT_EQ(remote.card().url, s.base_url() + "/a2a");
        }
        co_await s.finish();
    }());
}

} // namespace a2a_server_tasks_test
