// anthropic::messages_client over real TLS on loopback, against the local model server's
// scripted Messages API answers: headers, bodies, whole and streamed answers, retries, errors.
#include <forma/agent/chat_client_agent.hpp>
#include <forma/chat/chat_client_builder.hpp>
#include <forma/middleware/agent_builder.hpp>
#include <forma/telemetry/gen_ai.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>
#include <forma/chat/make_tool.hpp>
#include <forma/model/output_truncated_error.hpp>
#include <forma/anthropic/messages_client.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/net/http_error.hpp>
#include <forma/testing/model_server.hpp>

#include "support/bounded_run.hpp"
#include "support/without_raw.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp>
#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
using forma::testing::scripted_reply;

struct weather_answer {
    std::string city;
    int degrees = 0;
};
BOOST_DESCRIBE_STRUCT(weather_answer, (), (city, degrees))

const std::string key = "sk-ant-test-key-0123456789abcdef";

const char* whole_answer = R"({"id":"msg_01","type":"message","role":"assistant","model":"claude-test",
  "content":[{"type":"thinking","thinking":"Easy.","signature":"sig-A"},{"type":"text","text":"Lima is the capital."}],
  "stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":12,"cache_creation_input_tokens":2,"cache_read_input_tokens":4,"output_tokens":6}})";

const std::vector<std::string> streamed_answer = {
    R"({"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"usage":{"input_tokens":12,"cache_creation_input_tokens":2,"cache_read_input_tokens":4,"output_tokens":1}}})",
    R"({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}})",
    R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Easy."}})",
    R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig-A"}})",
    R"({"type":"content_block_stop","index":0})",
    R"({"type":"ping"})",
    R"({"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}})",
    R"({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Lima is "}})",
    R"({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"the capital."}})",
    R"({"type":"content_block_stop","index":1})",
    R"({"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":3}})",
    R"({"type":"message_delta","delta":{},"usage":{"output_tokens":6}})",
    R"({"type":"message_stop"})",
};

struct contact {
    std::string name;
    int age = 0;
};
BOOST_DESCRIBE_STRUCT(contact, (), (name, age))

class messages_client_test : public ::testing::Test {
protected:
    forma::testing::model_server& server(forma::testing::model_server_options with = {}) {
        if (!server_) server_ = std::make_unique<forma::testing::model_server>(io.get_executor(), std::move(with));
        return *server_;
    }
    forma::anthropic::client_options options() {
        return {.base_url = server().base_url(), .api_key = key, .betas = {"beta-one", "beta-two"}, .model = "claude-test",
                .trust = {.ca_certificates = server().certificate_pem()},
                .retry = {.initial_backoff = std::chrono::milliseconds(5), .max_backoff = std::chrono::milliseconds(20)}};
    }
    template <class T>
    T run(asio::awaitable<T> operation) {
        return forma_test::run_bounded(io, std::move(operation), std::chrono::seconds(20));
    }
    static std::string header(const forma::testing::received_request& r, std::string_view name) {
        for (const auto& [n, v] : r.headers)
            if (n == name) return v;
        return "(none)";
    }
    static asio::awaitable<std::vector<forma::agent_response_update>> drain(forma::update_stream stream) {
        std::vector<forma::agent_response_update> out;
        while (auto u = co_await stream.next()) out.push_back(std::move(*u));
        co_return out;
    }
    static std::vector<forma::chat_message> ask(std::string text) {
        return {forma::chat_message(forma::chat_role::user(), std::move(text))};
    }

    asio::io_context io;
    std::unique_ptr<forma::testing::model_server> server_;
};

