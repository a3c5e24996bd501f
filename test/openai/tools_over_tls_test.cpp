// The tool loop end to end: chat_client_agent and function_invoking_chat_client over the OpenAI
// client and the local model server, on real TLS over loopback.
#include "loopback.hpp"

#include <forma/agent/chat_client_agent.hpp>
#include <forma/chat/telemetry_chat_client.hpp>
#include <forma/middleware/agent_builder.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>
#include <forma/tools.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/describe.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <gtest/gtest.h>

#include <map>

namespace {

using namespace std::chrono_literals;
using forma::testing::scripted_reply;
using forma::testing::scripted_tool_call;
using loopback::drain;
namespace asio = boost::asio;
namespace json = boost::json;

struct weather_query {
    std::string city;
    int days = 1;
};
BOOST_DESCRIBE_STRUCT(weather_query, (), (city, days))

struct booking {
    std::string hotel;
};
BOOST_DESCRIBE_STRUCT(booking, (), (hotel))

struct summary {
    std::string city;
    std::string advice;
};
BOOST_DESCRIBE_STRUCT(summary, (), (city, advice))

std::string text(const forma::agent_response<>& r) { return json::serialize(json::value_from(r)); }

// What a stream can't match of a whole response: raw bodies, and the time the server stamps
// on each reply (the current second, which two requests may see differently).
forma::agent_response<> comparable(forma::agent_response<> r) {
    r.raw_representation = nullptr;
    r.created_at.reset();
    for (auto& m : r.messages) m.created_at.reset();
    return r;
}

class tools_over_tls : public loopback::fixture {
protected:
    std::vector<weather_query> asked;
    int bookings = 0;
    forma::function_tool weather = forma::make_tool("get_weather", "The weather", [this](const weather_query& q) {
        asked.push_back(q);
        return "5 degrees in " + q.city;
    });
    forma::function_tool book = forma::make_tool(
        "book_hotel", "Books a hotel",
        [this](const booking& b) {
            ++bookings;
            return "booked " + b.hotel;
        },
        {.requires_approval = true});
};

TEST_F(tools_over_tls, a_generated_call_runs_and_its_result_goes_back) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "weather", .tools = {weather}});
    const auto r = run(agent.run("Weather in Oslo"));
    ASSERT_EQ(asked.size(), 1u);
    EXPECT_NE(std::string("Weather in Oslo").find(asked[0].city), std::string::npos) << asked[0].city;
    ASSERT_EQ(r.messages.size(), 3u) << text(r);
    EXPECT_EQ(r.text(), "You said: Weather in Oslo");
    ASSERT_TRUE(r.usage);
    EXPECT_EQ(r.usage->input_token_count, 6) << "three words, asked twice";

    const auto sent = bodies();
    ASSERT_EQ(sent.size(), 2u);
    const auto& declared = sent[0].at("tools").as_array().at(0).at("function");
    EXPECT_EQ(declared.at("name"), "get_weather");
    EXPECT_EQ(declared.at("strict"), true);
    const auto& messages = sent[1].at("messages").as_array();
    ASSERT_EQ(messages.size(), 3u);
    const auto& call = messages[1].at("tool_calls").at(0);
    EXPECT_EQ(call.at("id"), "call_0_0");
    EXPECT_EQ(messages[2].at("role"), "tool");
    EXPECT_EQ(messages[2].at("tool_call_id"), "call_0_0");
    EXPECT_EQ(messages[2].at("content"), json::value("5 degrees in " + asked[0].city));
}

TEST_F(tools_over_tls, whole_and_streamed_runs_of_the_same_script_agree) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "weather", .tools = {weather}});
    const std::vector<scripted_tool_call> calls{{"call_1", "get_weather", R"({"city":"Oslo","days":2})"},
                                               {"call_2", "get_weather", R"({"city":"Rome","days":"x"})"},
                                               {"call_3", "get_wether", "{}"}};
    s.enqueue(scripted_reply::tool_calls(calls, "Checking three."));
    s.enqueue(scripted_reply::completion("Oslo is cold."));
    const auto whole = run(agent.run("Weather?"));
    s.enqueue(scripted_reply::stream_tool_calls(calls, 4, "Checking three."));
    s.enqueue(scripted_reply::stream("Oslo is cold.", 3));
    const auto streamed = forma::to_agent_response(run(drain(agent.run_streaming("Weather?"))));
    EXPECT_EQ(comparable(streamed), comparable(whole)) << text(streamed) << "\n" << text(whole);
    ASSERT_TRUE(whole.created_at && streamed.created_at);
    EXPECT_EQ(whole.messages.size(), 5u) << "the calls, a tool message per result, the answer";
    EXPECT_EQ(whole.text(), "Oslo is cold.");
    EXPECT_EQ(asked.size(), 2u) << "once per run: the other calls fail";
}

