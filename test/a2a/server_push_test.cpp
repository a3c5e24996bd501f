// forma::a2a::server's push notifications: configs set, read, listed and deleted in both
// versions; each change of a task's state POSTed to its webhooks (a stand-in receiver on
// loopback) with the config's token and credentials; retries; webhooks at addresses the server
// may not reach are refused; another caller's task is not reached; off by default.
#include <forma/a2a/agent.hpp>
#include <forma/a2a/server.hpp>

#include "a2a/a2a_replies.hpp"
#include "net/http_client_stub.hpp"
#include "support/bounded_run.hpp"
#include "support/caller_by_name.hpp"
#include "support/co_assert.hpp"
#include "support/poll_until.hpp"
#include "support/running_server.hpp"
#include "support/scripted_http_server.hpp"
#include "support/trigger_agent.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <vector>

namespace a2a_server_push_test {

namespace asio = boost::asio;
namespace json = boost::json;
namespace raw_http = forma_test::raw_http;
using namespace std::chrono_literals;
using forma_test::running_server;
using forma_test::scripted_http_server;

void run(asio::io_context& io, asio::awaitable<void> test) { forma_test::run_bounded(io, std::move(test), 30s); }

const std::string ok = scripted_http_server::response(200, "text/plain", "");

// Loopback webhooks (the stand-in receiver's), quick retries.
forma::a2a::push_notification_options loopback_push() {
    return {.enabled = true, .allow_address = [](const asio::ip::address& a) { return a.is_loopback(); }, .retry_after = 10ms};
}

using forma_test::caller_by_name;
using forma_test::error_code_of;
using forma_test::until;

asio::awaitable<json::value> call(unsigned short port, std::string_view method, const json::object& params, std::string_view version = "1.0",
                                  std::string_view caller = {}) {
    std::string headers = "A2A-Version: " + std::string(version) + "\r\n";
    if (!caller.empty()) headers += "Authorization: " + std::string(caller) + "\r\n";
    const json::object request{{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", params}};
    const raw_http::response r = co_await raw_http::exchange(port, raw_http::post("/a2a", json::serialize(request), headers));
    co_return json::parse(r.body());
}

json::object send_params(std::string_view text, json::object configuration = {}) {
    return {{"message", {{"messageId", "m"}, {"role", "ROLE_USER"}, {"parts", json::array{{{"text", text}}}}}},
            {"configuration", std::move(configuration)}};
}

// A webhook that keeps what it was sent and answers with `answer` (200 by default).
struct receiver {
    explicit receiver(asio::io_context& io, std::function<std::string(std::size_t)> answer = {})
        : server(io, [this, answer](const scripted_http_server::request& r) -> scripted_http_server::reply {
              received.push_back(r);
              return answer ? answer(received.size()) : ok;
          }) {}
    std::vector<scripted_http_server::request> received;
    scripted_http_server server;

    /// Whether the last notification it got says the task completed (in either version's naming).
    bool told_completed() const {
        if (received.empty()) return false;
        const std::string& last = received.back().body;
        return last.find("TASK_STATE_COMPLETED") != std::string::npos || last.find("\"completed\"") != std::string::npos;
    }
};

std::string task_id_of(const json::value& sent) { return std::string(sent.at("result").at("task").at("id").as_string()); }

// The tasks whose configs are set after the send run "slow 1000": still running then, however loaded the machine.

TEST(A2aServerPush, NotifiesEachChangeOfATasksStateWithTheConfigsTokenAndCredentials) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served, {.task_after = 0ms, .push_notifications = loopback_push()});
    receiver hook(io);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const unsigned short port = s.port();
        const json::value sent = co_await call(port, "SendMessage", send_params("slow 1000", {{"returnImmediately", true}}));
        const std::string task = task_id_of(sent);
        const json::object config{{"taskId", task}, {"id", "c1"}, {"url", hook.server.url("/hook?from=forma")}, {"token", "tok-1"},
                                  {"authentication", {{"scheme", "Bearer"}, {"credentials", "secret-1"}}}};
        const json::value created = co_await call(port, "CreateTaskPushNotificationConfig", config);
        const json::value got = co_await call(port, "GetTaskPushNotificationConfig", {{"taskId", task}, {"id", "c1"}});
        const json::value listed = co_await call(port, "ListTaskPushNotificationConfigs", {{"taskId", task}});
        co_await until([&] { return hook.told_completed(); });
        const json::value deleted = co_await call(port, "DeleteTaskPushNotificationConfig", {{"taskId", task}, {"id", "c1"}});
        const json::value deleted_again = co_await call(port, "DeleteTaskPushNotificationConfig", {{"taskId", task}, {"id", "c1"}});
        const json::value listed_after = co_await call(port, "ListTaskPushNotificationConfigs", {{"taskId", task}});
        const json::value card = json::parse((co_await raw_http::exchange(port, raw_http::get("/.well-known/agent-card.json", "A2A-Version: 1.0\r\n"))).body());
        co_await s.finish();

        EXPECT_EQ(created.at("result"), config) << "echoed as set";
        EXPECT_EQ(got.at("result"), config);
        EXPECT_EQ(listed.at("result").at("configs"), json::array{config});
        EXPECT_EQ(listed.at("result").at("nextPageToken"), "");
        EXPECT_EQ(deleted.at("result"), json::object());
        EXPECT_EQ(deleted_again.at("result"), json::object()) << "deleting is idempotent";
        EXPECT_TRUE(listed_after.at("result").at("configs").as_array().empty());
        EXPECT_EQ(card.at("capabilities").at("pushNotifications"), true);

        CO_ASSERT_TRUE(hook.received.size() >= 2);
        for (const auto& r : hook.received) {
            EXPECT_EQ(r.target(), "/hook?from=forma");
            EXPECT_TRUE(r.has_header("Authorization: Bearer secret-1")) << r.head;
            EXPECT_TRUE(r.has_header("X-A2A-Notification-Token: tok-1")) << r.head;
        }
        const json::value answer = json::parse(hook.received[hook.received.size() - 2].body);
        const json::value last = json::parse(hook.received.back().body);
        EXPECT_EQ(answer.at("artifactUpdate").at("artifact").at("parts").at(0).at("text"), "finished after 1000 ms") << json::serialize(answer);
        EXPECT_EQ(last.at("statusUpdate").at("taskId").as_string(), task);
        EXPECT_EQ(last.at("statusUpdate").at("status").at("state"), "TASK_STATE_COMPLETED") << json::serialize(last);
        EXPECT_EQ(a2a.push_deliveries().failed, 0u);
    }());
}

