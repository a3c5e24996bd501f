// Tools through agents: per agent and per run, typed answers after tool calls (whole and
// streamed), sessions that keep the exchange, execute_tool spans, and agents as tools.
#include "../chat/tool_support.hpp"

#include "../telemetry/span_reading.hpp"

#include <forma/middleware/agent_builder.hpp>
#include <forma/telemetry/gen_ai.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>

#include <boost/json/value_to.hpp>

namespace {

using namespace tool_test;
using namespace forma;
using namespace span_reading;
namespace attr = forma::telemetry::gen_ai::attr;

struct trip {
    std::string city;
    double celsius = 0;
    bool operator==(const trip&) const = default;
};
BOOST_DESCRIBE_STRUCT(trip, (), (city, celsius))

class agent_tools : public fixture {
protected:
    int weather_calls = 0;
    function_tool weather = make_tool("get_weather", "The weather in a city", [this](const weather_query& q) {
        ++weather_calls;
        return forecast{q.city, 5};
    });
    function_tool clock = make_tool("get_time", "The time", [] { return std::string("12:00"); });

    /// A planner with the weather tool under telemetry without message contents.
    std::shared_ptr<agent> traced_planner(std::shared_ptr<telemetry::in_memory_exporter> memory) {
        return agent_builder(std::make_shared<chat_client_agent>(
                                 model, chat_client_agent_options{.name = "planner", .tools = {weather}}))
            .use_telemetry({.exporter = std::move(memory), .sensitive_data = false})
            .build();
    }
};

TEST_F(agent_tools, an_agent_offers_its_tools_and_a_run_adds_or_replaces_by_name) {
    const function_tool other_weather = make_tool("get_weather", "Another", [](const weather_query&) { return 1; });
    chat_client_agent agent(model, {.name = "a", .chat_options = {.tools = {clock}}, .tools = {weather}});
    model.add_response(answer_turn("hi"));
    run(agent.run("x"));
    ASSERT_EQ(model.requests()[0].options.tools.size(), 2u);
    EXPECT_EQ(model.requests()[0].options.tools[0], clock);
    EXPECT_EQ(model.requests()[0].options.tools[1], weather);

    model.add_response(calls_turn({call("c1", "get_weather", R"({"city":"Oslo"})")}));
    model.add_response(answer_turn("done"));
    agent_run_options run_options;
    run_options.chat_options = chat_options{.tools = {other_weather}};
    run(agent.run("x", nullptr, run_options));
    ASSERT_EQ(model.requests()[1].options.tools.size(), 2u);
    EXPECT_EQ(model.requests()[1].options.tools[1], other_weather);
    EXPECT_EQ(weather_calls, 0) << "the run's tool of that name ran, not the agent's";
    EXPECT_EQ(last_result(model.requests()[2].messages).result, 1);
}

TEST_F(agent_tools, a_typed_run_reads_the_final_answer_after_the_calls) {
    chat_client_agent agent(model, {.name = "a", .tools = {weather}});
    model.add_response(calls_turn({call("c1", "get_weather", R"({"city":"Oslo"})")}));
    model.add_response(answer_turn(R"({"city":"Oslo","celsius":5})"));
    const agent_response<trip> r = run(agent.run<trip>("Trip to Oslo?"));
    EXPECT_EQ(r.result(), (trip{"Oslo", 5}));
    EXPECT_EQ(r.messages.size(), 3u);
    ASSERT_TRUE(model.requests()[1].options.response_format);
    EXPECT_EQ(model.requests()[1].options.response_format->name(), "trip");
}

TEST_F(agent_tools, a_typed_stream_reads_each_turn_afresh) {
    chat_client_agent agent(model, {.name = "a", .tools = {weather}});
    // The first turn's text is not the answer; the tools' results end it.
    agent_response<> first = calls_turn({call("c1", "get_weather", R"({"city":"Oslo"})")});
    first.messages[0].contents.insert(first.messages[0].contents.begin(), text_content(R"({"city":"Ro)"));
    model.add_response(first);
    model.add_response(answer_turn(R"({"city":"Oslo","celsius":5})"));
    const auto events = run([&]() -> asio::awaitable<std::vector<std::string>> {
        std::vector<std::string> cities;
        auto stream = agent.run_streaming<trip>("Trip?");
        while (auto event = co_await stream.next()) {
            cities.push_back(event->snapshot()[&trip::city].value());
            if (event->is_final()) {
                EXPECT_EQ(event->result(), (trip{"Oslo", 5}));
            }
        }
        co_return cities;
    }());
    ASSERT_FALSE(events.empty());
    EXPECT_NE(std::find(events.begin(), events.end(), "Ro"), events.end()) << "the first turn was read";
    EXPECT_EQ(events.back(), "Oslo");
}

TEST_F(agent_tools, whole_and_streamed_runs_of_an_agent_agree) {
    auto script = [&] {
        model.add_response(calls_turn({call("c1", "get_weather", R"({"city":"Oslo"})"), call("c2", "get_time", "{}")}));
        model.add_response(answer_turn("Oslo at noon: 5 degrees."));
    };
    chat_client_agent agent(model, {.name = "planner", .tools = {weather, clock}});
    auto whole_session = agent.create_session();
    auto streamed_session = agent.create_session();
    script();
    const agent_response<> whole = run(agent.run("Go", whole_session));
    script();
    const agent_response<> streamed = to_agent_response(run(drain(agent.run_streaming("Go", streamed_session))));
    EXPECT_EQ(without_raw(whole), without_raw(streamed)) << json_text(whole) << "\n" << json_text(streamed);
    ASSERT_EQ(whole.messages.size(), 4u);
    EXPECT_EQ(whole.messages[1].author_name, "") << "a tool message has no author";
    EXPECT_EQ(whole.messages[2].author_name, "");
    EXPECT_EQ(whole.messages[3].author_name, "planner");
    EXPECT_EQ(whole_session->history, streamed_session->history);
}

TEST_F(agent_tools, the_session_keeps_the_whole_exchange_and_round_trips_through_json) {
    chat_client_agent agent(model, {.name = "a", .tools = {weather}});
    auto session = agent.create_session();
    model.add_response(calls_turn({call("c1", "get_weather", R"({"city":"Oslo"})")}));
    model.add_response(answer_turn("5 degrees."));
    run(agent.run("Weather?", session));
    ASSERT_EQ(session->history.size(), 4u);
    EXPECT_EQ(session->history[2].role, chat_role::tool());
    const auto text = boost::json::serialize(boost::json::value_from(*session));
    const auto restored = std::make_shared<agent_session>(boost::json::value_to<agent_session>(boost::json::parse(text)));
    EXPECT_EQ(*restored, *session);
    model.add_response(answer_turn("Still 5."));
    run(agent.run("And now?", restored));
    EXPECT_EQ(model.requests().back().messages.size(), 5u);
}

TEST_F(agent_tools, each_call_is_an_execute_tool_span_under_the_run) {
    auto memory = std::make_shared<telemetry::in_memory_exporter>();
    auto agent = agent_builder(std::make_shared<chat_client_agent>(
                                   model, chat_client_agent_options{.name = "planner", .tools = {weather, clock}}))
                     .use_telemetry({.exporter = memory, .sensitive_data = true})
                     .build();
    model.add_response(calls_turn({call("c1", "get_weather", R"({"city":"Oslo"})"), call("c2", "nope", "{}")}));
    model.add_response(answer_turn("ok"));
    run(agent->run("Go"));
    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 3u);
    const auto& run_span = spans.back();
    EXPECT_EQ(run_span.name, "invoke_agent planner");
    const auto& ok = spans[0].name == "execute_tool get_weather" ? spans[0] : spans[1];
    const auto& failed = spans[0].name == "execute_tool get_weather" ? spans[1] : spans[0];
    EXPECT_EQ(ok.name, "execute_tool get_weather");
    EXPECT_EQ(ok.kind, telemetry::span_kind::internal);
    EXPECT_EQ(ok.parent_span_id, run_span.context.span_id);
    EXPECT_EQ(ok.context.trace_id, run_span.context.trace_id);
    EXPECT_EQ(text(ok, attr::operation_name), "execute_tool");
    EXPECT_EQ(text(ok, attr::tool_name), "get_weather");
    EXPECT_EQ(text(ok, attr::tool_call_id), "c1");
    EXPECT_EQ(text(ok, attr::tool_type), "function");
    EXPECT_EQ(text(ok, attr::tool_description), "The weather in a city");
    EXPECT_EQ(text(ok, attr::tool_call_arguments), R"({"city":"Oslo"})");
    EXPECT_EQ(text(ok, attr::tool_call_result), R"({"city":"Oslo","celsius":5})");
    EXPECT_EQ(ok.status, telemetry::status_code::unset);
    EXPECT_EQ(failed.name, "execute_tool nope");
    EXPECT_EQ(text(failed, attr::error_type), "unknown_tool");
    EXPECT_EQ(failed.status, telemetry::status_code::error);
}

TEST_F(agent_tools, a_streamed_run_hands_its_trace_to_the_model_calls_and_the_tool_calls_too) {
    auto memory = std::make_shared<telemetry::in_memory_exporter>();
    auto agent = traced_planner(memory);
    model.add_response(calls_turn({call("c1", "get_weather", R"({"city":"Oslo"})")}));
    model.add_response(answer_turn("ok"));
    run(drain(agent->run_streaming("Go")));
    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 2u);
    const auto& run_span = spans.back();
    EXPECT_EQ(spans[0].name, "execute_tool get_weather");
    EXPECT_EQ(spans[0].parent_span_id, run_span.context.span_id);
    ASSERT_EQ(model.requests().size(), 2u);
    for (const auto& request : model.requests()) {
        EXPECT_TRUE(request.streaming);
        ASSERT_TRUE(request.context.trace);
        EXPECT_EQ(request.context.trace->context, run_span.context) << "each model call of the loop";
    }
}

