// forma::serving::openai_endpoints reached by forma's own OpenAI clients (Chat Completions and
// Responses: whole, streamed, typed, background, canceled, resumed) and by raw requests; the
// shapes it writes checked against OpenAI's definitions (../shared/openai/validate.py).
#include <forma/agent/chat_client_agent.hpp>
#include <forma/chat/update_stream.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/openai.hpp>
#include <forma/serving/openai_endpoints.hpp>

#include "net/http_client_stub.hpp"
#include "support/approval_agent.hpp"
#include "support/bounded_run.hpp"
#include "support/gathering_task_store.hpp"
#include "support/running_server.hpp"
#include "support/trigger_agent.hpp"

#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdio>
#include <fstream>
#include <optional>
#include <set>

#include <unistd.h>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;
using forma_test::running_server;
namespace raw_http = forma_test::raw_http;

using person = forma_test::served_person;

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
    forma_test::trigger_agent served(io.get_executor());
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
    forma_test::trigger_agent served(io.get_executor());
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

// Whether validate.py accepts each document as `definition`.
bool valid_as(const std::string& definition, const std::vector<std::string>& documents, std::string& report) {
    std::vector<std::string> files;
    for (std::size_t i = 0; i < documents.size(); ++i) {
        // Named by process: CTest runs this binary's tests in parallel processes.
        files.push_back(testing::TempDir() + "openai_shape_" + std::to_string(::getpid()) + "_" + std::to_string(i) + ".json");
        std::ofstream(files.back()) << documents[i];
    }
    std::string command = "python3 " FORMA_OPENAI_VALIDATOR " " + definition;
    for (const auto& f : files) command += " " + f;
    command += " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe)) report += buffer;
    const bool valid = ::pclose(pipe) == 0;
    for (const auto& f : files) std::remove(f.c_str());
    return valid;
}

TEST(OpenaiEndpoints, WritesShapesOpenAiDefines) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::openai_endpoints endpoints(served);
    std::vector<std::string> completions, chunks, responses, events;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes());
        const unsigned short port = s.port();
        completions.push_back((co_await raw_http::posted(port, "/v1/chat/completions", R"({"model":"m","messages":[{"role":"user","content":"hello"}]})")).body());
        const auto streamed = co_await raw_http::posted(port, "/v1/chat/completions",
                                            R"({"model":"m","messages":[{"role":"user","content":"count"}],"stream":true,"stream_options":{"include_usage":true}})");
        for (auto& d : raw_http::sse_data(streamed.body()))
            if (d != "[DONE]") chunks.push_back(d);
        EXPECT_EQ(raw_http::sse_data(streamed.body()).back(), "[DONE]");
        const auto whole = co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"hello","instructions":"be kind"})");
        responses.push_back(whole.body());
        const auto streamed_response = co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"count","stream":true})");
        events = raw_http::sse_data(streamed_response.body());
        const auto queued = co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"slow 50","background":true})");
        responses.push_back(queued.body());
        const std::string id(json::parse(queued.body()).at("id").as_string());
        const auto resumed = co_await raw_http::exchange(port, raw_http::get("/v1/responses/" + id + "?stream=true&starting_after=1"));
        const auto first_resumed = json::parse(raw_http::sse_data(resumed.body()).front());
        EXPECT_EQ(first_resumed.at("sequence_number").as_int64(), 2) << "the events after 1";
        EXPECT_EQ(json::parse(raw_http::sse_data(resumed.body()).back()).at("type").as_string(), "response.completed");
        responses.push_back((co_await raw_http::exchange(port, raw_http::get("/v1/responses/" + id))).body());
        co_await s.finish();
    }());
    std::string report;
    EXPECT_TRUE(valid_as("CreateChatCompletionResponse", completions, report)) << report;
    EXPECT_TRUE(valid_as("CreateChatCompletionStreamResponse", chunks, report)) << report;
    EXPECT_TRUE(valid_as("Response", responses, report)) << report;
    EXPECT_TRUE(valid_as("ResponseStreamEvent", events, report)) << report;
    EXPECT_GE(events.size(), 10u);
}