// 0.3: a send's configuration.pushNotificationConfig, notifications in 0.3 shapes, the 0.3
// methods' params and results.
TEST(A2aServerPush, ASendsConfigInZeroThreeShapes) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served, {.push_notifications = loopback_push()});
    receiver hook(io);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const unsigned short port = s.port();
        const json::object message{{"kind", "message"}, {"messageId", "m"}, {"role", "user"},
                                   {"parts", json::array{{{"kind", "text"}, {"text", "weather"}}}}};
        const json::object push{{"id", "p1"}, {"url", hook.server.url("/hook")}, {"authentication", {{"schemes", json::array{"Basic"}}, {"credentials", "dXNlcg=="}}}};
        const json::value asked = co_await call(port, "message/send", {{"message", message}, {"configuration", {{"pushNotificationConfig", push}}}}, "0.3");
        const std::string task(asked.at("result").at("id").as_string());
        const json::value got = co_await call(port, "tasks/pushNotificationConfig/get", {{"id", task}, {"pushNotificationConfigId", "p1"}}, "0.3");
        const json::value listed = co_await call(port, "tasks/pushNotificationConfig/list", {{"id", task}}, "0.3");
        // Told of the question, the client answers it, which ends the task; its config still holds.
        co_await until([&] { return !hook.received.empty() && hook.received.back().body.find("input-required") != std::string::npos; });
        json::object answer = message;
        answer["taskId"] = task;
        answer["parts"] = json::array{{{"kind", "text"}, {"text", "Oslo"}}};
        (void)co_await call(port, "message/send", {{"message", answer}}, "0.3");
        co_await until([&] { return hook.told_completed(); });
        const json::value deleted = co_await call(port, "tasks/pushNotificationConfig/delete", {{"id", task}, {"pushNotificationConfigId", "p1"}}, "0.3");
        co_await s.finish();

        EXPECT_EQ(asked.at("result").at("status").at("state"), "input-required");
        EXPECT_EQ(got.at("result"), (json::object{{"taskId", task}, {"pushNotificationConfig", push}})) << json::serialize(got);
        EXPECT_EQ(listed.at("result").as_array().size(), 1u) << json::serialize(listed);
        EXPECT_TRUE(deleted.at("result").is_null());
        std::vector<std::string> kinds_and_states;
        for (const auto& r : hook.received) {
            EXPECT_TRUE(r.has_header("Authorization: Basic dXNlcg==")) << r.head;
            const json::value event = json::parse(r.body);
            const std::string kind(event.at("kind").as_string());
            kinds_and_states.push_back(kind == "status-update" ? std::string(event.at("status").at("state").as_string()) : kind);
        }
        EXPECT_EQ(kinds_and_states.back(), "completed");
        EXPECT_EQ(kinds_and_states.at(kinds_and_states.size() - 2), "artifact-update");
        EXPECT_NE(std::find(kinds_and_states.begin(), kinds_and_states.end(), "input-required"), kinds_and_states.end())
            << "the question is a change of state too";
    }());
}