TEST_F(messages_client_test, a_whole_answer_with_the_apis_headers_and_its_rate_limits) {
    forma::anthropic::messages_client client(io.get_executor(), options());
    server().enqueue(scripted_reply::json(whole_answer)
                         .with_header("anthropic-ratelimit-requests-limit", "50")
                         .with_header("anthropic-ratelimit-requests-remaining", "49")
                         .with_header("anthropic-ratelimit-requests-reset", "2099-01-01T00:00:00Z")
                         .with_header("anthropic-ratelimit-tokens-remaining", "9000"));
    const forma::agent_response<> r = run(client.get_response(ask("Capital of Peru?")));
    EXPECT_EQ(r.text(), "Lima is the capital.");
    EXPECT_EQ(r.finish_reason, forma::finish_reason::stop());
    EXPECT_EQ(r.usage->input_token_count, 18);
    ASSERT_TRUE(r.rate_limits);
    EXPECT_EQ(r.rate_limits->limit_requests, 50);
    EXPECT_EQ(r.rate_limits->remaining_tokens, 9000);
    EXPECT_FALSE(r.rate_limits->reset_requests) << "a reset more than a week away is not a reset";

    const auto requests = server().requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].target, "/v1/messages");
    EXPECT_EQ(header(requests[0], "x-api-key"), key);
    EXPECT_EQ(header(requests[0], "anthropic-version"), "2023-06-01");
    EXPECT_EQ(header(requests[0], "anthropic-beta"), "beta-one,beta-two");
    EXPECT_EQ(header(requests[0], "Authorization"), "(none)");
    const boost::json::value body = boost::json::parse(requests[0].body);
    EXPECT_EQ(body.at("model"), "claude-test");
    EXPECT_EQ(body.at("max_tokens"), 4096);
}

TEST_F(messages_client_test, the_streamed_answer_merges_into_the_whole_one) {
    forma::anthropic::messages_client client(io.get_executor(), options());
    server().enqueue(scripted_reply::json(whole_answer));
    server().enqueue(scripted_reply::response_events(streamed_answer));
    const forma::agent_response<> whole = run(client.get_response(ask("Capital of Peru?")));
    const std::vector<forma::agent_response_update> updates = run(drain(client.get_streaming_response(ask("Capital of Peru?"))));
    EXPECT_GT(updates.size(), 4u);
    EXPECT_EQ(forma_test::without_raw(forma::to_agent_response(updates)), forma_test::without_raw(whole));
    EXPECT_EQ(boost::json::parse(server().requests().at(1).body).at("stream"), true);
}

TEST_F(messages_client_test, overloaded_is_retried_and_an_error_says_its_type_without_the_key) {
    forma::anthropic::messages_client client(io.get_executor(), options());
    server().enqueue(scripted_reply::json(R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})", 529)
                         .with_header("retry-after", "0"));
    server().enqueue(scripted_reply::json(whole_answer));
    EXPECT_EQ(run(client.get_response(ask("Hi"))).text(), "Lima is the capital.");
    EXPECT_EQ(server().requests().size(), 2u);

    server().enqueue(scripted_reply::json(
        R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key )" + key + R"("}})", 401));
    try {
        (void)run(client.get_response(ask("Hi")));
        ADD_FAILURE() << "no error";
    } catch (const forma::http_error& e) {
        EXPECT_EQ(e.status(), 401);
        EXPECT_EQ(e.type(), "authentication_error");
        EXPECT_EQ(std::string(e.what()).find(key), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("[redacted]"), std::string::npos) << e.what();
    }
}

TEST_F(messages_client_test, count_tokens_asks_its_own_endpoint) {
    forma::anthropic::messages_client client(io.get_executor(), options());
    server().enqueue(scripted_reply::json(R"({"input_tokens":42})"));
    EXPECT_EQ(run(client.count_tokens(ask("How many?"))), 42);
    const auto requests = server().requests();
    EXPECT_EQ(requests.at(0).target, "/v1/messages/count_tokens");
    EXPECT_FALSE(boost::json::parse(requests[0].body).as_object().contains("max_tokens"));
}

