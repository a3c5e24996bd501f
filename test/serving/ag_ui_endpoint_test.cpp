// forma::serving::ag_ui_endpoint reached by raw requests: the events of text, tool calls,
// typed answers and failures; approvals and questions paused as interrupts and resumed; a
// client that goes away cancels its run; malformed requests get an error with their status.
#include <forma/serving/ag_ui_endpoint.hpp>

#include "net/http_client_stub.hpp"
#include "support/approval_agent.hpp"
#include "support/bounded_run.hpp"
#include "support/co_assert.hpp"
#include "support/gathering_task_store.hpp"
#include "support/running_server.hpp"
#include "support/trigger_agent.hpp"

#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <set>

namespace ag_ui_endpoint_test {

namespace asio = boost::asio;
namespace json = boost::json;
namespace raw_http = forma_test::raw_http;
using namespace std::chrono_literals;
using forma_test::running_server;

using person = forma_test::served_person;

void run(asio::io_context& io, asio::awaitable<void> test) { forma_test::run_bounded(io, std::move(test), 30s); }

std::string run_input(std::string_view text, std::string_view extra = {}) {
    json::object body{{"threadId", "t1"}, {"runId", "r1"},
                      {"messages", json::array{{{"id", "m1"}, {"role", "user"}, {"content", text}}}}};
    std::string out = json::serialize(body);
    if (!extra.empty()) out.insert(out.size() - 1, "," + std::string(extra));
    return out;
}

std::string resume_input(std::string_view interrupt, std::string_view payload, std::string_view status = "resolved") {
    return R"({"threadId":"t1","runId":"r2","messages":[],"resume":[{"interruptId":")" + std::string(interrupt) +
           R"(","status":")" + std::string(status) + R"(","payload":)" + std::string(payload) + "}]}";
}

std::vector<json::object> events_of(const raw_http::response& r) {
    std::vector<json::object> out;
    for (const std::string& d : raw_http::sse_data(r.body())) out.push_back(json::parse(d).as_object());
    return out;
}

std::vector<std::string> types_of(const std::vector<json::object>& events) {
    std::vector<std::string> out;
    for (const auto& e : events) out.emplace_back(e.at("type").as_string());
    return out;
}

std::string text_of(const std::vector<json::object>& events) {
    std::string out;
    for (const auto& e : events)
        if (e.at("type") == "TEXT_MESSAGE_CONTENT") out += e.at("delta").as_string();
    return out;
}

const json::object& last(const std::vector<json::object>& events) { return events.back(); }

TEST(AgUiEndpoint, StreamsARunAsTextMessageEvents) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::ag_ui_endpoint ag_ui(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, ag_ui.routes());
        const auto counted = co_await raw_http::posted(s.port(), "/ag-ui", run_input("count"));
        const auto failed = co_await raw_http::posted(s.port(), "/ag-ui", run_input("fail"));
        co_await s.finish();
        EXPECT_EQ(counted.result_int(), 200u);
        EXPECT_EQ(counted[boost::beast::http::field::content_type], "text/event-stream");
        const auto events = events_of(counted);
        EXPECT_EQ(types_of(events), (std::vector<std::string>{"RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
                                                              "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END",
                                                              "RUN_FINISHED"}));
        EXPECT_EQ(text_of(events), "one two three");
        EXPECT_EQ(events[0].at("threadId"), "t1");
        EXPECT_EQ(events[0].at("runId"), "r1");
        EXPECT_EQ(events[1].at("messageId"), events[5].at("messageId"));
        EXPECT_EQ(last(events).at("outcome").at("type"), "success");
        const auto failure = events_of(failed);
        EXPECT_EQ(last(failure).at("type"), "RUN_ERROR");
        EXPECT_NE(std::string(last(failure).at("message").as_string()).find("failed on purpose"), std::string::npos);
    }());
}

TEST(AgUiEndpoint, ATypedAnswerIsAStateSnapshotAndTheResult) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::ag_ui_endpoint ag_ui(served, {.answer_format = forma::response_format::for_type<person>()});
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, ag_ui.routes());
        const auto r = co_await raw_http::posted(s.port(), "/ag-ui", run_input("person"));
        co_await s.finish();
        const auto events = events_of(r);
        const json::value ada = json::parse(R"({"name":"Ada","age":36})");
        CO_ASSERT_TRUE(events.size() >= 2);
        EXPECT_EQ(events[events.size() - 2].at("type"), "STATE_SNAPSHOT");
        EXPECT_EQ(events[events.size() - 2].at("snapshot"), ada);
        EXPECT_EQ(last(events).at("result"), ada);
    }());
}