TEST(A2aServerPush, RetriesWhatMayPassAndGivesUpOnTheRest) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served, {.task_after = 0ms, .push_notifications = loopback_push()});
    // Busy at first (503, then 429), then 200; the other always refuses (400).
    receiver flaky(io, [](std::size_t n) { return n == 1 ? scripted_http_server::response(503, "text/plain", "busy")
                                                  : n == 2 ? scripted_http_server::response(429, "text/plain", "later") : ok; });
    receiver refusing(io, [](std::size_t) { return scripted_http_server::response(400, "text/plain", "no"); });
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const unsigned short port = s.port();
        const json::object to_flaky{{"url", flaky.server.url("/")}};
        const json::value sent = co_await call(port, "SendMessage", send_params("slow 1000", {{"returnImmediately", true}, {"taskPushNotificationConfig", to_flaky}}));
        const std::string task = task_id_of(sent);
        (void)co_await call(port, "CreateTaskPushNotificationConfig", {{"taskId", task}, {"url", refusing.server.url("/")}});
        // The server counts a delivery once it has read the webhook's answer, after the receiver
        // has seen the request: wait for the counts too.
        co_await until([&] {
            return flaky.told_completed() && refusing.told_completed() && a2a.push_deliveries().failed == refusing.received.size() &&
                   a2a.push_deliveries().delivered + 2 == flaky.received.size();
        });
        co_await s.finish();
        // flaky: every notification delivered, the first after two retries; refusing: each tried once.
        CO_ASSERT_TRUE(flaky.received.size() >= 4);
        EXPECT_EQ(a2a.push_deliveries().delivered, flaky.received.size() - 2);
        EXPECT_EQ(flaky.received[0].body, flaky.received[2].body) << "the same notification, tried again";
        EXPECT_EQ(a2a.push_deliveries().failed, refusing.received.size()) << "a 4xx is not tried again";
        EXPECT_GE(refusing.received.size(), 2u);
    }());
}