TEST_F(tools_over_tls, the_calls_of_a_turn_run_at_once_and_answer_in_order) {
    auto& s = server({.tool_calls_per_turn = 2});
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    int running = 0, most = 0;
    auto slow = [&](std::string name) {
        return forma::make_tool(name, "", [&, name](const weather_query&) -> asio::awaitable<std::string> {
            most = std::max(most, ++running);
            asio::steady_timer wait(co_await asio::this_coro::executor, 30ms);
            co_await wait.async_wait(asio::use_awaitable);
            --running;
            co_return name + " done";
        });
    };
    forma::chat_client_agent agent(client, {.name = "a", .tools = {slow("first"), slow("second")}});
    const auto r = run(agent.run("Go"));
    EXPECT_EQ(most, 2);
    ASSERT_EQ(r.messages.size(), 4u);
    EXPECT_EQ(std::get<forma::function_result_content>(r.messages[1].contents.at(0)).result, "first done");
    EXPECT_EQ(std::get<forma::function_result_content>(r.messages[2].contents.at(0)).result, "second done");
}

TEST_F(tools_over_tls, malformed_arguments_and_unknown_tools_go_back_to_the_model) {
    for (auto fault : {forma::testing::tool_call_fault::malformed_arguments, forma::testing::tool_call_fault::unknown_tool}) {
        forma::testing::model_server s(io.get_executor(), {.tool_fault = fault});
        forma::openai::chat_client client(io.get_executor(), options_for(s));
        forma::chat_client_agent agent(client, {.name = "a", .tools = {weather}});
        const auto r = run(agent.run("Weather in Oslo"));
        EXPECT_EQ(r.text(), "You said: Weather in Oslo");
        const auto sent = s.requests();
        ASSERT_EQ(sent.size(), 2u);
        const std::string result(json::parse(sent[1].body).at("messages").at(2).at("content").as_string());
        if (fault == forma::testing::tool_call_fault::malformed_arguments)
            EXPECT_EQ(result.rfind("Error: invalid arguments", 0), 0u) << result;
        else
            EXPECT_EQ(result, "Error: unknown tool \"no_such_tool\"; the tools are: get_weather");
    }
    EXPECT_TRUE(asked.empty());
}

TEST_F(tools_over_tls, a_model_that_keeps_calling_is_told_to_stop_then_stopped) {
    auto& s = server();
    s.set_handler([](const forma::testing::received_request&) {
        return std::optional(scripted_reply::tool_calls({{"c", "get_weather", R"({"city":"Oslo","days":1})"}}));
    });
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "a", .tools = {weather}, .function_invocation = {.max_tool_iterations = 2}});
    EXPECT_THROW(run(agent.run("Go")), forma::tool_error);
    const auto sent = bodies();
    ASSERT_EQ(sent.size(), 3u);
    EXPECT_FALSE(sent[1].contains("tool_choice"));
    EXPECT_EQ(sent[2].at("tool_choice"), "none");
    EXPECT_EQ(asked.size(), 2u);
}

TEST_F(tools_over_tls, approval_across_a_session_saved_as_json) {
    for (bool streaming : {false, true}) {
        forma::testing::model_server s(io.get_executor(), {.tool_calls_per_turn = 2});
        forma::openai::chat_client client(io.get_executor(), options_for(s));
        forma::chat_client_agent agent(client, {.name = "planner", .tools = {weather, book}});
        auto session = agent.create_session();
        auto ask = [&](forma::chat_message m, std::shared_ptr<forma::agent_session> on) {
            return streaming ? forma::to_agent_response(run(drain(agent.run_streaming(std::move(m), on))))
                             : run(agent.run(std::move(m), on));
        };
        const auto first = ask(forma::chat_message(forma::chat_role::user(), "Trip to Oslo at the Grand"), session);
        const auto requests = first.approval_requests();
        ASSERT_EQ(requests.size(), 2u) << text(first);
        EXPECT_EQ(requests[1].call.name, "book_hotel");
        EXPECT_TRUE(asked.empty());

        const std::string saved = json::serialize(json::value_from(*session));
        auto restored = std::make_shared<forma::agent_session>(json::value_to<forma::agent_session>(json::parse(saved)));
        std::vector<forma::content> answers{requests[0].approve(), requests[1].reject("over budget")};
        const auto second = ask(forma::chat_message(forma::chat_role::user(), std::move(answers)), restored);
        EXPECT_EQ(asked.size(), 1u);
        EXPECT_EQ(bookings, 0);
        EXPECT_EQ(second.text(), "You said: Trip to Oslo at the Grand");

        const auto sent = s.requests();
        ASSERT_EQ(sent.size(), 2u);
        const json::value body = json::parse(sent[1].body);
        const auto& messages = body.at("messages").as_array();
        ASSERT_EQ(messages.size(), 4u);
        EXPECT_EQ(messages[1].at("tool_calls").as_array().size(), 2u);
        EXPECT_EQ(messages[2].at("role"), "tool");
        EXPECT_EQ(messages[3].at("content"), "rejected: over budget");
        asked.clear();
    }
}