TEST(AgUiEndpoint, AnApprovalPausesTheRunAndTheResumeDecides) {
    asio::io_context io;
    forma_test::approval_agent files(io);
    files.calls().says("Deleted notes.txt").calls().says("I did not delete it");
    forma::serving::ag_ui_endpoint ag_ui(files.agent);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, ag_ui.routes());
        const unsigned short port = s.port();
        const auto asked = events_of(co_await raw_http::posted(port, "/ag-ui", run_input("delete notes.txt")));
        const json::object& outcome = last(asked).at("outcome").as_object();
        const std::string interrupt(outcome.at("interrupts").at(0).at("id").as_string());
        const bool deleted_before_answer = !files.deleted.empty();
        const auto approved = events_of(co_await raw_http::posted(port, "/ag-ui", resume_input(interrupt, R"({"approved":true})")));
        const auto again = co_await raw_http::posted(port, "/ag-ui", resume_input(interrupt, R"({"approved":true})"));
        const auto asked_twice = events_of(co_await raw_http::posted(port, "/ag-ui", run_input("delete notes.txt")));
        const std::string second(last(asked_twice).at("outcome").at("interrupts").at(0).at("id").as_string());
        const auto rejected = events_of(co_await raw_http::posted(port, "/ag-ui", resume_input(second, "false")));
        co_await s.finish();

        EXPECT_EQ(types_of(asked), (std::vector<std::string>{"RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "RUN_FINISHED"}));
        EXPECT_EQ(asked[1].at("toolCallName"), "delete_file");
        EXPECT_EQ(json::parse(asked[2].at("delta").as_string()), json::parse(R"({"path":"notes.txt"})"));
        EXPECT_EQ(outcome.at("type"), "interrupt");
        EXPECT_EQ(outcome.at("interrupts").at(0).at("reason"), "tool_approval");
        EXPECT_EQ(outcome.at("interrupts").at(0).at("toolCallId"), "call-1");
        EXPECT_FALSE(deleted_before_answer);

        EXPECT_EQ(files.deleted, std::vector<std::string>{"notes.txt"});
        const auto result = std::find_if(approved.begin(), approved.end(), [](const auto& e) { return e.at("type") == "TOOL_CALL_RESULT"; });
        CO_ASSERT_TRUE(result != approved.end());
        EXPECT_EQ(result->at("toolCallId"), "call-1");
        EXPECT_EQ(result->at("content"), "deleted");
        EXPECT_EQ(text_of(approved), "Deleted notes.txt");
        EXPECT_EQ(last(approved).at("outcome").at("type"), "success");
        EXPECT_EQ(again.result_int(), 409u) << "an interrupt is answered once";

        EXPECT_EQ(text_of(rejected), "I did not delete it");
        EXPECT_EQ(files.deleted.size(), 1u) << "a rejected call does not run";
        const std::string told_model = files.model.requests().back().messages.back().text() +
                                       json::serialize(json::value_from(files.model.requests().back().messages.back().contents));
        EXPECT_NE(told_model.find("rejected"), std::string::npos) << told_model;
    }());
}

TEST(AgUiEndpoint, TwoResumesAtOnceOfOneInterruptRunOnce) {
    asio::io_context io;
    forma_test::approval_agent files(io);
    files.calls().says("Deleted notes.txt");
    auto tasks = std::make_shared<forma_test::gathering_task_store>(io.get_executor());
    forma::serving::ag_ui_endpoint ag_ui(files.agent, {.tasks = tasks});
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, ag_ui.routes());
        const unsigned short port = s.port();
        const auto asked = events_of(co_await raw_http::posted(port, "/ag-ui", run_input("delete notes.txt")));
        const std::string interrupt(last(asked).at("outcome").at("interrupts").at(0).at("id").as_string());
        const std::string resume = resume_input(interrupt, R"({"approved":true})");
        tasks->gather(2); // both resumes read the run as waiting before either acts
        using namespace boost::asio::experimental::awaitable_operators;
        const auto [first, second] = co_await (raw_http::posted(port, "/ag-ui", resume) && raw_http::posted(port, "/ag-ui", resume));
        co_await s.finish();
        const std::multiset<unsigned> statuses{first.result_int(), second.result_int()};
        EXPECT_EQ(statuses, (std::multiset<unsigned>{200u, 409u})) << first.body() << " / " << second.body();
        EXPECT_EQ(files.deleted, std::vector<std::string>{"notes.txt"}) << "the approved call runs once";
    }());
}