// A2A 1.0 section 13.2: no webhook to loopback, private or link-local addresses unless the
// operator allows them; a host name is checked on the addresses it resolves to.
TEST(A2aServerPush, RefusesWebhooksAtAddressesItMayNotReach) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served, {.task_after = 0ms, .push_notifications = {.enabled = true, .retry_after = 10ms}});
    receiver hook(io);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const unsigned short port = s.port();
        const std::string task = task_id_of(co_await call(port, "SendMessage", send_params("slow 1000", {{"returnImmediately", true}})));
        std::vector<json::value> refused;
        for (const std::string& url : {hook.server.url("/"), std::string("http://10.1.2.3/hook"), std::string("http://[::1]:9/hook"),
                                      std::string("http://169.254.169.254/latest/meta-data"), std::string("ftp://example.com/"),
                                      std::string("http://[::ffff:127.0.0.1]/")})
            refused.push_back(co_await call(port, "CreateTaskPushNotificationConfig", {{"taskId", task}, {"url", url}}));
        const std::string by_host_name = "http://localhost:" + hook.server.url().substr(hook.server.url().rfind(':') + 1) + "/hook";
        const json::value accepted = co_await call(port, "CreateTaskPushNotificationConfig", {{"taskId", task}, {"url", by_host_name}});
        co_await until([&] { return a2a.push_deliveries().failed >= 1; });
        co_await s.finish();
        for (const json::value& r : refused) EXPECT_EQ(error_code_of(r), -32602) << json::serialize(r);
        EXPECT_TRUE(accepted.as_object().contains("result")) << json::serialize(accepted);
        EXPECT_TRUE(hook.received.empty()) << "localhost resolves to loopback: nothing is sent";
        EXPECT_EQ(a2a.push_deliveries().delivered, 0u);
    }());
    EXPECT_TRUE(forma::a2a::is_public_address(asio::ip::make_address("93.184.216.34")));
    EXPECT_TRUE(forma::a2a::is_public_address(asio::ip::make_address("2606:2800:220:1::1")));
    for (const char* address : {"127.0.0.1", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.1.1", "100.64.0.1",
                                "0.0.0.0", "255.255.255.255", "224.0.0.1", "::1", "::", "fe80::1", "fc00::1", "fd12::1", "::ffff:10.0.0.1"})
        EXPECT_FALSE(forma::a2a::is_public_address(asio::ip::make_address(address))) << address;
}

TEST(A2aServerPush, AnotherCallersTaskIsNotReached) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served, {.push_notifications = loopback_push()});
    receiver hook(io);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes(), {.authenticate = caller_by_name});
        const unsigned short port = s.port();
        const std::string task = task_id_of(co_await call(port, "SendMessage", send_params("hello"), "1.0", "alice"));
        const json::object config{{"taskId", task}, {"id", "c"}, {"url", hook.server.url("/")}};
        const json::value bobs = co_await call(port, "CreateTaskPushNotificationConfig", config, "1.0", "bob");
        const json::value alices = co_await call(port, "CreateTaskPushNotificationConfig", config, "1.0", "alice");
        const json::value bob_reads = co_await call(port, "GetTaskPushNotificationConfig", {{"taskId", task}, {"id", "c"}}, "1.0", "bob");
        const json::value bob_deletes = co_await call(port, "DeleteTaskPushNotificationConfig", {{"taskId", task}, {"id", "c"}}, "1.0", "bob");
        const json::value alice_reads = co_await call(port, "GetTaskPushNotificationConfig", {{"taskId", task}, {"id", "c"}}, "1.0", "alice");
        const json::value missing = co_await call(port, "GetTaskPushNotificationConfig", {{"taskId", task}, {"id", "nope"}}, "1.0", "alice");
        co_await s.finish();
        EXPECT_EQ(error_code_of(bobs), -32001);
        EXPECT_TRUE(alices.as_object().contains("result"));
        EXPECT_EQ(error_code_of(bob_reads), -32001);
        EXPECT_EQ(error_code_of(bob_deletes), -32001);
        EXPECT_EQ(alice_reads.at("result").at("id"), "c") << "Bob's delete reached nothing";
        EXPECT_EQ(error_code_of(missing), -32602);
    }());
}

