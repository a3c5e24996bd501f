// structured_output_mode::tool end to end: run<T> on a server with function calling but no JSON
// Schema formats, over both OpenAI APIs and the local model server on real TLS.
#include "loopback.hpp"

#include <forma/agent/chat_client_agent.hpp>
#include <forma/openai/responses_client.hpp>
#include <forma/tools.hpp>

#include <boost/describe.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <gtest/gtest.h>

// Its own namespace: the binary compiles its sources together (FORMA_UNITY_TESTS).
namespace tool_output_mode_test {
namespace {

namespace json = boost::json;
using loopback::outline;
using forma::structured_output_mode;

struct contact {
    std::string name;
    int age = 0;
    std::vector<std::string> languages;
    bool operator==(const contact&) const = default;
};
BOOST_DESCRIBE_STRUCT(contact, (), (name, age, languages))
FORMA_DESCRIBE_FIELDS(contact, (name, .min_length = 2), (age, .minimum = 0, .maximum = 150));

struct trip {
    std::string city;
    std::string advice;
};
BOOST_DESCRIBE_STRUCT(trip, (), (city, advice))

struct weather_query {
    std::string city;
};
BOOST_DESCRIBE_STRUCT(weather_query, (), (city))

const std::string question = "Ada Lovelace, 36, speaks English and French";

// A response as JSON, without what a stream can't match: raw bodies, times and the server's ids.
std::string same(forma::agent_response<> r) {
    r.raw_representation = nullptr;
    r.created_at.reset();
    r.response_id.clear();
    for (auto& m : r.messages) {
        m.created_at.reset();
        m.message_id.clear();
        for (auto& c : m.contents) forma::metadata_of(c) = {};
    }
    return json::serialize(json::value_from(r));
}

// A structured stream read to its end: how many partial events it showed, and the final response.
template <class T>
boost::asio::awaitable<std::pair<std::size_t, forma::agent_response<T>>>
read_structured(forma::structured_update_stream<T> stream) {
    std::size_t partials = 0;
    while (auto event = co_await stream.next()) {
        if (event->is_final()) co_return std::pair(partials, event->response());
        if (event->snapshot()[&T::name].has_value()) ++partials;
    }
    throw std::logic_error("the stream ended without a final event");
}

class tool_output_mode : public loopback::fixture {
protected:
    /// A server that calls functions but refuses JSON Schema response formats.
    forma::testing::model_server& tools_only_server() { return server({.json_schema_supported = false}); }

