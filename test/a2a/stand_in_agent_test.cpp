// forma::a2a::agent against a stand-in agent that misbehaves (or does not stream): answers with
// another id, too large, not JSON, HTTP errors, task states no one knows.
#include <forma/a2a.hpp>
#include <forma/model/agent_response_builder.hpp>

#include "support/bounded_run.hpp"
#include "support/scripted_http_server.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

namespace asio = boost::asio;
namespace json = boost::json;
using request = forma_test::scripted_http_server::request;
using forma_test::scripted_http_server;

namespace {

// A card naming the stand-in's /rpc, then `answer(method, id)` for each JSON-RPC request.
scripted_http_server::answer_function agent_answering(std::function<std::string(const json::object&)> answer,
                                                      std::string* base_url) {
    return [answer = std::move(answer), base_url](const request& r) -> std::string {
        if (r.method == "GET") {
            const json::object card{{"name", "stand-in"},
                                    {"url", *base_url + "/rpc"},
                                    {"protocolVersion", "0.3.0"},
                                    {"capabilities", {{"streaming", false}}}};
            return scripted_http_server::response(200, "application/json", json::serialize(card));
        }
        return answer(json::parse(r.body).as_object());
    };
}

std::string rpc_result(const json::object& request, json::value result) {
    const json::object response{{"jsonrpc", "2.0"}, {"id", request.at("id")}, {"result", std::move(result)}};
    return scripted_http_server::response(200, "application/json", json::serialize(response));
}

json::value agent_message(const std::string& text) {
    return {{"kind", "message"},
            {"messageId", "m-1"},
            {"role", "agent"},
            {"contextId", "c-1"},
            {"parts", {{{"kind", "text"}, {"text", text}}}}};
}

// What a run against the stand-in threw, or its answer's text.
std::string run_against(std::function<std::string(const json::object&)> answer, bool streaming = false,
                        std::size_t max_message_size = 1024 * 1024) {
    asio::io_context io;
    std::string base;
    scripted_http_server server(io, agent_answering(std::move(answer), &base));
    base = server.url();
    forma::a2a::agent remote(io.get_executor(), {.base_url = base, .max_message_size = max_message_size});
    try {
        if (!streaming) return forma_test::run_bounded(io, remote.run("hi"), std::chrono::seconds(30)).text();
        auto stream = remote.run_streaming("hi");
        return forma_test::run_bounded(
            io,
            [&]() -> asio::awaitable<std::string> {
                forma::agent_response_builder merged;
                while (auto update = co_await stream.next()) merged.add(std::move(*update));
                co_return merged.take().text();
            }(),
            std::chrono::seconds(30));
    } catch (const forma::a2a::a2a_error& e) {
        EXPECT_EQ(e.agent_url(), base);
        return std::string("a2a_error: ") + e.what();
    }
}

} // namespace

TEST(a2a_stand_in, an_agent_that_does_not_stream_streams_its_whole_answer) {
    const auto answer = [](const json::object& r) {
        EXPECT_EQ(r.at("method"), "message/send") << "no message/stream to an agent whose card says it does not stream";
        return rpc_result(r, agent_message("whole"));
    };
    EXPECT_EQ(run_against(answer, true), "whole");
    EXPECT_EQ(run_against(answer, false), "whole");
}

TEST(a2a_stand_in, an_answer_with_another_id_is_an_error) {
    const std::string what = run_against([](const json::object&) {
        const json::object response{{"jsonrpc", "2.0"}, {"id", 7}, {"result", agent_message("x")}};
        return scripted_http_server::response(200, "application/json", json::serialize(response));
    });
    EXPECT_NE(what.find(": answered request 1 with another id (7)"), std::string::npos) << what;
}

TEST(a2a_stand_in, an_answer_past_the_size_limit_is_an_error) {
    const std::string what = run_against(
        [](const json::object& r) { return rpc_result(r, agent_message(std::string(4096, 'x'))); }, false, 1024);
    EXPECT_NE(what.find("its answer could not be read: the response from 127.0.0.1:"), std::string::npos) << what;
    EXPECT_NE(what.find("larger than its limit of 1024 bytes"), std::string::npos) << what;
}

TEST(a2a_stand_in, an_http_error_is_an_error_with_the_agents_words) {
    const std::string what =
        run_against([](const json::object&) { return scripted_http_server::response(503, "text/plain", "overloaded"); });
    EXPECT_NE(what.find("answered message/send with HTTP 503: overloaded"), std::string::npos) << what;
}

TEST(a2a_stand_in, a_body_that_is_not_json_is_an_error) {
    const std::string what =
        run_against([](const json::object&) { return scripted_http_server::response(200, "application/json", "<html>"); });
    EXPECT_NE(what.find("answered message/send with a body that is not JSON: \"<html>\""), std::string::npos) << what;
}

TEST(a2a_stand_in, a_task_state_no_one_knows_is_an_error) {
    const std::string what = run_against([](const json::object& r) {
        return rpc_result(r, {{"kind", "task"}, {"id", "t-1"}, {"contextId", "c-1"}, {"status", {{"state", "frobbing"}}}});
    });
    EXPECT_NE(what.find("the task t-1 is in a state forma does not know: \"frobbing\""), std::string::npos) << what;
}

TEST(a2a_stand_in, a_body_with_bytes_that_are_not_utf8_is_an_error_in_valid_utf8) {
    const std::string what = run_against([](const json::object&) {
        return scripted_http_server::response(200, "application/json", "{\"text\": \"caf\xe9\"}");
    });
    EXPECT_NE(what.find("a body that is not JSON"), std::string::npos) << what;
    EXPECT_EQ(what.find('\xe9'), std::string::npos) << "the message carries no byte that is not UTF-8";
}