TEST_F(agent_tools, without_sensitive_data_arguments_and_results_are_not_recorded) {
    auto memory = std::make_shared<telemetry::in_memory_exporter>();
    auto agent = traced_planner(memory);
    model.add_response(calls_turn({call("c1", "get_weather", R"({"city":"Oslo"})")}));
    model.add_response(answer_turn("ok"));
    run(agent->run("Go"));
    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 2u);
    EXPECT_EQ(spans[0].name, "execute_tool get_weather");
    EXPECT_FALSE(has(spans[0], attr::tool_call_arguments));
    EXPECT_FALSE(has(spans[0], attr::tool_call_result));
}

TEST_F(agent_tools, an_agent_as_a_tool_answers_with_its_text_and_nests_its_spans) {
    auto memory = std::make_shared<telemetry::in_memory_exporter>();
    forma::testing::scripted_chat_client inner_model(io.get_executor());
    auto researcher = agent_builder(std::make_shared<chat_client_agent>(
                                        inner_model, chat_client_agent_options{.name = "researcher",
                                                                               .description = "Finds facts"}))
                          .use_telemetry({.exporter = memory})
                          .build();
    const function_tool research = as_tool(*researcher);
    EXPECT_EQ(research.name(), "researcher");
    EXPECT_EQ(research.description(), "Finds facts");
    EXPECT_TRUE(research.strict());
    auto writer = agent_builder(std::make_shared<chat_client_agent>(
                                    model, chat_client_agent_options{.name = "writer", .tools = {research}}))
                      .use_telemetry({.exporter = memory})
                      .build();
    model.add_response(calls_turn({call("c1", "researcher", R"({"input":"Who built the Eiffel tower?"})")}));
    inner_model.add_response(answer_turn("Gustave Eiffel's company."));
    model.add_response(answer_turn("It was Eiffel's company."));
    EXPECT_EQ(run(writer->run("Write about the tower")).text(), "It was Eiffel's company.");
    EXPECT_EQ(inner_model.requests().at(0).messages.at(0).text(), "Who built the Eiffel tower?");
    EXPECT_EQ(last_result(model.requests().at(1).messages).result, "Gustave Eiffel's company.");

    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 3u);
    const auto find = [&](std::string_view name) {
        for (const auto& s : spans)
            if (s.name == name) return s;
        ADD_FAILURE() << "no span " << name;
        return telemetry::span_data{};
    };
    const auto outer = find("invoke_agent writer");
    const auto tool = find("execute_tool researcher");
    const auto inner = find("invoke_agent researcher");
    EXPECT_EQ(tool.parent_span_id, outer.context.span_id);
    EXPECT_EQ(inner.parent_span_id, tool.context.span_id);
    EXPECT_EQ(inner.context.trace_id, outer.context.trace_id);
}