// An agent that answers each run with the next of the responses it was given, in turn.
class given_answers_agent final : public forma::agent {
public:
    given_answers_agent(asio::any_io_executor executor, std::vector<forma::agent_response<>> answers)
        : executor_(std::move(executor)), answers_(std::move(answers)) {}
    executor_type get_executor() const override { return executor_; }
    std::string_view id() const noexcept override { return "given-answers"; }
    std::string_view name() const noexcept override { return "given-answers"; }
    std::string_view description() const noexcept override { return ""; }

protected:
    asio::awaitable<forma::agent_response<>> run_core(forma::agent_run) override { co_return next(); }
    forma::update_stream run_streaming_core(forma::agent_run) override { return forma::make_update_stream(executor_, next().to_updates()); }

private:
    forma::agent_response<> next() { return answers_.at(next_++ % answers_.size()); } // in turn, then again
    asio::any_io_executor executor_;
    std::vector<forma::agent_response<>> answers_;
    std::size_t next_ = 0;
};

// A completion's content is the answer's text() (the last author's messages since the last tool
// result, joined by newlines), whether it is one text content, written without a copy, or several;
// streamed, its pieces are joined the same way.
TEST(OpenaiEndpoints, AChatCompletionsContentIsTheAnswersText) {
    using forma::chat_message, forma::chat_role, forma::text_content;
    const auto assistant = [](std::vector<forma::content> contents, std::string author = {}) {
        chat_message m(chat_role::assistant(), std::move(contents));
        m.author_name = std::move(author);
        return m;
    };
    const auto with_id = [](chat_message m, std::string id) { // messages a stream keeps apart, not merged
        m.message_id = std::move(id);
        return m;
    };
    const std::vector<forma::agent_response<>> answers{
        forma::agent_response<>(assistant({text_content("only")})),
        forma::agent_response<>(assistant({text_content("Hel"), text_content("lo")})),
        forma::agent_response<>({with_id(assistant({text_content("first")}), "m1"), with_id(assistant({text_content("second")}), "m2")}),
        forma::agent_response<>({assistant({text_content("before the tool")}),
                                 assistant({forma::function_call_content("c1", "look", {{"q", "x"}})}),
                                 chat_message(chat_role::tool(), {forma::function_result_content("c1", "found")}),
                                 assistant({text_content("after it")})}),
        forma::agent_response<>({assistant({text_content("Draft.")}, "writer"), assistant({text_content("Fine.")}, "reviewer")}),
        forma::agent_response<>({assistant({text_content("")}), assistant({text_content("late")})}),
        forma::agent_response<>(assistant({forma::text_reasoning_content("thinking only")})),
    };
    asio::io_context io;
    given_answers_agent served(io.get_executor(), answers);
    forma::serving::openai_endpoints endpoints(served);
    std::vector<json::value> contents;
    std::vector<std::string> streamed;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes());
        for (std::size_t i = 0; i < answers.size(); ++i) {
            const auto reply = co_await raw_http::posted(s.port(), "/v1/chat/completions", R"({"messages":[{"role":"user","content":"go"}]})");
            contents.push_back(json::parse(reply.body()).at("choices").at(0).at("message").at("content"));
        }
        for (std::size_t i = 0; i < answers.size(); ++i) { // the same answers streamed
            const auto reply =
                co_await raw_http::posted(s.port(), "/v1/chat/completions", R"({"messages":[{"role":"user","content":"go"}],"stream":true})");
            std::string joined;
            for (const std::string& data : raw_http::sse_data(reply.body())) {
                if (data == "[DONE]") continue;
                const json::value chunk = json::parse(data);
                const json::value& delta = chunk.at("choices").at(0).at("delta");
                if (const json::value* piece = delta.as_object().if_contains("content"); piece && piece->is_string()) joined += piece->as_string();
            }
            streamed.push_back(joined);
        }
        co_await s.finish();
    }());
    ASSERT_EQ(contents.size(), answers.size());
    for (std::size_t i = 0; i + 1 < answers.size(); ++i) EXPECT_EQ(contents[i], json::value(answers[i].text())) << "answer " << i;
    EXPECT_EQ(contents[3], json::value("after it"));
    EXPECT_EQ(contents[4], json::value("Fine."));
    EXPECT_TRUE(contents.back().is_null()) << "an answer without text has null content";
    // Streamed, the pieces join as text() joins them. A stream cannot take back what it sent before
    // a tool round or another author's answer: there the answer is what its text ends with.
    ASSERT_EQ(streamed.size(), answers.size());
    for (const std::size_t i : {0, 1, 2, 5, 6}) EXPECT_EQ(streamed[i], answers[i].text()) << "answer " << i << ", streamed";
    EXPECT_EQ(streamed[3], "before the tool\nafter it");
    EXPECT_EQ(streamed[4], "Draft.\nFine.");
}