TEST_F(tools_over_tls, a_typed_run_gets_its_answer_after_the_tools) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "a", .tools = {weather}});
    const auto r = run(agent.run<summary>("Plan a day in Oslo"));
    EXPECT_EQ(asked.size(), 1u);
    EXPECT_NE(std::string("Plan a day in Oslo").find(r.result().city), std::string::npos) << r.result().city;
    const auto sent = bodies();
    ASSERT_EQ(sent.size(), 2u);
    EXPECT_EQ(sent[1].at("response_format").at("type"), "json_schema");
}

TEST_F(tools_over_tls, each_model_call_and_each_tool_call_is_a_span_of_the_run) {
    auto& s = server();
    forma::openai::chat_client provider(io.get_executor(), options_for(s));
    forma::telemetry_chat_client client(provider);
    auto memory = std::make_shared<forma::telemetry::in_memory_exporter>();
    auto agent = forma::agent_builder(std::make_shared<forma::chat_client_agent>(
                                          client, forma::chat_client_agent_options{.name = "a", .tools = {weather}}))
                     .use_telemetry({.exporter = memory})
                     .build();
    run(agent->run("Weather in Oslo"));
    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 4u);
    const auto& root = spans.back();
    EXPECT_EQ(root.name, "invoke_agent a");
    std::vector<std::string> children;
    for (std::size_t i = 0; i + 1 < spans.size(); ++i) {
        EXPECT_EQ(spans[i].parent_span_id, root.context.span_id) << spans[i].name;
        children.push_back(spans[i].name);
    }
    EXPECT_EQ(children, (std::vector<std::string>{"chat forma-local", "execute_tool get_weather", "chat forma-local"}));
    // Each model call sent its own span as the traceparent.
    const auto sent = s.requests();
    ASSERT_EQ(sent.size(), 2u);
    EXPECT_NE(sent[0].header("traceparent"), sent[1].header("traceparent"));
}

TEST_F(tools_over_tls, an_agent_as_a_tool_answers_the_outer_agent_and_its_spans_nest) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    auto memory = std::make_shared<forma::telemetry::in_memory_exporter>();
    auto researcher = forma::agent_builder(std::make_shared<forma::chat_client_agent>(
                                               client, forma::chat_client_agent_options{.name = "researcher",
                                                                                        .description = "Finds facts"}))
                          .use_telemetry({.exporter = memory})
                          .build();
    auto writer = forma::agent_builder(std::make_shared<forma::chat_client_agent>(
                                           client, forma::chat_client_agent_options{
                                                       .name = "writer", .tools = {forma::as_tool(*researcher)}}))
                      .use_telemetry({.exporter = memory})
                      .build();
    const auto r = run(writer->run("Write about bridges"));
    EXPECT_EQ(r.text(), "You said: Write about bridges");

    // The server called the researcher with generated input; the researcher's own request
    // echoed it, and that answer went back to the writer's model as the call's result.
    const auto sent = bodies();
    ASSERT_EQ(sent.size(), 3u);
    EXPECT_EQ(sent[0].at("tools").at(0).at("function").at("name"), "researcher");
    const auto& inner_question = sent[1].at("messages").as_array().back().at("content");
    const auto& tool_message = sent[2].at("messages").as_array().back();
    EXPECT_EQ(tool_message.at("role"), "tool");
    EXPECT_EQ(tool_message.at("content"), json::value("You said: " + std::string(inner_question.as_string())));

    std::map<std::string, forma::telemetry::span_data> spans;
    for (const auto& span : memory->spans()) spans.emplace(span.name, span);
    ASSERT_TRUE(spans.count("invoke_agent writer") && spans.count("execute_tool researcher") &&
                spans.count("invoke_agent researcher"));
    EXPECT_EQ(spans["execute_tool researcher"].parent_span_id, spans["invoke_agent writer"].context.span_id);
    EXPECT_EQ(spans["invoke_agent researcher"].parent_span_id, spans["execute_tool researcher"].context.span_id);
}

} // namespace