TEST(A2aServerPush, OffByDefault) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        const unsigned short port = s.port();
        const std::string task = task_id_of(co_await call(port, "SendMessage", send_params("hello")));
        const json::value create = co_await call(port, "CreateTaskPushNotificationConfig", {{"taskId", task}, {"url", "https://example.com/"}});
        const json::value in_send = co_await call(port, "SendMessage", send_params("hello", {{"taskPushNotificationConfig", {{"url", "https://example.com/"}}}}));
        const json::value card = json::parse((co_await raw_http::exchange(port, raw_http::get("/.well-known/agent-card.json", "A2A-Version: 1.0\r\n"))).body());
        co_await s.finish();
        EXPECT_EQ(error_code_of(create), -32003);
        EXPECT_EQ(error_code_of(in_send), -32003);
        EXPECT_EQ(card.at("capabilities").at("pushNotifications"), false);
        EXPECT_EQ(served.runs, 1) << "a send refused for its config runs nothing";
    }());
}

// forma's own client registers, lists and deletes webhooks, in both versions.
TEST(A2aServerPush, FormasClientRegistersWebhooks) {
    using forma::a2a::protocol_version;
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::a2a::server a2a(served, {.task_after = 0ms, .push_notifications = loopback_push()});
    forma::a2a::server without(served, {.task_after = 0ms});
    receiver hook(io);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, a2a.routes());
        running_server plain(io, without.routes());
        for (const protocol_version version : {protocol_version::v1_0, protocol_version::v0_3}) {
            forma::a2a::agent remote(io.get_executor(), {.base_url = s.base_url(), .speak = version});
            forma::agent_run_options background;
            background.allow_background_responses = true;
            const forma::agent_response<> started = co_await remote.run("slow 1000", {}, background);
            CO_ASSERT_TRUE(started.continuation_token.has_value());
            const forma::continuation_token& task = *started.continuation_token;
            const std::size_t before = hook.received.size();
            const forma::a2a::push_notification_config set = co_await remote.set_push_notification(
                task, {.url = hook.server.url("/hook"), .token = "t-1", .scheme = "Bearer", .credentials = "c-1"});
            const std::vector<forma::a2a::push_notification_config> listed = co_await remote.push_notifications(task);
            co_await until([&] { return hook.received.size() > before && hook.told_completed(); });
            co_await remote.delete_push_notification(task, set.id);
            const std::vector<forma::a2a::push_notification_config> after = co_await remote.push_notifications(task);
            EXPECT_FALSE(set.id.empty()) << "the agent names it";
            EXPECT_EQ(set.url, hook.server.url("/hook"));
            EXPECT_EQ(set.scheme, "Bearer");
            EXPECT_EQ(set.credentials, "c-1");
            CO_ASSERT_TRUE(listed.size() == 1);
            EXPECT_EQ(listed[0].id, set.id);
            EXPECT_EQ(listed[0].token, "t-1");
            EXPECT_TRUE(after.empty());
            EXPECT_TRUE(hook.received.back().has_header("Authorization: Bearer c-1"));
        }
        forma::a2a::agent refused(io.get_executor(), {.base_url = plain.base_url()});
        forma::agent_run_options background;
        background.allow_background_responses = true;
        const forma::agent_response<> started = co_await refused.run("slow 100", {}, background);
        CO_ASSERT_TRUE(started.continuation_token.has_value());
        std::optional<std::int64_t> code;
        try {
            (void)co_await refused.set_push_notification(*started.continuation_token, {.url = "https://example.com/hook"});
        } catch (const forma::a2a::a2a_error& e) {
            code = e.code();
        }
        co_await s.finish();
        co_await plain.finish();
        EXPECT_EQ(code, -32003);
    }());
}

} // namespace a2a_server_push_test