// An agent that keeps each run's response format and input text, and answers "kept".
class format_keeping_agent final : public forma::agent {
public:
    explicit format_keeping_agent(asio::any_io_executor executor) : executor_(std::move(executor)) {}
    executor_type get_executor() const override { return executor_; }
    std::string_view id() const noexcept override { return "format-keeping"; }
    std::string_view name() const noexcept override { return "format-keeping"; }
    std::string_view description() const noexcept override { return ""; }

    std::vector<std::optional<forma::response_format>> formats;
    std::vector<std::string> inputs;
    std::vector<std::optional<forma::chat_options>> sampling;

protected:
    asio::awaitable<forma::agent_response<>> run_core(forma::agent_run run) override { co_return forma::to_agent_response(keep(run)); }
    forma::update_stream run_streaming_core(forma::agent_run run) override { return forma::make_update_stream(executor_, keep(run)); }

private:
    std::vector<forma::agent_response_update> keep(const forma::agent_run& run) {
        formats.push_back(run.options.response_format);
        sampling.push_back(run.options.chat_options);
        inputs.push_back(run.messages.empty() ? std::string() : run.messages.back().text());
        return {forma::agent_response_update(forma::chat_role::assistant(), "kept")};
    }
    asio::any_io_executor executor_;
};

// A chat completion's body is read in an arena that is gone before its run: the run's format and
// input are its own copies (larger than the arena's first buffer, so that ASan sees any read of it).
TEST(OpenaiEndpoints, ARunKeepsItsFormatAndInputPastTheRequestsBody) {
    asio::io_context io;
    format_keeping_agent served(io.get_executor());
    forma::serving::openai_endpoints endpoints(served);
    json::object properties;
    for (int i = 0; i < 60; ++i) properties["field_" + std::to_string(i)] = {{"type", "string"}, {"description", std::string(40, 'a' + i % 26)}};
    const json::object schema{{"type", "object"}, {"properties", properties}};
    const std::string input(5000, 'q');
    const std::string body = json::serialize(json::object{
        {"model", "m"},
        {"messages", json::array{json::object{{"role", "user"}, {"content", input}}}},
        {"response_format", {{"type", "json_schema"}, {"json_schema", {{"name", "wide"}, {"schema", schema}}}}}});
    std::vector<unsigned> statuses;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes());
        for (const bool stream : {false, true}) {
            json::object sent = json::parse(body).as_object();
            sent["stream"] = stream;
            statuses.push_back((co_await raw_http::posted(s.port(), "/v1/chat/completions", json::serialize(sent))).result_int());
        }
        co_await s.finish();
    }());
    EXPECT_EQ(statuses, (std::vector<unsigned>{200, 200}));
    ASSERT_EQ(served.formats.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        ASSERT_TRUE(served.formats[i].has_value());
        EXPECT_EQ(served.formats[i]->name(), "wide");
        EXPECT_EQ(served.formats[i]->schema(), schema);
        EXPECT_EQ(served.inputs[i], input);
    }
}