TEST_F(messages_client_test, run_typed_reads_the_answer_in_either_mode) {
    forma::anthropic::messages_client client(io.get_executor(), options());
    const forma::provider_metadata provider = client.provider();
    EXPECT_EQ(provider.name, "anthropic");
    EXPECT_EQ(provider.structured_output_modes.front(), forma::structured_output_mode::native);
    forma::chat_client_agent agent(client);

    server().enqueue(scripted_reply::json(
        R"({"id":"m1","content":[{"type":"text","text":"{\"city\":\"Oslo\",\"degrees\":5}"}],"stop_reason":"end_turn"})"));
    EXPECT_EQ(run(agent.run<weather_answer>("Weather in Oslo?")).result().degrees, 5);
    EXPECT_TRUE(boost::json::parse(server().requests().back().body).as_object().contains("output_config"));

    forma::anthropic::client_options tool_mode = options();
    tool_mode.structured_output_mode = forma::structured_output_mode::tool;
    forma::anthropic::messages_client tool_client(io.get_executor(), tool_mode);
    forma::chat_client_agent tool_agent(tool_client);
    server().enqueue(scripted_reply::json(
        R"({"id":"m2","content":[{"type":"tool_use","id":"toolu_1","name":"final_result","input":{"city":"Oslo","degrees":6}}],"stop_reason":"tool_use"})"));
    EXPECT_EQ(run(tool_agent.run<weather_answer>("Weather in Oslo?")).result().degrees, 6);
    const boost::json::value sent = boost::json::parse(server().requests().back().body);
    EXPECT_EQ(sent.at("tools").at(0).at("name"), "final_result");
    EXPECT_EQ(sent.at("tool_choice").at("type"), "any");
}

TEST_F(messages_client_test, the_chat_span_names_anthropic_and_the_cache_tokens) {
    namespace attr = forma::telemetry::gen_ai::attr;
    auto memory = std::make_shared<forma::telemetry::in_memory_exporter>();
    std::shared_ptr<forma::chat_client> client =
        forma::chat_client_builder(std::make_shared<forma::anthropic::messages_client>(io.get_executor(), options()))
            .use_telemetry()
            .build();
    forma::chat_client_agent inner(*client);
    auto agent = forma::agent_builder(inner).use_telemetry({.exporter = memory}).build();
    server().enqueue(scripted_reply::json(whole_answer));
    EXPECT_EQ(run(agent->run("Capital of Peru?")).text(), "Lima is the capital.");
    const std::optional<forma::telemetry::span_data> chat = memory->find_span("chat claude-test");
    ASSERT_TRUE(chat);
    const auto number = [&](std::string_view key) -> std::int64_t {
        const auto* v = forma::telemetry::find(chat->attributes, key);
        return v && std::holds_alternative<std::int64_t>(*v) ? std::get<std::int64_t>(*v) : -1;
    };
    const auto* provider = forma::telemetry::find(chat->attributes, attr::provider_name);
    ASSERT_TRUE(provider && std::holds_alternative<std::string>(*provider));
    EXPECT_EQ(std::get<std::string>(*provider), "anthropic");
    EXPECT_EQ(number(attr::usage_input_tokens), 18);
    EXPECT_EQ(number(attr::usage_cache_read_input_tokens), 4);
    EXPECT_EQ(number(attr::usage_cache_creation_input_tokens), 2);
    EXPECT_EQ(number(attr::usage_output_tokens), 6);
}

// ---- the local model server's generated Messages answers ----

// What a structured stream read: how many partials held a name, and the final response.
template <class T>
asio::awaitable<std::pair<std::size_t, forma::agent_response<T>>> read_structured(forma::structured_update_stream<T> stream) {
    std::size_t partials = 0;
    while (auto event = co_await stream.next()) {
        if (event->is_final()) co_return std::pair(partials, event->response());
        if (event->snapshot()[&T::name].has_value()) ++partials;
    }
    throw std::logic_error("the stream ended without a final event");
}

TEST_F(messages_client_test, a_generated_answer_whole_and_streamed_in_pieces_is_the_same) {
    server({.delta_size = 3});
    forma::anthropic::messages_client client(io.get_executor(), options());
    const forma::agent_response<> whole = run(client.get_response(ask("Say hello to Ada")));
    const auto updates = run(drain(client.get_streaming_response(ask("Say hello to Ada"))));
    EXPECT_EQ(whole.text(), "You said: Say hello to Ada");
    EXPECT_GT(updates.size(), 5u);
    forma::agent_response<> merged = forma_test::without_raw(forma::to_agent_response(updates));
    forma::agent_response<> expected = forma_test::without_raw(whole);
    merged.response_id = expected.response_id = ""; // each request has its own id
    for (auto* r : {&merged, &expected}) r->messages.at(0).message_id = "";
    EXPECT_EQ(merged, expected);
    EXPECT_EQ(whole.usage->input_token_count, 4);
    EXPECT_EQ(whole.usage->output_token_count, 6);
    EXPECT_EQ(run(client.count_tokens(ask("Say hello to Ada"))), 4);
}