struct research_question {
    std::string topic;
    int depth = 1;
};
BOOST_DESCRIBE_STRUCT(research_question, (), (topic, depth))

TEST_F(agent_tools, an_agent_as_a_typed_tool_runs_on_the_input_as_json) {
    forma::testing::scripted_chat_client inner_model(io.get_executor());
    chat_client_agent researcher(inner_model, {.name = "researcher"});
    const function_tool research =
        as_tool<research_question>(researcher, {.name = "research", .description = "Researches a topic"});
    EXPECT_EQ(research.parameters(), json_schema<research_question>({.dialect = schema_dialect::openai_strict}));
    chat_client_agent writer(model, {.name = "writer", .tools = {research}});
    model.add_response(calls_turn({call("c1", "research", R"({"topic":"bridges","depth":2})")}));
    model.add_response(calls_turn({call("c2", "research", R"({"topic":3})")}, "turn-1b"));
    inner_model.add_response(answer_turn("Bridges span things."));
    model.add_response(answer_turn("Done."));
    run(writer.run("Go"));
    EXPECT_EQ(inner_model.requests().at(0).messages.at(0).text(), R"({"topic":"bridges","depth":2})");
    EXPECT_EQ(inner_model.requests().size(), 1u) << "bad arguments never reach the agent";
    const auto bad = last_result(model.requests().at(2).messages);
    ASSERT_TRUE(bad.error);
    EXPECT_NE(bad.error->find("at /topic"), std::string::npos) << *bad.error;
    EXPECT_THROW(as_tool(writer, {.name = "has space"}), forma::error);
}

} // namespace