// The sampling parameters of either body reach the run as its chat options, whatever their order;
// a body with none sets no chat options.
TEST(OpenaiEndpoints, SamplingParametersReachTheRunInAnyOrder) {
    asio::io_context io;
    format_keeping_agent served(io.get_executor());
    forma::serving::openai_endpoints endpoints(served);
    const std::string messages = R"("messages":[{"role":"user","content":"hi"}])";
    const std::vector<std::pair<std::string, std::string>> requests{
        {"/v1/chat/completions", R"({"max_completion_tokens":20,"stop":["a","b"],"seed":7,"top_p":0.25,)" + messages +
                                     R"(,"temperature":0.5,"max_tokens":10,"instructions":"be brief","model":"m"})"},
        {"/v1/chat/completions", R"({"model":"m","stop":"z","temperature":null,)" + messages + "}"},
        {"/v1/chat/completions", R"({"model":"m",)" + messages + "}"},
        {"/v1/responses", R"({"max_tokens":5,"input":"hi","max_output_tokens":30,"model":"m","temperature":1})"},
    };
    std::vector<unsigned> statuses;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes());
        for (const auto& [path, body] : requests) statuses.push_back((co_await raw_http::posted(s.port(), path, body)).result_int());
        co_await s.finish();
    }());
    EXPECT_EQ(statuses, (std::vector<unsigned>{200, 200, 200, 200}));
    ASSERT_EQ(served.sampling.size(), 4u);
    ASSERT_TRUE(served.sampling[0]);
    const forma::chat_options& all = *served.sampling[0];
    EXPECT_EQ(all.temperature, 0.5);
    EXPECT_EQ(all.top_p, 0.25);
    EXPECT_EQ(all.seed, 7);
    EXPECT_EQ(all.max_output_tokens, 20) << "max_completion_tokens wins over max_tokens, wherever each is";
    EXPECT_EQ(all.stop_sequences, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(all.instructions, "be brief");
    ASSERT_TRUE(served.sampling[1]);
    EXPECT_EQ(served.sampling[1]->stop_sequences, std::vector<std::string>{"z"});
    EXPECT_FALSE(served.sampling[1]->temperature) << "null, as absent";
    EXPECT_FALSE(served.sampling[2]) << "no parameter, no chat options: the agent's own stay";
    ASSERT_TRUE(served.sampling[3]);
    EXPECT_EQ(served.sampling[3]->max_output_tokens, 30) << "Responses reads max_output_tokens only";
    EXPECT_EQ(served.sampling[3]->temperature, 1.0);
}