TEST_F(messages_client_test, the_agents_tool_loop_runs_over_the_messages_api) {
    server();
    forma::anthropic::messages_client client(io.get_executor(), options());
    forma::chat_client_agent_options agent_options;
    agent_options.chat_options.tools.push_back(forma::make_tool(
        "get_weather", "The weather in a city.", [](weather_answer a) { return a.city + ": " + std::to_string(a.degrees) + " degrees"; }));
    forma::chat_client_agent agent(client, std::move(agent_options));
    const forma::agent_response<> r = run(agent.run("Weather in Oslo?"));
    EXPECT_EQ(r.text().rfind("You said: ", 0), 0u) << r.text();
    const auto requests = server().requests();
    ASSERT_EQ(requests.size(), 2u);
    const boost::json::value second = boost::json::parse(requests[1].body);
    const boost::json::array& turns = second.at("messages").as_array();
    ASSERT_EQ(turns.size(), 3u);
    EXPECT_EQ(turns[1].at("content").at(0).at("type"), "tool_use");
    EXPECT_EQ(turns[2].at("role"), "user");
    EXPECT_EQ(turns[2].at("content").at(0).at("type"), "tool_result");
    EXPECT_EQ(turns[2].at("content").at(0).at("tool_use_id"), turns[1].at("content").at(0).at("id"));
}

TEST_F(messages_client_test, run_typed_natively_and_in_tool_mode_and_its_stream_read_the_same_value) {
    server({.delta_size = 4});
    const std::string question = "Ada Lovelace, 36, mathematician";
    forma::anthropic::messages_client native(io.get_executor(), options());
    forma::chat_client_agent native_agent(native);
    const contact expected = run(native_agent.run<contact>(question)).result();
    EXPECT_EQ(expected.age, 36);

    forma::anthropic::client_options tool_mode = options();
    tool_mode.structured_output_mode = forma::structured_output_mode::tool;
    forma::anthropic::messages_client tools(io.get_executor(), tool_mode);
    forma::chat_client_agent tool_agent(tools);
    const auto whole = run(tool_agent.run<contact>(question));
    auto [partials, streamed] = run(read_structured(tool_agent.run_streaming<contact>(question)));
    EXPECT_GT(partials, 2u); // the tool's input arrives in pieces of 4 bytes
    // Each request draws its own phrase of the question for the name (the generator's seed is per request).
    for (const contact& c : {expected, whole.result(), streamed.result()}) {
        EXPECT_EQ(c.age, 36);
        EXPECT_NE(question.find(c.name), std::string::npos) << c.name;
    }
}

TEST_F(messages_client_test, an_answer_cut_at_the_limit_is_an_output_truncated_error_and_a_bad_one_is_retried) {
    server({.answer_fault = forma::testing::answer_fault::wrong_type, .answer_fault_attempts = 1});
    forma::anthropic::messages_client client(io.get_executor(), options());
    forma::chat_client_agent agent(client);
    const auto corrected = run(agent.run<contact>("Ada Lovelace, 36, mathematician"));
    EXPECT_EQ(corrected.result().age, 36);
    EXPECT_EQ(server().requests().size(), 2u) << "one validation retry";

    // A server without faults, whose answer {"name":"<a phrase of two words>",...} is two words: one is the limit.
    forma::testing::model_server plain(io.get_executor());
    forma::anthropic::client_options short_answers = options();
    short_answers.base_url = plain.base_url();
    short_answers.trust.ca_certificates = plain.certificate_pem();
    short_answers.max_tokens = 1;
    forma::anthropic::messages_client cut(io.get_executor(), short_answers);
    forma::chat_client_agent cut_agent(cut, {.max_output_retries = 0});
    const auto truncated = run(cut_agent.run<contact>("Ada Lovelace, the mathematician, 36")); // every phrase two words
    EXPECT_EQ(truncated.finish_reason, forma::finish_reason::length());
    EXPECT_THROW((void)truncated.result(), forma::output_truncated_error);
}

} // namespace
