// The scenarios of the structured-output design record, one test each.
#include <forma/agent/chat_client_agent.hpp>
#include <forma/json/to_json.hpp>
#include <forma/model/agent_response_builder.hpp>

#include "agent_test_support.hpp"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include <functional>
#include <map>

using namespace agent_test;
using forma::chat_client_agent;
using forma::testing::scripted_chat_client;

namespace {

class scenario : public ::testing::Test {
protected:
    boost::asio::io_context io;
    scripted_chat_client client{io.get_executor()};
};

} // namespace

TEST_F(scenario, text_only_consumption) {
    chat_client_agent agent(client, {.name = "a"});
    forma::agent_response<> scripted(forma::chat_message(
        forma::chat_role::assistant(),
        std::vector<forma::content>{forma::text_reasoning_content("thinking..."), forma::text_content("Paris.")}));
    client.add_response(scripted);
    EXPECT_EQ(run_to_completion(io, agent.run("Capital of France?")).text(), "Paris.");
}

TEST_F(scenario, a_structured_message_passed_to_a_second_agent) {
    chat_client_agent extractor(client, {.name = "extractor"});
    chat_client_agent writer(client, {.name = "writer"});
    client.add_text_response(R"({"name":"Ann","age":30,"occupation":null})");
    client.add_text_response("Ann is 30.");
    auto extracted = run_to_completion(io, extractor.run<person>("Ann turned thirty."));
    auto written = run_to_completion(io, writer.run(extracted.messages));
    EXPECT_EQ(written.text(), "Ann is 30.");
    const auto& handed_over = client.requests().at(1).messages.at(0);
    EXPECT_EQ(handed_over.author_name, "extractor");
    EXPECT_EQ(forma::from_json<person>(handed_over.text()), extracted.result());
}

TEST_F(scenario, a_format_fixed_at_creation) {
    chat_client_agent agent(client, {.name = "a", .response_format = forma::response_format::for_type<person>()});
    client.add_text_response(R"({"name":"Bo","age":4,"occupation":null})");
    auto response = run_to_completion(io, agent.run("Bo is four."));
    EXPECT_EQ(response.deserialize<person>().age, 4);
    EXPECT_EQ(client.requests().at(0).options.response_format->name(), "person");
}

TEST_F(scenario, a_schema_chosen_at_run_time_from_a_type_picked_by_configuration) {
    // A configuration names the type; each entry knows its format and how to show a result.
    struct choice {
        forma::response_format format;
        std::function<std::string(const forma::agent_response<>&)> show;
    };
    using mood_data = std::map<std::string, mood>;
    std::map<std::string, choice> by_name;
    by_name.emplace("person", choice{forma::response_format::for_type<person>(), [](const forma::agent_response<>& r) {
                                         return r.deserialize<person>().name;
                                     }});
    by_name.emplace("mood", choice{forma::response_format::for_type<mood>(), [](const forma::agent_response<>& r) {
                                       return forma::to_json(r.deserialize<mood_data>().at("data"));
                                   }});
    chat_client_agent agent(client, {.name = "a"});
    const std::string configured = "mood";
    client.add_text_response(R"({"data":"happy"})");
    auto response = run_to_completion(io, agent.run("I feel great", nullptr,
                                                    {.response_format = by_name.at(configured).format}));
    EXPECT_EQ(by_name.at(configured).show(response), R"("happy")");
    EXPECT_EQ(client.requests().at(0).options.response_format->name(), "mood");
}

TEST_F(scenario, raw_schema_text_with_no_cpp_type) {
    const char* schema_text = R"({"type":"object","properties":{"city":{"type":"string"},
        "temperature":{"type":"number"}},"required":["city","temperature"],"additionalProperties":false})";
    auto format = forma::response_format::json_schema("weather", schema_text, "Weather report", true);
    chat_client_agent agent(client, {.name = "a"});
    client.add_text_response(R"({"city":"Oslo","temperature":-3.5})");
    auto response = run_to_completion(io, agent.run("Weather in Oslo?", nullptr, {.response_format = format}));
    EXPECT_EQ(client.requests().at(0).options.response_format->schema(), boost::json::parse(schema_text))
        << "a caller's schema is passed through unchanged";
    const auto answer = boost::json::parse(response.text());
    EXPECT_EQ(answer.at("city"), "Oslo");
}

TEST_F(scenario, streaming_then_merge_then_deserialize) {
    chat_client_agent agent(client, {.name = "a", .response_format = forma::response_format::for_type<person>()});
    client.add_updates({text_update(R"({"name":")", "m"), text_update(R"(Cy","age")", "m"),
                        text_update(R"(:7,"occupation":null})", "m")});
    auto updates = run_to_completion(io, drain(agent.run_streaming("Cy is seven.")));
    EXPECT_EQ(updates.size(), 3u);
    const auto merged = forma::to_agent_response(updates);
    EXPECT_EQ(merged.messages.size(), 1u);
    EXPECT_EQ(merged.deserialize<person>(), (person{"Cy", 7, std::nullopt}));
}