// An approval request is a tool call to the caller, answered by a tool result {"approved": bool}:
// in the conversation sent again (Chat Completions) or after the previous response (Responses).
TEST(OpenaiEndpoints, ApprovalRequestsAreToolCallsTheCallerAnswers) {
    asio::io_context io;
    forma_test::approval_agent files(io);
    files.calls().says("Deleted notes.txt").calls().calls().says("Kept notes.txt").calls();
    forma::serving::openai_endpoints endpoints(files.agent);
    std::vector<std::string> completions, chunks, responses, events;
    std::vector<std::string> deleted_after;
    std::string told_model; // after the rejection
    json::value canceled;
    raw_http::response answered_twice;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes());
        const unsigned short port = s.port();
        const std::string ask = R"({"role":"user","content":"delete notes.txt"})";
        completions.push_back((co_await raw_http::posted(port, "/v1/chat/completions", R"({"model":"m","messages":[)" + ask + "]}")).body());
        deleted_after.push_back(std::to_string(files.deleted.size()));
        const json::value asked = json::parse(completions.back()).at("choices").at(0).at("message");
        const std::string answer = R"({"model":"m","messages":[)" + ask + "," + json::serialize(asked) +
                                   R"(,{"role":"tool","tool_call_id":"call-1","content":"{\"approved\":true}"}]})";
        completions.push_back((co_await raw_http::posted(port, "/v1/chat/completions", answer)).body());
        deleted_after.push_back(std::to_string(files.deleted.size()));
        const auto streamed = co_await raw_http::posted(port, "/v1/chat/completions", R"({"model":"m","stream":true,"messages":[)" + ask + "]}");
        for (auto& d : raw_http::sse_data(streamed.body()))
            if (d != "[DONE]") chunks.push_back(d);
        responses.push_back((co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"delete notes.txt"})")).body());
        const std::string previous(json::parse(responses.back()).at("id").as_string());
        const std::string rejection = R"({"model":"m","previous_response_id":")" + previous +
                                      R"(","input":[{"type":"function_call_output","call_id":"call-1","output":"{\"approved\":false}"}]})";
        responses.push_back((co_await raw_http::posted(port, "/v1/responses", rejection)).body());
        deleted_after.push_back(std::to_string(files.deleted.size()));
        answered_twice = co_await raw_http::posted(port, "/v1/responses", rejection);
        told_model = json::serialize(json::value_from(files.model.requests().back().messages.back().contents));
        const auto streamed_response = co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"delete notes.txt","stream":true})");
        events = raw_http::sse_data(streamed_response.body());
        // A response waiting for its caller's approval is canceled at once: nothing runs it.
        const std::string paused(json::parse(events.front()).at("response").at("id").as_string());
        canceled = json::parse((co_await raw_http::posted(port, "/v1/responses/" + paused + "/cancel", "{}")).body());
        co_await s.finish();
    }());
    ASSERT_TRUE(completions.size() == 2 && responses.size() == 2);
    EXPECT_EQ(canceled.at("status"), "cancelled") << json::serialize(canceled);
    const json::value first = json::parse(completions[0]).at("choices").at(0);
    EXPECT_EQ(first.at("finish_reason"), "tool_calls");
    EXPECT_EQ(first.at("message").at("tool_calls").at(0).at("id"), "call-1");
    EXPECT_EQ(first.at("message").at("tool_calls").at(0).at("function").at("name"), "delete_file");
    EXPECT_EQ(json::parse(first.at("message").at("tool_calls").at(0).at("function").at("arguments").as_string()),
              json::parse(R"({"path":"notes.txt"})"));
    EXPECT_EQ(json::parse(completions[1]).at("choices").at(0).at("message").at("content"), "Deleted notes.txt");
    EXPECT_EQ(deleted_after, (std::vector<std::string>{"0", "1", "1"})) << "runs once approved, not when rejected";
    bool streamed_call = false;
    for (const std::string& c : chunks) {
        const json::value choice = json::parse(c).at("choices").at(0);
        if (choice.at("delta").as_object().contains("tool_calls")) streamed_call = choice.at("delta").at("tool_calls").at(0).at("id") == "call-1";
    }
    EXPECT_TRUE(streamed_call);
    EXPECT_EQ(json::parse(chunks.back()).at("choices").at(0).at("finish_reason"), "tool_calls");
    const json::value call_item = json::parse(responses[0]).at("output").at(0);
    EXPECT_EQ(call_item.at("type"), "function_call");
    EXPECT_EQ(call_item.at("call_id"), "call-1");
    EXPECT_EQ(json::parse(responses[1]).at("output").at(0).at("content").at(0).at("text"), "Kept notes.txt");
    EXPECT_NE(told_model.find("rejected"), std::string::npos) << told_model;
    EXPECT_EQ(answered_twice.result_int(), 409u) << "a response's approvals are answered once: " << answered_twice.body();
    EXPECT_EQ(json::parse(answered_twice.body()).at("error").at("param"), "previous_response_id");
    bool call_event = false;
    for (const std::string& e : events) call_event = call_event || json::parse(e).at("type") == "response.function_call_arguments.done";
    EXPECT_TRUE(call_event);
    std::string report;
    EXPECT_TRUE(valid_as("CreateChatCompletionResponse", completions, report)) << report;
    EXPECT_TRUE(valid_as("CreateChatCompletionStreamResponse", chunks, report)) << report;
    EXPECT_TRUE(valid_as("Response", responses, report)) << report;
    EXPECT_TRUE(valid_as("ResponseStreamEvent", events, report)) << report;
}

TEST(OpenaiEndpoints, TwoAnswersAtOnceToAResponsesApprovalRunOnce) {
    asio::io_context io;
    forma_test::approval_agent files(io);
    files.calls().says("Deleted notes.txt");
    auto tasks = std::make_shared<forma_test::gathering_task_store>(io.get_executor());
    forma::serving::openai_endpoints endpoints(files.agent, {.tasks = tasks});
    std::multiset<unsigned> statuses;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes());
        const unsigned short port = s.port();
        const auto asked = co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"delete notes.txt"})");
        const std::string answer = R"({"model":"m","previous_response_id":")" + std::string(json::parse(asked.body()).at("id").as_string()) +
                                   R"(","input":[{"type":"function_call_output","call_id":"call-1","output":"{\"approved\":true}"}]})";
        tasks->gather(2); // both answers read the response as waiting before either acts
        using namespace boost::asio::experimental::awaitable_operators;
        const auto [first, second] = co_await (raw_http::posted(port, "/v1/responses", answer) && raw_http::posted(port, "/v1/responses", answer));
        statuses = {first.result_int(), second.result_int()};
        co_await s.finish();
    }());
    EXPECT_EQ(statuses, (std::multiset<unsigned>{200u, 409u}));
    EXPECT_EQ(files.deleted, std::vector<std::string>{"notes.txt"}) << "the approved call runs once";
}

