// One contract, three clients: the agent, its tool loop, approvals across runs, typed answers
// whole and streamed, a handoff, telemetry and the faults a server injects (broken tool
// arguments, a sloppy typed answer, a cut answer, a failing then recovering server, a refused
// request) behave the same on openai::chat_client, openai::responses_client and
// anthropic::messages_client, each against the local model server's own API over real TLS. A
// case here fails for the provider whose client breaks it.
#include <forma/agent/chat_client_agent.hpp>
#include <forma/anthropic/messages_client.hpp>
#include <forma/chat/chat_client_builder.hpp>
#include <forma/chat/make_tool.hpp>
#include <forma/middleware/agent_builder.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/net/http_error.hpp>
#include <forma/openai/chat_client.hpp>
#include <forma/orchestration/handoff_orchestration.hpp>
#include <forma/openai/responses_client.hpp>
#include <forma/telemetry/gen_ai.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>
#include <forma/testing/model_server.hpp>

#include "support/bounded_run.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;

struct contact {
    std::string name;
    int age = 0;
};
BOOST_DESCRIBE_STRUCT(contact, (), (name, age))

struct city {
    std::string name;
};
BOOST_DESCRIBE_STRUCT(city, (), (name))

enum class provider { openai_chat, openai_responses, anthropic };

std::string provider_name(const ::testing::TestParamInfo<provider>& info) {
    switch (info.param) {
    case provider::openai_chat: return "openai_chat";
    case provider::openai_responses: return "openai_responses";
    case provider::anthropic: return "anthropic";
    }
    return "unknown";
}

class provider_contract : public ::testing::TestWithParam<provider> {
protected:
    provider_contract() : server_(io_.get_executor(), {.delta_size = 4}) {}

    /// The provider's client for `server` (the fixture's unless a case needs a faulty one), over TLS.
    std::shared_ptr<forma::chat_client> client() { return client(server_); }
    std::shared_ptr<forma::chat_client> client(const forma::testing::model_server& server) {
        constexpr forma::net::retry_policy quick_retries{.initial_backoff = 1ms, .jitter = 0};
        if (GetParam() == provider::anthropic)
            return std::make_shared<forma::anthropic::messages_client>(
                io_.get_executor(), forma::anthropic::client_options{.base_url = server.base_url(),
                                                                     .model = "forma-local",
                                                                     .trust = {.ca_certificates = server.certificate_pem()},
                                                                     .retry = quick_retries});
        const forma::openai::client_options options{.base_url = server.base_url(),
                                                    .model = "forma-local",
                                                    .trust = {.ca_certificates = server.certificate_pem()},
                                                    .retry = quick_retries};
        if (GetParam() == provider::openai_responses)
            return std::make_shared<forma::openai::responses_client>(io_.get_executor(), options);
        return std::make_shared<forma::openai::chat_client>(io_.get_executor(), options);
    }

    template <class T>
    T run(asio::awaitable<T> operation) {
        return forma_test::run_bounded(io_, std::move(operation), 30s);
    }

    /// An error in the provider's own shape, as its API sends it.
    forma::testing::scripted_reply provider_error(unsigned status, std::string_view type, std::string_view message) const {
        if (GetParam() != provider::anthropic) return forma::testing::scripted_reply::error(status, type, message);
        boost::json::object body{{"type", "error"},
                                 {"error", boost::json::object{{"type", type}, {"message", message}}},
                                 {"request_id", "req_contract"}};
        return forma::testing::scripted_reply::json(boost::json::serialize(body), status);
    }

    forma::agent_response<> streamed(forma::agent& agent, std::string question, forma::session_ref session = {}) {
        return run([](forma::update_stream stream) -> asio::awaitable<forma::agent_response<>> {
            forma::agent_response_builder builder;
            while (auto update = co_await stream.next()) builder.add(std::move(*update));
            co_return builder.take();
        }(agent.run_streaming(std::move(question), std::move(session))));
    }

    asio::io_context io_;
    forma::testing::model_server server_;
};

TEST_P(provider_contract, a_text_run_is_the_same_whole_and_streamed) {
    const auto c = client();
    forma::chat_client_agent agent(*c);
    const forma::agent_response<> whole = run(agent.run("Say hello to Ada"));
    const forma::agent_response<> stream = streamed(agent, "Say hello to Ada");
    EXPECT_EQ(whole.text(), "You said: Say hello to Ada");
    EXPECT_EQ(stream.text(), whole.text());
    EXPECT_EQ(stream.finish_reason, whole.finish_reason);
    ASSERT_TRUE(whole.usage && stream.usage);
    EXPECT_EQ(stream.usage->input_token_count, whole.usage->input_token_count);
    EXPECT_EQ(stream.usage->output_token_count, whole.usage->output_token_count);
}