    forma::openai::client_options tool_mode(forma::testing::model_server& s) {
        auto o = options_for(s);
        o.structured_output_mode = structured_output_mode::tool;
        return o;
    }
};

TEST_F(tool_output_mode, the_clients_list_their_option_mode_first_and_the_strict_dialect) {
    auto& s = tools_only_server();
    using modes = std::vector<structured_output_mode>;
    const forma::openai::chat_client native(io.get_executor(), options_for(s));
    EXPECT_EQ(native.provider().structured_output_modes, (modes{structured_output_mode::native, structured_output_mode::tool}));
    EXPECT_EQ(native.provider().schema_dialect, forma::schema_dialect::openai_strict);
    const forma::openai::responses_client tools(io.get_executor(), tool_mode(s));
    EXPECT_EQ(tools.provider().structured_output_modes, (modes{structured_output_mode::tool, structured_output_mode::native}));
}

TEST_F(tool_output_mode, a_server_without_json_schema_answers_through_a_forced_call_of_final_result) {
    auto& s = tools_only_server();
    forma::openai::chat_client native(io.get_executor(), options_for(s));
    forma::chat_client_agent refused(native, {.name = "extractor"});
    try {
        run(refused.run<contact>(question));
        ADD_FAILURE() << "the server took a json_schema format";
    } catch (const forma::http_error& e) {
        EXPECT_EQ(e.status(), 400);
        EXPECT_NE(e.message().find("structured outputs"), std::string::npos) << e.message();
    }

    forma::openai::chat_client client(io.get_executor(), tool_mode(s));
    forma::chat_client_agent agent(client, {.name = "extractor"});
    const auto response = run(agent.run<contact>(question));
    EXPECT_EQ(response.result().age, 36);
    EXPECT_NE(question.find(response.result().name), std::string::npos) << response.result().name;
    EXPECT_EQ(outline(response), "assistant[text,] "); // the call became the answer's text
    EXPECT_EQ(response.finish_reason, forma::finish_reason::stop());

    const json::object sent = bodies().back();
    EXPECT_FALSE(sent.contains("response_format"));
    const auto& tools = sent.at("tools").as_array();
    ASSERT_EQ(tools.size(), 1u);
    const auto& function = tools[0].at("function").as_object();
    EXPECT_EQ(function.at("name"), "final_result");
    EXPECT_EQ(function.at("parameters"), forma::response_format::for_type<contact>().schema());
    EXPECT_EQ(function.at("strict"), true);
    EXPECT_EQ(sent.at("tool_choice"), "required"); // with final_result alone
}

TEST_F(tool_output_mode, the_answer_equals_the_one_a_server_with_json_schema_gives) {
    // The model server makes both answers from the same schema and seed.
    forma::testing::model_server with_schema(io.get_executor());
    forma::openai::chat_client native(io.get_executor(), options_for(with_schema));
    forma::chat_client_agent native_agent(native, {.name = "extractor"});
    const contact expected = run(native_agent.run<contact>(question)).result();

    auto& s = tools_only_server();
    forma::openai::chat_client client(io.get_executor(), tool_mode(s));
    forma::chat_client_agent agent(client, {.name = "extractor"});
    EXPECT_EQ(run(agent.run<contact>(question)).result(), expected);
}

TEST_F(tool_output_mode, streamed_partials_come_from_the_argument_deltas_and_match_the_whole_run) {
    // Two servers alike, so that both runs get the answer of a first request.
    const forma::testing::model_server_options options{.delta_size = 4, .json_schema_supported = false};
    auto& s = server(options);
    forma::testing::model_server twin(io.get_executor(), options);
    forma::openai::chat_client client(io.get_executor(), tool_mode(s));
    forma::chat_client_agent agent(client, {.name = "extractor", .id = "x"});
    forma::openai::chat_client twin_client(io.get_executor(), tool_mode(twin));
    forma::chat_client_agent twin_agent(twin_client, {.name = "extractor", .id = "x"});

    auto [partials, streamed] = run(read_structured(agent.run_streaming<contact>(question)));
    EXPECT_GT(partials, 3u); // the answer arrives in pieces of 4 bytes
    const auto whole = run(twin_agent.run<contact>(question));
    EXPECT_EQ(streamed.result(), whole.result());
    forma::agent_response<> streamed_plain = streamed;
    EXPECT_EQ(same(streamed_plain), same(whole));
    EXPECT_EQ(json::parse(s.requests()[0].body).at("stream"), true);
}

TEST_F(tool_output_mode, the_agents_tools_run_first_and_final_result_never_runs_as_a_tool) {
    auto& s = tools_only_server();
    int calls = 0;
    auto weather = forma::make_tool("get_weather", "The weather", [&](const weather_query& q) {
        ++calls;
        return "5 degrees in " + q.city;
    });
    forma::openai::chat_client client(io.get_executor(), tool_mode(s));
    forma::chat_client_agent agent(client, {.name = "planner", .tools = {weather}});
    auto session = agent.create_session();

    const auto response = run(agent.run<trip>("Plan a day in Oslo", session));
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(outline(response), "assistant[function_call,] tool[function_result,] assistant[text,] ");
    EXPECT_NE(std::string("Plan a day in Oslo").find(response.result().city), std::string::npos);

    auto sent = bodies();
    ASSERT_EQ(sent.size(), 2u);
    for (const auto& body : sent) {
        EXPECT_EQ(body.at("tool_choice"), "required"); // the model may call get_weather first
        ASSERT_EQ(body.at("tools").as_array().size(), 2u);
        EXPECT_EQ(body.at("tools").at(1).at("function").at("name"), "final_result");
    }

    // The session keeps the answer as text: the next request has no call left unanswered.
    run(agent.run("Thanks", session));
    sent = bodies();
    const auto& history = sent.back().at("messages").as_array();
    for (const auto& m : history) {
        const auto* calls_made = m.as_object().if_contains("tool_calls");
        if (!calls_made) continue;
        for (const auto& call : calls_made->as_array()) EXPECT_NE(call.at("function").at("name"), "final_result");
    }
}

TEST_F(tool_output_mode, a_broken_answer_is_corrected_by_a_validation_retry) {
    auto& s = server({.answer_fault = forma::testing::answer_fault::wrong_type,
                      .answer_fault_attempts = 1,
                      .json_schema_supported = false});
    forma::openai::chat_client client(io.get_executor(), tool_mode(s));
    forma::chat_client_agent agent(client, {.name = "extractor"});
    const auto response = run(agent.run<contact>(question));
    EXPECT_EQ(response.result().age, 36);
    EXPECT_EQ(outline(response), "assistant[text,] user[output_errors,] assistant[text,] ");
    const auto sent = bodies();
    ASSERT_EQ(sent.size(), 2u);
    const auto& messages = sent[1].at("messages").as_array();
    ASSERT_EQ(messages.size(), 3u);
    EXPECT_EQ(messages[1].at("content").as_string(), response.messages[0].text()); // the rejected arguments, as text
    EXPECT_EQ(sent[1].at("tools").at(0).at("function").at("name"), "final_result");
}

TEST_F(tool_output_mode, the_run_and_the_agent_choose_over_the_client) {
    auto& s = server();
    forma::openai::chat_client tool_client(io.get_executor(), tool_mode(s));
    forma::chat_client_agent agent(tool_client, {.name = "a"});
    run(agent.run<contact>(question, nullptr, {.structured_output_mode = structured_output_mode::native}));
    EXPECT_EQ(bodies().back().at("response_format").at("type"), "json_schema");
    EXPECT_FALSE(bodies().back().contains("tools"));

    forma::openai::chat_client native_client(io.get_executor(), options_for(s));
    forma::chat_client_agent tool_agent(
        native_client, {.name = "b", .chat_options = {.structured_output_mode = structured_output_mode::tool}});
    EXPECT_EQ(run(tool_agent.run<contact>(question)).result().age, 36);
    EXPECT_FALSE(bodies().back().contains("response_format"));

    // Other formats are sent natively in tool mode.
    run(tool_agent.run("Hello", nullptr, {.response_format = forma::response_format::json()}));
    EXPECT_EQ(bodies().back().at("response_format").at("type"), "json_object");
    EXPECT_FALSE(bodies().back().contains("tools"));
}

TEST_F(tool_output_mode, a_tool_of_the_answer_tools_name_is_refused_before_sending) {
    auto& s = server();
    auto clash = forma::make_tool("final_result", "Mine", [](const weather_query& q) { return q.city; });
    forma::openai::chat_client client(io.get_executor(), tool_mode(s));
    forma::chat_client_agent agent(client, {.name = "a", .tools = {clash}});
    try {
        run(agent.run<contact>(question));
        ADD_FAILURE() << "no error";
    } catch (const forma::error& e) {
        EXPECT_NE(std::string(e.what()).find("rename the tool"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(s.requests().empty());
}

TEST_F(tool_output_mode, the_responses_api_streams_and_answers_whole_alike) {
    const forma::testing::model_server_options options{.delta_size = 4, .json_schema_supported = false};
    auto& s = server(options);
    forma::testing::model_server twin(io.get_executor(), options);
    forma::openai::responses_client client(io.get_executor(), tool_mode(s));
    forma::chat_client_agent agent(client, {.name = "extractor", .id = "x"});
    forma::openai::responses_client twin_client(io.get_executor(), tool_mode(twin));
    forma::chat_client_agent twin_agent(twin_client, {.name = "extractor", .id = "x"});

    const auto whole = run(agent.run<contact>(question));
    EXPECT_EQ(whole.result().age, 36);
    EXPECT_EQ(outline(whole), "assistant[text,] ");
    const json::object sent = bodies().back();
    EXPECT_FALSE(sent.contains("text"));
    EXPECT_EQ(sent.at("tools").at(0).at("name"), "final_result");
    EXPECT_EQ(sent.at("tools").at(0).at("parameters"), forma::response_format::for_type<contact>().schema());
    EXPECT_EQ(sent.at("tool_choice"), "required"); // with final_result alone

    auto [partials, streamed] = run(read_structured(twin_agent.run_streaming<contact>(question)));
    EXPECT_GT(partials, 3u);
    forma::agent_response<> streamed_plain = streamed;
    EXPECT_EQ(same(streamed_plain), same(whole));
}

} // namespace
} // namespace tool_output_mode_test