// The run of a Response neither stored nor background is its caller's alone: it ends once the
// caller leaves (the server reads the socket while the run is silent). A stored one goes on, to
// be read again by its id.
TEST(OpenaiEndpoints, AResponseNotStoredEndsWhenItsCallerLeaves) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::openai_endpoints endpoints(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes());
        const unsigned short port = s.port();
        // Streams `body` until the run says "working" (then nothing, for a day), and leaves.
        auto leave_while_working = [port](std::string body) -> asio::awaitable<std::string> {
            auto c = co_await raw_http::connection::open(port);
            co_await c.send(raw_http::post("/v1/responses", body));
            std::string seen;
            char buffer[512];
            while (seen.find("working") == std::string::npos)
                seen.append(buffer, co_await c.socket().async_read_some(asio::buffer(buffer), asio::use_awaitable));
            const std::size_t id = seen.find("\"id\":\"resp_") + 6;
            co_return seen.substr(id, seen.find('"', id) - id);
        };
        const std::string stored = co_await leave_while_working(R"({"model":"m","input":"forever","stream":true})");
        const std::string alone = co_await leave_while_working(R"({"model":"m","input":"forever","stream":true,"store":false})");
        asio::steady_timer look(io);
        while (served.canceled() == 0) {
            look.expires_after(5ms);
            co_await look.async_wait(asio::use_awaitable);
        }
        const auto stored_now = co_await raw_http::exchange(port, raw_http::get("/v1/responses/" + stored));
        const auto alone_now = co_await raw_http::exchange(port, raw_http::get("/v1/responses/" + alone));
        const int canceled = served.canceled();
        co_await s.finish();
        EXPECT_EQ(canceled, 1);
        EXPECT_EQ(json::parse(stored_now.body()).at("status"), "in_progress") << stored_now.body();
        EXPECT_EQ(json::parse(alone_now.body()).at("status"), "cancelled") << alone_now.body();
        EXPECT_EQ(json::parse(alone_now.body()).at("store"), false);
    }());
}