TEST_P(provider_contract, the_tool_loop_calls_the_tool_and_answers_after_its_result_whole_and_streamed) {
    const auto c = client();
    int calls = 0;
    forma::chat_client_agent_options options;
    options.chat_options.tools.push_back(forma::make_tool("look_up", "Looks a city up.", [&](city where) {
        ++calls;
        return where.name + " is in Europe";
    }));
    forma::chat_client_agent agent(*c, std::move(options));
    auto whole_session = agent.create_session();
    auto streamed_session = agent.create_session();
    const forma::agent_response<> whole = run(agent.run("Where is Oslo?", whole_session));
    const forma::agent_response<> stream = streamed(agent, "Where is Oslo?", streamed_session);
    EXPECT_EQ(calls, 2) << "one call per run";
    EXPECT_EQ(whole.text(), "You said: Where is Oslo?");
    EXPECT_EQ(stream.text(), whole.text());
    ASSERT_EQ(whole_session->history.size(), streamed_session->history.size());
    EXPECT_EQ(whole_session->history.size(), 4u) << "question, call, result, answer";
}

TEST_P(provider_contract, an_approval_pauses_the_run_and_the_next_run_goes_on) {
    const auto c = client();
    int publishes = 0;
    forma::chat_client_agent_options options;
    options.chat_options.tools.push_back(forma::make_tool(
        "publish", "Publishes the text.",
        [&](city) {
            ++publishes;
            return std::string("published");
        },
        {.requires_approval = true}));
    forma::chat_client_agent agent(*c, std::move(options));
    auto session = agent.create_session();
    const forma::agent_response<> asked = run(agent.run("Publish Oslo", session));
    ASSERT_EQ(asked.approval_requests().size(), 1u) << asked.text();
    EXPECT_EQ(publishes, 0);
    const forma::agent_response<> done = run(agent.run(
        forma::chat_message(forma::chat_role::user(), std::vector<forma::content>{asked.approval_requests()[0].approve()}),
        session));
    EXPECT_EQ(publishes, 1);
    EXPECT_EQ(done.text(), "You said: Publish Oslo");
}

TEST_P(provider_contract, a_typed_answer_is_read_the_same_whole_and_streamed_in_either_mode) {
    for (const auto mode : {forma::structured_output_mode::native, forma::structured_output_mode::tool}) {
        const auto c = client();
        forma::chat_client_agent_options options;
        options.chat_options.structured_output_mode = mode;
        forma::chat_client_agent agent(*c, std::move(options));
        const std::string question = "Ada Lovelace, 36, mathematician";
        const contact whole = run(agent.run<contact>(question)).result();
        auto stream = agent.run_streaming<contact>(question);
        const contact streamed = run([&]() -> asio::awaitable<contact> {
                                     for (;;)
                                         if (auto event = co_await stream.next(); event && event->is_final())
                                             co_return event->response().result();
                                 }());
        EXPECT_EQ(whole.age, 36) << "mode " << static_cast<int>(mode);
        EXPECT_EQ(streamed.age, 36) << "mode " << static_cast<int>(mode);
        for (const contact& c : {whole, streamed}) EXPECT_NE(question.find(c.name), std::string::npos) << c.name;
    }
}

TEST_P(provider_contract, the_chat_span_names_the_provider_under_the_agents_span) {
    auto memory = std::make_shared<forma::telemetry::in_memory_exporter>();
    std::shared_ptr<forma::chat_client> c = forma::chat_client_builder(client()).use_telemetry().build();
    forma::chat_client_agent inner(*c);
    auto agent = forma::agent_builder(inner).use_telemetry({.exporter = memory}).build();
    (void)run(agent->run("Hello"));
    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 2u);
    EXPECT_EQ(spans[0].name, "chat forma-local");
    EXPECT_EQ(spans[0].parent_span_id, spans[1].context.span_id);
    const auto* name = forma::telemetry::find(spans[0].attributes, forma::telemetry::gen_ai::attr::provider_name);
    ASSERT_TRUE(name && std::holds_alternative<std::string>(*name));
    EXPECT_EQ(std::get<std::string>(*name), GetParam() == provider::anthropic ? "anthropic" : "openai");
}

TEST_P(provider_contract, a_handoff_moves_the_conversation_whole_and_streamed_alike) {
    const auto c = client();
    auto triage = std::make_shared<forma::chat_client_agent>(*c, forma::chat_client_agent_options{.name = "triage"});
    auto billing = std::make_shared<forma::chat_client_agent>(*c, forma::chat_client_agent_options{.name = "billing"});
    forma::handoff_orchestration desk({triage, billing}, {.routes = {{"billing", {}}}});
    const forma::agent_response<> whole = run(desk.run("I was charged twice"));
    const forma::agent_response<> stream = streamed(desk, "I was charged twice");
    for (const forma::agent_response<>* response : {&whole, &stream}) {
        EXPECT_EQ(response->text(), "You said: I was charged twice");
        std::vector<forma::handoff_content> handoffs;
        for (const forma::chat_message& m : response->messages)
            for (const forma::content& part : m.contents)
                if (const auto* handoff = std::get_if<forma::handoff_content>(&part)) handoffs.push_back(*handoff);
        ASSERT_EQ(handoffs.size(), 1u);
        EXPECT_EQ(handoffs[0].from, "triage");
        EXPECT_EQ(handoffs[0].to, "billing");
        ASSERT_FALSE(response->messages.empty());
        EXPECT_EQ(response->messages.front().author_name, "triage");
        EXPECT_EQ(response->messages.back().author_name, "billing");
    }
    EXPECT_EQ(stream.messages.size(), whole.messages.size());
}

