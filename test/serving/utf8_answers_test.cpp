// What the servers write is valid UTF-8 JSON whatever bytes the model's answer held: a tool call
// whose arguments are not UTF-8, asked for approval over A2A, Chat Completions (whole and
// streamed), Responses (whole and streamed) and AG-UI (found by fuzz_ag_ui_server and
// fuzz_openai_server: the arguments went out as they came).
#include <forma/a2a/server.hpp>
#include <forma/serving/ag_ui_endpoint.hpp>
#include <forma/serving/openai_endpoints.hpp>

#include "net/http_client_stub.hpp"
#include "support/approval_agent.hpp"
#include "support/bounded_run.hpp"
#include "support/running_server.hpp"

#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

namespace utf8_answers_test {

namespace asio = boost::asio;
namespace json = boost::json;
namespace raw_http = forma_test::raw_http;
using namespace std::chrono_literals;

// Whether every JSON document of an answer (the body, or each event's data) parses: Boost.JSON's
// parser refuses text that is not UTF-8.
bool parses(const raw_http::response& r) {
    std::vector<std::string> documents = raw_http::sse_data(r.body());
    if (documents.empty()) documents.push_back(r.body());
    for (const std::string& d : documents) {
        if (d == "[DONE]") continue;
        boost::system::error_code ec;
        (void)json::parse(d, ec);
        if (ec) return false;
    }
    return true;
}

TEST(Utf8Answers, AToolCallsArgumentsThatAreNotUtf8GoOutAsValidJson) {
    asio::io_context io;
    forma_test::approval_agent files(io);
    for (int i = 0; i < 6; ++i)
        files.model.add_response(forma::agent_response<>(forma::chat_message(
            forma::chat_role::assistant(), std::vector<forma::content>{forma::function_call_content("call-1", "delete_file", {{"path", "not\xff\xfe utf-8 \xc3"}})})));
    forma::a2a::server a2a(files.agent);
    forma::serving::openai_endpoints openai(files.agent);
    forma::serving::ag_ui_endpoint ag_ui(files.agent);
    forma::net::http_routes routes = a2a.routes();
    routes.add_all(openai.routes()).add_all(ag_ui.routes());
    std::vector<std::pair<std::string, raw_http::response>> answers;
    forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, routes);
        const unsigned short port = s.port();
        const std::string ask = R"({"role":"user","content":"delete it"})";
        answers.emplace_back("A2A", co_await raw_http::posted(port, "/a2a",
            R"({"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"delete it"}]}}})"));
        answers.emplace_back("Chat Completions", co_await raw_http::posted(port, "/v1/chat/completions", R"({"model":"m","messages":[)" + ask + "]}"));
        answers.emplace_back("Chat Completions streamed",
                             co_await raw_http::posted(port, "/v1/chat/completions", R"({"model":"m","stream":true,"messages":[)" + ask + "]}"));
        answers.emplace_back("Responses", co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"delete it"})"));
        answers.emplace_back("Responses streamed", co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"delete it","stream":true})"));
        answers.emplace_back("AG-UI", co_await raw_http::posted(port, "/ag-ui", R"({"threadId":"t","runId":"r","messages":[)" +
                                                                                     std::string(R"({"id":"m","role":"user","content":"delete it"})") + "]}"));
        co_await s.finish();
    }(), 30s);
    ASSERT_EQ(answers.size(), 6u);
    for (const auto& [protocol, answer] : answers) {
        EXPECT_EQ(answer.result_int(), 200u) << protocol << ": " << answer.body();
        EXPECT_TRUE(parses(answer)) << protocol << " wrote what is not UTF-8 JSON: " << answer.body();
        EXPECT_NE(answer.body().find("not\xef\xbf\xbd\xef\xbf\xbd utf-8"), std::string::npos) << protocol << ": " << answer.body();
    }
}

// An answer's text, with bytes that are not UTF-8 and with what JSON escapes, in a whole
// completion (written a piece at a time through a cursor) and a streamed one: each reads back as
// the text with U+FFFD for each byte that does not start a character, and the model's name as given.
TEST(Utf8Answers, AChatCompletionsTextReadsBackAsTheAnswerWithReplacementCharacters) {
    const std::string said = "a \"quote\", a \\ and\na line; not\xff\xfe utf-8 \xc3; caf\xc3\xa9 \xe6\x97\xa5";
    const std::string expected = "a \"quote\", a \\ and\na line; not\xef\xbf\xbd\xef\xbf\xbd utf-8 \xef\xbf\xbd; caf\xc3\xa9 \xe6\x97\xa5";
    asio::io_context io;
    forma_test::approval_agent files(io);
    files.says(said).says(said);
    forma::serving::openai_endpoints openai(files.agent, {.model = "m\xff \"odel\""});
    std::vector<raw_http::response> answers;
    forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, openai.routes());
        const std::string ask = R"({"role":"user","content":"say it"})";
        answers.push_back(co_await raw_http::posted(s.port(), "/v1/chat/completions", R"({"model":"m","messages":[)" + ask + "]}"));
        answers.push_back(co_await raw_http::posted(s.port(), "/v1/chat/completions", R"({"model":"m","stream":true,"messages":[)" + ask + "]}"));
        co_await s.finish();
    }(), 30s);
    ASSERT_EQ(answers.size(), 2u);
    for (const raw_http::response& answer : answers) ASSERT_TRUE(parses(answer)) << answer.body();
    const json::object whole = json::parse(answers[0].body()).as_object();
    EXPECT_EQ(whole.at("choices").at(0).at("message").at("content").as_string(), expected);
    EXPECT_EQ(whole.at("model").as_string(), "m\xef\xbf\xbd \"odel\"");
    std::string streamed;
    for (const std::string& data : raw_http::sse_data(answers[1].body())) {
        if (data == "[DONE]") continue;
        const json::value chunk = json::parse(data);
        if (const json::value* content = chunk.at("choices").at(0).at("delta").as_object().if_contains("content"))
            streamed += content->as_string();
    }
    EXPECT_EQ(streamed, expected);
}

} // namespace utf8_answers_test