TEST(AgUiEndpoint, AQuestionPausesTheRunAndItsAnswerGoesOn) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::ag_ui_endpoint ag_ui(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, ag_ui.routes());
        const unsigned short port = s.port();
        const auto asked = events_of(co_await raw_http::posted(port, "/ag-ui", run_input("weather")));
        const json::object& question = last(asked).at("outcome").at("interrupts").at(0).as_object();
        const auto answered = events_of(co_await raw_http::posted(port, "/ag-ui", resume_input(question.at("id").as_string(), R"("Paris")")));
        const auto asked_again = events_of(co_await raw_http::posted(port, "/ag-ui", run_input("weather")));
        const std::string second(last(asked_again).at("outcome").at("interrupts").at(0).at("id").as_string());
        const auto cancelled = events_of(co_await raw_http::posted(port, "/ag-ui", resume_input(second, "null", "cancelled")));
        co_await s.finish();
        EXPECT_EQ(text_of(asked), "Which city?");
        EXPECT_EQ(question.at("reason"), "input_required");
        EXPECT_EQ(question.at("message"), "Which city?");
        EXPECT_EQ(text_of(answered), "Sunny in Paris");
        EXPECT_EQ(types_of(cancelled), (std::vector<std::string>{"RUN_STARTED", "RUN_FINISHED"}));
        EXPECT_EQ(last(cancelled).at("outcome").at("type"), "cancelled");
        EXPECT_EQ(served.runs, 3) << "a cancelled question runs nothing";
    }());
}

TEST(AgUiEndpoint, AClientThatGoesAwayCancelsItsRun) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::ag_ui_endpoint ag_ui(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, ag_ui.routes());
        {
            auto c = co_await raw_http::connection::open(s.port());
            co_await c.send(raw_http::post("/ag-ui", run_input("ticking")));
            std::string seen;
            char buffer[512];
            while (seen.find("tick") == std::string::npos)
                seen.append(buffer, co_await c.socket().async_read_some(asio::buffer(buffer), asio::use_awaitable));
        } // closed while the run goes on: the server finds out at its next write
        asio::steady_timer look(io);
        while (served.canceled() == 0) {
            look.expires_after(5ms);
            co_await look.async_wait(asio::use_awaitable);
        }
        const bool still_serving = !s.done();
        co_await s.finish();
        EXPECT_EQ(served.canceled(), 1);
        EXPECT_TRUE(still_serving) << "the run ended before the server stopped";
    }());
}

TEST(AgUiEndpoint, RefusesWhatItCannotRun) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::ag_ui_endpoint ag_ui(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, ag_ui.routes());
        const unsigned short port = s.port();
        const auto not_json = co_await raw_http::posted(port, "/ag-ui", "{");
        const auto wrong_type = co_await raw_http::posted(port, "/ag-ui", run_input("hello"), "text/plain");
        const auto no_thread = co_await raw_http::posted(port, "/ag-ui", R"({"runId":"r","messages":[{"id":"m","role":"user","content":"x"}]})");
        const auto tools = co_await raw_http::posted(port, "/ag-ui", run_input("hello", R"("tools":[{"name":"f","description":"d"}])"));
        const auto bad_role = co_await raw_http::posted(port, "/ag-ui", R"({"threadId":"t","runId":"r","messages":[{"id":"m","role":"wizard"}]})");
        const auto unknown = co_await raw_http::posted(port, "/ag-ui", resume_input("nope/x", "true"));
        const auto unknown_without_slash = co_await raw_http::posted(port, "/ag-ui", resume_input("nope", "true"));
        const auto get = co_await raw_http::exchange(port, raw_http::get("/ag-ui"));
        co_await s.finish();
        auto message_of = [](const raw_http::response& r) { return std::string(json::parse(r.body()).at("error").at("message").as_string()); };
        EXPECT_EQ(not_json.result_int(), 400u);
        EXPECT_EQ(wrong_type.result_int(), 415u);
        EXPECT_EQ(no_thread.result_int(), 400u);
        EXPECT_NE(message_of(no_thread).find("threadId"), std::string::npos) << message_of(no_thread);
        EXPECT_EQ(tools.result_int(), 400u);
        EXPECT_NE(message_of(tools).find("tools"), std::string::npos);
        EXPECT_EQ(bad_role.result_int(), 400u);
        EXPECT_NE(message_of(bad_role).find("messages[0].role"), std::string::npos) << message_of(bad_role);
        EXPECT_EQ(unknown.result_int(), 404u);
        EXPECT_EQ(unknown_without_slash.result_int(), 404u) << unknown_without_slash.body();
        EXPECT_EQ(get.result_int(), 405u);
        EXPECT_EQ(served.runs, 0);
    }());
}

} // namespace ag_ui_endpoint_test