TEST_P(provider_contract, arguments_that_are_not_json_reach_no_tool_and_the_model_is_told) {
    forma::testing::model_server faulty(io_.get_executor(), {.delta_size = 4, .tool_fault = forma::testing::tool_call_fault::malformed_arguments});
    const auto c = client(faulty);
    int calls = 0;
    forma::chat_client_agent_options options;
    options.chat_options.tools.push_back(forma::make_tool("look_up", "Looks a city up.", [&](city) {
        ++calls;
        return std::string("found");
    }));
    forma::chat_client_agent agent(*c, std::move(options));
    auto whole_session = agent.create_session();
    auto streamed_session = agent.create_session();
    const forma::agent_response<> whole = run(agent.run("Where is Oslo?", whole_session));
    const forma::agent_response<> stream = streamed(agent, "Where is Oslo?", streamed_session);
    EXPECT_EQ(calls, 0);
    EXPECT_EQ(whole.text(), "You said: Where is Oslo?");
    EXPECT_EQ(stream.text(), whole.text());
    for (const auto& session : {whole_session, streamed_session}) {
        ASSERT_EQ(session->history.size(), 4u) << "question, call, result, answer";
        const auto* result = std::get_if<forma::function_result_content>(&session->history[2].contents.at(0));
        ASSERT_NE(result, nullptr);
        EXPECT_TRUE(result->error) << "the result tells the model its arguments were broken";
    }
}

TEST_P(provider_contract, a_typed_answer_that_breaks_its_schema_is_corrected_in_either_mode) {
    for (const auto mode : {forma::structured_output_mode::native, forma::structured_output_mode::tool}) {
        forma::testing::model_server sloppy(io_.get_executor(), {.answer_fault = forma::testing::answer_fault::wrong_type,
                                                                 .answer_fault_attempts = 1});
        const auto c = client(sloppy);
        forma::chat_client_agent_options options;
        options.chat_options.structured_output_mode = mode;
        forma::chat_client_agent agent(*c, std::move(options));
        const contact answer = run(agent.run<contact>("Ada Lovelace, 36, mathematician")).result();
        EXPECT_EQ(answer.age, 36) << "mode " << static_cast<int>(mode);
        EXPECT_EQ(sloppy.requests().size(), 2u) << "one correction, mode " << static_cast<int>(mode);
    }
}

TEST_P(provider_contract, an_answer_cut_at_the_token_limit_says_so_whole_and_streamed) {
    const auto c = client();
    forma::chat_client_agent_options options;
    options.chat_options.max_output_tokens = 2;
    forma::chat_client_agent agent(*c, std::move(options));
    const forma::agent_response<> whole = run(agent.run("Say hello to Ada"));
    const forma::agent_response<> stream = streamed(agent, "Say hello to Ada");
    EXPECT_EQ(whole.text(), "You said:");
    EXPECT_EQ(stream.text(), whole.text());
    EXPECT_EQ(whole.finish_reason, forma::finish_reason::length());
    EXPECT_EQ(stream.finish_reason, whole.finish_reason);
}

TEST_P(provider_contract, a_failing_server_is_retried_and_a_refusal_is_a_typed_error) {
    int failures = 1;
    server_.set_handler([&](const forma::testing::received_request&) -> std::optional<forma::testing::scripted_reply> {
        if (failures-- > 0) return provider_error(GetParam() == provider::anthropic ? 529 : 503, "overloaded_error", "Overloaded");
        return std::nullopt;
    });
    const auto c = client();
    forma::chat_client_agent agent(*c);
    EXPECT_EQ(run(agent.run("Hello")).text(), "You said: Hello");
    EXPECT_EQ(server_.requests().size(), 2u);

    server_.set_handler([&](const forma::testing::received_request&) -> std::optional<forma::testing::scripted_reply> {
        return provider_error(400, "invalid_request_error", "messages: too long");
    });
    for (const bool stream : {false, true}) {
        try {
            if (stream)
                (void)streamed(agent, "Hello");
            else
                (void)run(agent.run("Hello"));
            ADD_FAILURE() << "a 400 is an error, stream " << stream;
        } catch (const forma::http_error& e) {
            EXPECT_EQ(e.status(), 400);
            EXPECT_EQ(e.type(), "invalid_request_error");
            EXPECT_EQ(e.message(), "messages: too long");
        }
    }
    EXPECT_EQ(server_.requests().size(), 4u) << "a 400 is not retried";
}

INSTANTIATE_TEST_SUITE_P(clients, provider_contract,
                         ::testing::Values(provider::openai_chat, provider::openai_responses, provider::anthropic),
                         provider_name);

} // namespace