TEST(OpenaiEndpoints, AnswersBadRequestsInOpenAiErrorShape) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::openai_endpoints endpoints(served);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes());
        const unsigned short port = s.port();
        const auto not_json = co_await raw_http::posted(port, "/v1/chat/completions", "{");
        const auto no_messages = co_await raw_http::posted(port, "/v1/chat/completions", R"({"model":"m","messages":[]})");
        const auto client_tools = co_await raw_http::posted(port, "/v1/chat/completions",
                                                R"({"model":"m","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f"}}]})");
        const auto bad_role = co_await raw_http::posted(port, "/v1/chat/completions", R"({"model":"m","messages":[{"role":"wizard","content":"x"}]})");
        const auto not_a_message =
            co_await raw_http::posted(port, "/v1/chat/completions", R"({"model":"m","messages":[{"role":"user","content":"x"},7]})");
        const auto bad_part = co_await raw_http::posted(
            port, "/v1/chat/completions", R"({"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"x"},{"type":"video"}]}]})");
        const auto bad_input_role =
            co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":[{"role":"user"},{"role":"wizard"}]})");
        const auto failed = co_await raw_http::posted(port, "/v1/chat/completions", R"({"model":"m","messages":[{"role":"user","content":"fail"}]})");
        const auto failed_response = co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"fail"})");
        const auto failed_background = co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"fail","background":true})");
        const auto background_not_stored = co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"x","background":true,"store":false})");
        const auto store_not_bool = co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"x","store":"no"})");
        const auto wrong_type = co_await raw_http::posted(port, "/v1/responses", "{}", "text/plain");
        const auto unknown = co_await raw_http::exchange(port, raw_http::get("/v1/responses/resp_nope"));
        const auto no_previous = co_await raw_http::posted(port, "/v1/responses", R"({"model":"m","input":"x","previous_response_id":"resp_nope"})");
        const auto models = co_await raw_http::exchange(port, raw_http::get("/v1/models"));
        const auto bad_schema = co_await raw_http::posted(
            port, "/v1/chat/completions",
            R"({"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"a","schema":{"type":"object","properties":{"n":{"type":"integer","minimum":"zero"}}}}}})");
        const auto loose_strict = co_await raw_http::posted(
            port, "/v1/responses",
            R"({"model":"m","input":"x","text":{"format":{"type":"json_schema","name":"a","strict":true,"schema":{"type":"object","properties":{"n":{"type":"integer"}}}}}})");
        co_await s.finish();
        auto error_of = [](const forma_test::raw_http::response& r) { return json::parse(r.body()).at("error"); };
        EXPECT_EQ(not_json.result_int(), 400u);
        EXPECT_EQ(error_of(not_json).at("type").as_string(), "invalid_request_error");
        EXPECT_EQ(no_messages.result_int(), 400u);
        EXPECT_EQ(error_of(no_messages).at("param").as_string(), "messages");
        EXPECT_EQ(error_of(client_tools).at("param").as_string(), "tools");
        EXPECT_EQ(error_of(bad_role).at("param").as_string(), "messages[0].role");
        EXPECT_EQ(error_of(not_a_message).at("param").as_string(), "messages[1]");
        EXPECT_EQ(error_of(bad_part).at("param").as_string(), "messages[0].content[1].type");
        EXPECT_EQ(bad_input_role.result_int(), 400u) << bad_input_role.body();
        EXPECT_EQ(error_of(bad_input_role).at("param").as_string(), "input[1].role");
        EXPECT_EQ(failed.result_int(), 500u);
        EXPECT_EQ(error_of(failed).at("message").as_string(), "the agent failed: failed on purpose");
        EXPECT_EQ(failed_response.result_int(), 500u) << "its caller waited for an answer that failed";
        EXPECT_EQ(error_of(failed_response).at("type").as_string(), "server_error");
        EXPECT_NE(error_of(failed_response).at("message").as_string().find("failed on purpose"), std::string::npos);
        EXPECT_EQ(failed_background.result_int(), 200u) << "a background response is answered before it runs";
        EXPECT_EQ(background_not_stored.result_int(), 400u);
        EXPECT_EQ(error_of(background_not_stored).at("param").as_string(), "store");
        EXPECT_EQ(error_of(store_not_bool).at("param").as_string(), "store");
        EXPECT_EQ(wrong_type.result_int(), 415u);
        EXPECT_EQ(unknown.result_int(), 404u);
        EXPECT_EQ(error_of(unknown).at("type").as_string(), "not_found_error");
        EXPECT_EQ(error_of(no_previous).at("param").as_string(), "previous_response_id");
        EXPECT_EQ(json::parse(models.body()).at("data").at(0).at("id").as_string(), "Served agent");
        EXPECT_EQ(bad_schema.result_int(), 400u) << bad_schema.body();
        EXPECT_EQ(error_of(bad_schema).at("param").as_string(), "response_format.json_schema.schema");
        EXPECT_NE(error_of(bad_schema).at("message").as_string().find("/properties/n"), std::string::npos) << bad_schema.body();
        EXPECT_EQ(loose_strict.result_int(), 400u) << loose_strict.body();
        EXPECT_EQ(error_of(loose_strict).at("param").as_string(), "text.format.schema");
    }());
}

