// The agent decorators of middleware/: agent_builder's order, structured_output_agent.
#include <forma/agent/chat_client_agent.hpp>
#include <forma/agent/delegating_agent.hpp>
#include <forma/middleware/agent_builder.hpp>
#include <forma/middleware/structured_output_agent.hpp>
#include <forma/model/agent_response_builder.hpp>

#include "../agent/agent_test_support.hpp"

#include <gtest/gtest.h>

using namespace agent_test;
using forma::chat_client_agent;
using forma::testing::scripted_chat_client;

namespace {

/// A decorator that counts runs and tags the options, to see it in the chain.
class counting_agent : public forma::delegating_agent {
public:
    counting_agent(std::shared_ptr<forma::agent> inner, std::string tag, std::vector<std::string>& order)
        : delegating_agent(std::move(inner)), tag_(std::move(tag)), order_(order) {}
    int runs = 0;

protected:
    boost::asio::awaitable<forma::agent_response<>> run_core(forma::agent_run run) override {
        ++runs;
        order_.push_back(tag_);
        co_return co_await delegating_agent::run_core(std::move(run));
    }

private:
    std::string tag_;
    std::vector<std::string>& order_;
};

class agent_decorators : public ::testing::Test {
protected:
    boost::asio::io_context io;
    scripted_chat_client client{io.get_executor()};
};

} // namespace

TEST_F(agent_decorators, run_typed_works_through_two_stacked_decorators_first_use_outermost) {
    chat_client_agent inner(client, {.name = "inner"});
    std::vector<std::string> order;
    std::shared_ptr<counting_agent> outer, middle;
    auto agent = forma::agent_builder(inner)
                     .use([&](auto a) { return outer = std::make_shared<counting_agent>(a, "outer", order); })
                     .use([&](auto a) { return middle = std::make_shared<counting_agent>(a, "middle", order); })
                     .build();
    client.add_text_response(R"({"name":"Ann","age":30,"occupation":"pilot"})");
    auto response = run_to_completion(io, agent->run<person>("Ann, 30, pilot"));
    EXPECT_EQ(response.result(), (person{"Ann", 30, "pilot"}));
    EXPECT_EQ(order, (std::vector<std::string>{"outer", "middle"}));
    EXPECT_EQ(agent, outer);
    EXPECT_EQ(client.requests().at(0).options.response_format->name(), "person");
    EXPECT_EQ(agent->name(), "inner") << "decorators present the inner agent";
}

TEST_F(agent_decorators, structured_output_agent_converts_the_inner_answer_and_keeps_it) {
    scripted_chat_client converter(io.get_executor());
    chat_client_agent inner(client, {.name = "talker"});
    auto agent = forma::agent_builder(inner).use_structured_output(converter).build();
    client.add_text_response("Ann is a pilot, thirty years old.");
    converter.add_text_response(R"({"name":"Ann","age":30,"occupation":"pilot"})");
    auto response = run_to_completion(io, agent->run<person>("Tell me about Ann."));

    EXPECT_EQ(response.result(), (person{"Ann", 30, "pilot"}));
    ASSERT_NE(response.original_response(), nullptr);
    EXPECT_EQ(response.original_response()->text(), "Ann is a pilot, thirty years old.");
    EXPECT_FALSE(client.requests().at(0).options.response_format) << "the inner agent answers freely";
    const auto& conversion = converter.requests().at(0);
    EXPECT_EQ(conversion.options.response_format->name(), "person");
    EXPECT_EQ(conversion.options.instructions, forma::structured_output_agent::default_instructions);
    EXPECT_EQ(conversion.messages.at(0).text(), "Ann is a pilot, thirty years old.");
}

TEST_F(agent_decorators, structured_output_agent_passes_text_runs_through) {
    scripted_chat_client converter(io.get_executor());
    chat_client_agent inner(client, {.name = "talker"});
    forma::structured_output_agent agent(std::shared_ptr<forma::agent>(&inner, [](auto*) {}), converter);
    client.add_text_response("just text");
    EXPECT_EQ(run_to_completion(io, agent.run("x")).text(), "just text");
    EXPECT_TRUE(converter.requests().empty());
}

TEST_F(agent_decorators, structured_output_agent_streams_the_inner_answer_then_the_conversion) {
    scripted_chat_client converter(io.get_executor());
    chat_client_agent inner(client, {.name = "talker"});
    auto agent = forma::agent_builder(inner).use_structured_output(converter).build();
    client.add_updates({text_update("Ann is ", "m1"), text_update("30.", "m1")});
    converter.add_updates({text_update(R"({"name":"Ann",)"), text_update(R"("age":30,"occupation":null})")});
    auto updates = run_to_completion(
        io, drain(agent->run_streaming("Ann?", nullptr, {.response_format = forma::response_format::for_type<person>()})));
    ASSERT_EQ(updates.size(), 4u);
    EXPECT_EQ(converter.requests().at(0).messages.at(0).text(), "Ann is 30.");
    const auto merged = forma::to_agent_response(updates);
    ASSERT_EQ(merged.messages.size(), 2u) << "the conversion is a message of its own";
    EXPECT_EQ(merged.messages[0].text(), "Ann is 30.");
    EXPECT_EQ(merged.deserialize<person>(), (person{"Ann", 30, std::nullopt}));
}