// Every member read is read as its type: one of another type is a 400 naming it, as OpenAI
// answers, not a setting silently dropped. Members not read are skipped, checked as JSON.
TEST(OpenaiEndpoints, AMemberOfTheWrongTypeIsA400NamingIt) {
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::serving::openai_endpoints endpoints(served);
    const std::string hi = R"("messages":[{"role":"user","content":"hi"}])";
    struct refused {
        std::string path, body, param, reason;
    };
    const std::vector<refused> requests{
        {"/v1/chat/completions", R"({"temperature":"hot",)" + hi + "}", "temperature", "expected number"},
        {"/v1/chat/completions", R"({"seed":1.5,)" + hi + "}", "seed", "integer"},
        {"/v1/chat/completions", R"({"stream":"yes",)" + hi + "}", "stream", "expected boolean"},
        {"/v1/chat/completions", R"({"stream_options":{"include_usage":1},)" + hi + "}", "stream_options.include_usage", "boolean"},
        {"/v1/chat/completions", R"({"messages":[{"role":"assistant","tool_calls":[{"id":"c","function":{"name":5}}]}]})",
         "messages[0].tool_calls[0].function.name", "expected string"},
        {"/v1/chat/completions", R"({"messages":[{"role":"user","content":[{"type":"text","text":7}]}]})", "messages[0].content[0].text",
         "expected string"},
        {"/v1/chat/completions", R"({"stop":["a",1],)" + hi + "}", "stop[1]", "expected string"},
        {"/v1/chat/completions", R"({"response_format":"json",)" + hi + "}", "response_format", "must be an object"},
        {"/v1/chat/completions", R"({"model":"a","model":"b",)" + hi + "}", "", "duplicate"},
        {"/v1/chat/completions", R"({"metadata":{"a":[1,}},)" + hi + "}", "metadata.a[1]", ""},
        {"/v1/responses", R"({"input":[{"role":"user","content":[{"type":"input_text","text":7}]}]})", "input[0].content[0].text",
         "expected string"},
        {"/v1/responses", R"({"input":"x","max_output_tokens":"many"})", "max_output_tokens", "expected integer"},
        {"/v1/responses", R"({"input":"x","text":[]})", "text", "must be an object"},
    };
    std::vector<forma_test::raw_http::response> answers;
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes());
        for (const refused& r : requests) answers.push_back(co_await raw_http::posted(s.port(), r.path, r.body));
        // What is not read is skipped: a body with members OpenAI's SDKs send and forma ignores.
        answers.push_back(co_await raw_http::posted(s.port(), "/v1/chat/completions",
                                                    R"({"n":1,"user":"u","logit_bias":{"50256":-100},"parallel_tool_calls":true,)"
                                                    R"("messages":[{"role":"user","name":"ann","content":[{"type":"image_url","image_url":{"url":"https://x/y.png","detail":"low"}},{"type":"text","text":"hi"}]}]})"));
        co_await s.finish();
    }());
    ASSERT_EQ(answers.size(), requests.size() + 1);
    for (std::size_t i = 0; i < requests.size(); ++i) {
        SCOPED_TRACE(requests[i].body);
        EXPECT_EQ(answers[i].result_int(), 400u) << answers[i].body();
        const json::value error = json::parse(answers[i].body()).at("error");
        EXPECT_EQ(error.at("type"), "invalid_request_error");
        const json::value& param = error.at("param");
        EXPECT_EQ(param.is_null() ? std::string() : std::string(param.as_string()), requests[i].param);
        EXPECT_NE(std::string(error.at("message").as_string()).find(requests[i].reason), std::string::npos) << error;
    }
    EXPECT_EQ(answers.back().result_int(), 200u) << answers.back().body();
}

// The model refuses the request as invalid (a 400 from its provider): the caller's request, a 400.
TEST(OpenaiEndpoints, ARequestTheModelRefusesAsInvalidIsA400) {
    asio::io_context io;
    forma::testing::scripted_chat_client model(io.get_executor());
    model.add_error(std::make_exception_ptr(forma::http_error(400, "invalid_request_error", "Invalid schema for response_format")));
    model.add_error(std::make_exception_ptr(forma::http_error(503, "server_error", "overloaded")));
    forma::chat_client_agent agent(model, {.name = "m"});
    forma::serving::openai_endpoints endpoints(agent);
    run(io, [&]() -> asio::awaitable<void> {
        running_server s(io, endpoints.routes());
        const std::string body = R"({"model":"m","messages":[{"role":"user","content":"x"}]})";
        const auto refused = co_await raw_http::posted(s.port(), "/v1/chat/completions", body);
        const auto failed = co_await raw_http::posted(s.port(), "/v1/chat/completions", body);
        co_await s.finish();
        EXPECT_EQ(refused.result_int(), 400u) << refused.body();
        EXPECT_EQ(json::parse(refused.body()).at("error").at("type"), "invalid_request_error");
        EXPECT_EQ(failed.result_int(), 500u);
        EXPECT_EQ(json::parse(failed.body()).at("error").at("type"), "server_error");
    }());
}

} // namespace
