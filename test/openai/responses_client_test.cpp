// openai::responses_client over real TLS on loopback against the local model server: creation
// whole and streamed, structured output, tools, background runs (poll, resume after a drop,
// cancel, a token through JSON to a second client), and the errors of bad tokens and ids.
#include "loopback.hpp"

#include <forma/agent/chat_client_agent.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/chat/telemetry_chat_client.hpp>
#include <forma/openai/responses_client.hpp>
#include <forma/telemetry/gen_ai.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>
#include <forma/tools.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/describe.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

// Its own namespace: the binary compiles its sources together (FORMA_UNITY_TESTS).
namespace responses_client_test {
namespace {

using namespace std::chrono_literals;
using forma::testing::scripted_reply;
using forma::testing::scripted_tool_call;
using loopback::ask;
using loopback::drain;
namespace asio = boost::asio;
namespace json = boost::json;
using forma::openai::responses_client;
using forma::openai::responses_token;

struct city_fact {
    std::string city;
    int population = 0;
};
BOOST_DESCRIBE_STRUCT(city_fact, (), (city, population))

struct city_query {
    std::string city;
};
BOOST_DESCRIBE_STRUCT(city_query, (), (city))

// What a stream can't match of a whole response: raw bodies and the second the server stamps.
forma::agent_response<> comparable(forma::agent_response<> r) {
    r.raw_representation = nullptr;
    r.created_at.reset();
    for (auto& m : r.messages) {
        m.created_at.reset();
        for (auto& c : m.contents) std::visit([](auto& k) { k.raw_representation = nullptr; }, c);
    }
    return r;
}

class responses_over_tls : public loopback::fixture {
protected:
    responses_client& client(forma::openai::responses_client_options settings = {},
                             forma::testing::model_server_options server_options = {}) {
        auto& s = server(std::move(server_options));
        clients_.push_back(std::make_unique<responses_client>(io.get_executor(), options_for(s), std::move(settings)));
        return *clients_.back();
    }

    // Polls with the token until the run ends (at most `polls` times, `wait` apart).
    forma::agent_response<> poll_to_end(responses_client& c, forma::agent_response<> r, int polls = 200,
                                        std::chrono::milliseconds wait = 5ms) {
        for (int i = 0; i < polls && r.continuation_token; ++i) {
            pause(wait);
            r = run([&]() -> asio::awaitable<forma::agent_response<>> {
                forma::chat_options poll; // named: GCC 12 mishandles braced temporaries in co_await
                poll.continuation_token = r.continuation_token;
                std::vector<forma::chat_message> none;
                co_return co_await c.get_response(std::move(none), std::move(poll));
            }());
        }
        return r;
    }

    // Lets the server's clock move on between polls (the io_context runs meanwhile).
    void pause(std::chrono::milliseconds wait) {
        (void)run([&]() -> asio::awaitable<bool> {
            asio::steady_timer timer(io, wait);
            co_await timer.async_wait(asio::use_awaitable);
            co_return true;
        }());
    }

    std::vector<json::object> sent_bodies() {
        std::vector<json::object> out;
        for (const auto& request : server().requests())
            if (request.method == "POST" && request.target.ends_with("/responses"))
                out.push_back(json::parse(request.body).as_object());
        return out;
    }

    std::vector<std::unique_ptr<responses_client>> clients_;
};

TEST_F(responses_over_tls, a_whole_answer_and_a_streamed_one_are_equal) {
    auto& c = client();
    const auto whole = run(c.get_response(ask("Hello there"), {}));
    EXPECT_EQ(whole.text(), "You said: Hello there");
    EXPECT_EQ(whole.finish_reason, forma::finish_reason::stop());
    EXPECT_TRUE(whole.response_id.starts_with("resp_"));
    ASSERT_TRUE(whole.usage);
    EXPECT_GT(*whole.usage->output_token_count, 0);
    EXPECT_FALSE(whole.continuation_token);

    const auto updates = run(drain(c.get_streaming_response(ask("Hello there"), {})));
    EXPECT_GT(updates.size(), 3u);
    for (const auto& u : updates) EXPECT_FALSE(u.continuation_token); // not a background run
    auto streamed = forma::to_agent_response(updates);
    // Two requests: two response ids.
    streamed.response_id = whole.response_id;
    for (auto& m : streamed.messages) m.message_id = whole.response_id;
    EXPECT_EQ(comparable(streamed), comparable(whole));

    const auto bodies = sent_bodies();
    ASSERT_EQ(bodies.size(), 2u);
    EXPECT_EQ(bodies[0].at("input").at(0).at("content"), "Hello there");
    EXPECT_FALSE(bodies[0].contains("stream"));
    EXPECT_EQ(bodies[1].at("stream"), true);
}

TEST_F(responses_over_tls, run_of_a_type_reads_the_schema_driven_answer_whole_and_streamed) {
    auto& c = client();
    forma::chat_client_agent agent(c, {.name = "facts"});
    const auto fact = run(agent.run<city_fact>("Oslo has many people"));
    EXPECT_FALSE(fact.result().city.empty());
    const auto body = sent_bodies().at(0);
    EXPECT_EQ(body.at("text").at("format").at("type"), "json_schema");
    EXPECT_EQ(body.at("text").at("format").at("strict"), true);

    auto stream = agent.run_streaming<city_fact>("Oslo has many people");
    const auto last = run([&]() -> asio::awaitable<std::optional<city_fact>> {
        std::optional<city_fact> final_value;
        while (auto event = co_await stream.next())
            if (event->is_final()) final_value = event->result();
        co_return final_value;
    }());
    ASSERT_TRUE(last);
    EXPECT_FALSE(last->city.empty());
}

TEST_F(responses_over_tls, the_tool_loop_runs_over_the_responses_api) {
    auto& c = client();
    int calls = 0;
    auto lookup = forma::make_tool("lookup_city", "Facts about a city", [&](const city_query& q) {
        ++calls;
        return "sunny in " + q.city;
    });
    forma::chat_client_agent agent(c, {.name = "with_tools", .tools = {lookup}});
    const auto r = run(agent.run("What about Oslo?"));
    EXPECT_EQ(calls, 1);
    EXPECT_TRUE(r.text().starts_with("You said:")) << r.text();
    const auto bodies = sent_bodies();
    ASSERT_EQ(bodies.size(), 2u);
    EXPECT_EQ(bodies[0].at("tools").at(0).at("name"), "lookup_city");
    // The second request carries the call and its output as items.
    const auto& input = bodies[1].at("input").as_array();
    ASSERT_GE(input.size(), 3u);
    EXPECT_EQ(input[input.size() - 2].at("type"), "function_call");
    EXPECT_EQ(input.back().at("type"), "function_call_output");
    EXPECT_EQ(input.back().at("call_id"), input[input.size() - 2].at("call_id"));
}

TEST_F(responses_over_tls, reasoning_comes_back_and_goes_back_with_its_encrypted_content) {
    auto& c = client({.store = false, .include_encrypted_reasoning = true}, {.reasoning_summary = "Counting words first."});
    const auto first = run(c.get_response(ask("One two"), {}));
    ASSERT_FALSE(first.messages.empty());
    const auto* reasoning = std::get_if<forma::text_reasoning_content>(&first.messages[0].contents.at(0));
    ASSERT_NE(reasoning, nullptr);
    EXPECT_EQ(reasoning->text, "Counting words first.");
    ASSERT_TRUE(reasoning->protected_data);
    EXPECT_GT(*first.usage->reasoning_token_count, 0);
    EXPECT_EQ(first.text(), "You said: One two"); // reasoning is never text

    auto history = ask("One two");
    history.push_back(first.messages[0]);
    history.push_back(forma::chat_message(forma::chat_role::user(), "Three"));
    (void)run(c.get_response(history, {}));
    const auto bodies = sent_bodies();
    const auto& input = bodies.at(1).at("input").as_array();
    const auto item = std::find_if(input.begin(), input.end(), [](const json::value& i) {
        return i.as_object().contains("type") && i.at("type") == "reasoning";
    });
    ASSERT_NE(item, input.end());
    EXPECT_EQ(item->at("encrypted_content"), json::value(*reasoning->protected_data));
}

TEST_F(responses_over_tls, a_server_side_conversation_sends_only_the_new_messages) {
    auto& c = client({.server_side_conversation = true});
    forma::chat_client_agent agent(c, {.name = "remembering"});
    auto session = agent.create_session();
    const auto first = run(agent.run("My name is Ada", session));
    const auto second = run(agent.run("What is my name?", session));
    EXPECT_EQ(second.text(), "You said: What is my name?");
    const auto bodies = sent_bodies();
    ASSERT_EQ(bodies.size(), 2u);
    EXPECT_FALSE(bodies[0].contains("previous_response_id"));
    EXPECT_EQ(bodies[1].at("previous_response_id"), json::value(first.response_id));
    EXPECT_EQ(bodies[1].at("input"), json::parse(R"([{"type":"message","role":"user","content":"What is my name?"}])"));
    EXPECT_EQ(session->history.size(), 4u); // the session still holds the whole conversation
}

TEST_F(responses_over_tls, a_background_run_answers_with_a_token_and_polls_to_the_end) {
    auto& c = client({}, {.background_duration = 200ms});
    const auto started = run(c.get_response(ask("Take your time"), {.allow_background_responses = true}));
    EXPECT_TRUE(started.messages.empty());
    ASSERT_TRUE(started.continuation_token);
    EXPECT_EQ(responses_token::from(*started.continuation_token).response_id, started.response_id);
    const auto body = sent_bodies().at(0);
    EXPECT_EQ(body.at("background"), true);

    const auto done = poll_to_end(c, started);
    EXPECT_FALSE(done.continuation_token);
    EXPECT_EQ(done.text(), "You said: Take your time");
    EXPECT_EQ(done.finish_reason, forma::finish_reason::stop());
    std::size_t polls = 0;
    for (const auto& request : server().requests()) polls += request.method == "GET";
    EXPECT_GE(polls, 1u);
}

TEST_F(responses_over_tls, a_token_passed_through_json_lets_another_client_finish_the_run) {
    auto& first = client({}, {.background_duration = 100ms});
    const auto started = run(first.get_response(ask("Hand me over"), {.allow_background_responses = true}));
    ASSERT_TRUE(started.continuation_token);
    const std::string stored = started.continuation_token->to_string(); // e.g. kept in a database

    auto& second = client(); // another instance: its own connections, nothing shared
    forma::agent_response<> resumed;
    resumed.continuation_token = forma::continuation_token::parse(stored);
    const auto done = poll_to_end(second, resumed);
    EXPECT_EQ(done.text(), "You said: Hand me over");
}

TEST_F(responses_over_tls, run_of_a_type_works_across_a_background_run) {
    auto& c = client({}, {.background_duration = 100ms});
    forma::chat_client_agent agent(c, {.name = "slow_facts"});
    auto session = agent.create_session();
    auto r = run(agent.run<city_fact>("Bergen is rainy", session, {.allow_background_responses = true}));
    for (int i = 0; i < 200 && r.continuation_token; ++i) {
        pause(5ms);
        r = run(agent.run<city_fact>(std::vector<forma::chat_message>{}, session,
                                     {.continuation_token = r.continuation_token}));
    }
    ASSERT_FALSE(r.continuation_token);
    EXPECT_FALSE(r.result().city.empty());
    // The session holds the question and the answer once each.
    ASSERT_EQ(session->history.size(), 2u);
    EXPECT_EQ(session->history[1].role, forma::chat_role::assistant());
}

TEST_F(responses_over_tls, a_background_run_with_tools_polls_calls_and_answers) {
    auto& c = client({}, {.background_duration = 60ms});
    int calls = 0;
    auto lookup = forma::make_tool("lookup_city", "Facts about a city", [&](const city_query&) {
        ++calls;
        return std::string("rainy");
    });
    forma::chat_client_agent agent(c, {.name = "slow_tools", .tools = {lookup}});
    auto session = agent.create_session();
    auto r = run(agent.run("Weather in Bergen?", session, {.allow_background_responses = true}));
    int polls = 0;
    // Each poll allows the background too: the request that sends the call's result is one.
    for (; polls < 400 && r.continuation_token; ++polls) {
        pause(5ms);
        r = run(agent.run(std::vector<forma::chat_message>{}, session,
                          {.continuation_token = r.continuation_token, .allow_background_responses = true}));
    }
    ASSERT_FALSE(r.continuation_token);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(r.text(), "You said: Weather in Bergen?");
    // The call's results went out in a new request, not in a poll of the old one.
    const auto bodies = sent_bodies();

    ASSERT_EQ(bodies.size(), 2u);
    EXPECT_EQ(bodies[1].at("input").as_array().back().at("type"), "function_call_output");
    EXPECT_EQ(bodies[1].at("background"), true);
}

TEST_F(responses_over_tls, a_background_stream_resumes_after_a_drop_without_losing_or_repeating_a_delta) {
    auto& c = client({}, {.delta_size = 3, .background_duration = 150ms, .drop_stream_after_events = 7});
    const std::string question = "Resume me after the connection drops, please";
    auto first = c.get_streaming_response(ask(question), {.allow_background_responses = true});
    std::vector<forma::agent_response_update> got;
    // Reads a stream into `got`; whether it broke off.
    auto read = [&](forma::update_stream& stream) -> asio::awaitable<bool> {
        try {
            while (auto u = co_await stream.next()) got.push_back(std::move(*u));
        } catch (const forma::error&) {
            co_return true;
        }
        co_return false;
    };
    ASSERT_TRUE(run(read(first)));
    ASSERT_FALSE(got.empty());
    for (const auto& u : got) ASSERT_TRUE(u.continuation_token);

    // Resume from the last token seen, as often as the server drops (each stream gives 7 events).
    for (int attempt = 0; attempt < 50 && got.back().continuation_token; ++attempt) {
        auto resumed = c.get_streaming_response({}, {.continuation_token = got.back().continuation_token});
        (void)run(read(resumed));
    }
    const auto merged = forma::to_agent_response(got);
    EXPECT_FALSE(merged.continuation_token);
    EXPECT_EQ(merged.text(), "You said: " + question);
    EXPECT_EQ(merged.finish_reason, forma::finish_reason::stop());
    // Sequence numbers only grow: nothing was handed out twice.
    std::int64_t last = -1;
    for (const auto& u : got)
        if (u.continuation_token) {
            const auto at = responses_token::from(*u.continuation_token).sequence_number.value();
            EXPECT_GT(at, last);
            last = at;
        }
    std::size_t resumptions = 0;
    for (const auto& request : server().requests())
        resumptions += request.method == "GET" && request.target.find("starting_after=") != std::string::npos;
    EXPECT_GE(resumptions, 1u);
}

TEST_F(responses_over_tls, an_agent_session_keeps_the_whole_answer_of_a_stream_resumed_after_drops) {
    auto& c = client({}, {.delta_size = 3, .background_duration = 100ms, .drop_stream_after_events = 9});
    forma::chat_client_agent agent(c, {.name = "resumer"});
    auto session = agent.create_session();
    const std::string question = "Keep the whole answer in my session, please";
    std::optional<forma::continuation_token> last;
    auto read = [&](forma::update_stream& stream) -> asio::awaitable<bool> {
        try {
            while (auto u = co_await stream.next()) last = u->continuation_token;
        } catch (const forma::error&) {
            co_return true;
        }
        co_return false;
    };
    auto first = agent.run_streaming(question, session, {.allow_background_responses = true});
    ASSERT_TRUE(run(read(first)));
    ASSERT_EQ(session->history.size(), 2u); // the question and the part that came
    for (int attempt = 0; attempt < 50 && last; ++attempt) {
        auto resumed = agent.run_streaming(std::vector<forma::chat_message>{}, session, {.continuation_token = last});
        (void)run(read(resumed));
    }
    ASSERT_FALSE(last);
    ASSERT_EQ(session->history.size(), 2u);
    EXPECT_EQ(session->history[1].text(), "You said: " + question);

    // A whole answer polled after a drop replaces the part the stream stored.
    auto second = agent.run_streaming("And once more", session, {.allow_background_responses = true});
    ASSERT_TRUE(run(read(second)));
    ASSERT_EQ(session->history.size(), 4u);
    auto r = run(agent.run(std::vector<forma::chat_message>{}, session, {.continuation_token = last}));
    for (int i = 0; i < 200 && r.continuation_token; ++i) {
        pause(5ms);
        r = run(agent.run(std::vector<forma::chat_message>{}, session, {.continuation_token = r.continuation_token}));
    }
    ASSERT_EQ(session->history.size(), 4u);
    EXPECT_EQ(session->history[3].text(), "You said: And once more");
}

TEST_F(responses_over_tls, cancel_stops_a_background_run) {
    auto& c = client({}, {.background_duration = 10s});
    const auto started = run(c.get_response(ask("Never mind"), {.allow_background_responses = true}));
    ASSERT_TRUE(started.continuation_token);
    const auto cancelled = run(c.cancel(*started.continuation_token));
    EXPECT_FALSE(cancelled.continuation_token);
    EXPECT_FALSE(cancelled.finish_reason);
    const auto after = run(c.get_response({}, {.continuation_token = started.continuation_token}));
    EXPECT_FALSE(after.continuation_token);
    EXPECT_EQ(after.raw_representation.at("status"), "cancelled");
    bool saw_cancel = false;
    for (const auto& request : server().requests())
        saw_cancel = saw_cancel || (request.method == "POST" && request.target.ends_with("/cancel"));
    EXPECT_TRUE(saw_cancel);
}

TEST_F(responses_over_tls, bad_tokens_and_unknown_ids_are_clear_errors) {
    auto& c = client();
    EXPECT_THROW((void)run(c.get_response({}, {.continuation_token = forma::continuation_token("resp_1")})),
                 forma::error);
    try {
        (void)run(c.get_response(
            {}, {.continuation_token = responses_token{"resp_never_made"}.to_continuation_token()}));
        FAIL() << "an unknown id was polled";
    } catch (const forma::http_error& e) {
        EXPECT_EQ(e.status(), 404);
        EXPECT_NE(std::string(e.what()).find("resp_never_made"), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find("sk-test-secret"), std::string::npos);
    }
    EXPECT_THROW((void)run(drain(c.get_streaming_response(
                     {}, {.continuation_token = responses_token{"resp_never_made", 3}.to_continuation_token()}))),
                 forma::http_error);
}

TEST_F(responses_over_tls, a_resumption_answered_whole_is_refused_rather_than_repeated) {
    auto& c = client();
    server().enqueue(scripted_reply::response_text("Everything again"));
    try {
        (void)run(drain(c.get_streaming_response(
            {}, {.continuation_token = responses_token{"resp_1", 5}.to_continuation_token()})));
        FAIL() << "a whole answer to a resumption was handed out";
    } catch (const forma::stream_error& e) {
        EXPECT_EQ(e.kind(), forma::stream_error_kind::protocol);
        EXPECT_NE(std::string(e.what()).find("after sequence number 5"), std::string::npos) << e.what();
    }
}

TEST_F(responses_over_tls, azure_needs_an_api_version_with_the_responses_api) {
    auto options = options_for(server());
    options.azure = forma::openai::azure_options{.deployment = "my-gpt"}; // the default api_version is older
    try {
        responses_client old(io.get_executor(), options);
        FAIL() << "an api_version without the Responses API was accepted";
    } catch (const forma::error& e) {
        EXPECT_NE(std::string(e.what()).find("2025-03-01-preview"), std::string::npos) << e.what();
    }
    options.azure->api_version = "2025-04-01-preview";
    server().enqueue(scripted_reply::response_text("Hi from Azure"));
    responses_client azure(io.get_executor(), options);
    EXPECT_EQ(run(azure.get_response(ask("Hi"), {})).text(), "Hi from Azure");
    const auto request = server().requests().back();
    EXPECT_EQ(request.target, "/v1/responses?api-version=2025-04-01-preview");
    EXPECT_EQ(request.header("api-key"), options.api_key);
    EXPECT_EQ(json::parse(request.body).at("model"), "my-gpt");
}

TEST_F(responses_over_tls, a_5xx_on_a_poll_is_retried) {
    auto& c = client({}, {.background_duration = 50ms});
    const auto started = run(c.get_response(ask("Retry my poll"), {.allow_background_responses = true}));
    int failures = 0;
    server().set_handler([&](const forma::testing::received_request& r) -> std::optional<scripted_reply> {
        if (r.method == "GET" && failures < 2) {
            ++failures;
            return scripted_reply::error(503, "server_error", "busy");
        }
        return std::nullopt;
    });
    const auto done = poll_to_end(c, started);
    EXPECT_EQ(failures, 2);
    EXPECT_EQ(done.text(), "You said: Retry my poll");
}

TEST_F(responses_over_tls, malformed_and_unknown_events_from_the_server) {
    auto& c = client();
    server().enqueue(scripted_reply::response_events(
        {R"({"type":"response.created","sequence_number":0,"response":{"id":"resp_x","status":"in_progress","output":[]}})",
         R"({"type":"response.future_thing","sequence_number":1,"note":"kept"})",
         R"({"type":"response.output_text.delta","sequence_number":2,"item_id":"m","output_index":0,"content_index":0,"delta":"ok"})",
         R"({"type":"response.completed","sequence_number":3,"response":{"id":"resp_x","status":"completed","output":[]}})"}));
    const auto updates = run(drain(c.get_streaming_response(ask("x"), {})));
    const auto merged = forma::to_agent_response(updates);
    EXPECT_EQ(merged.text(), "ok");
    EXPECT_TRUE(std::any_of(updates.begin(), updates.end(),
                            [](const auto& u) { return u.raw_representation.is_object(); }));

    server().enqueue(scripted_reply::response_events(
        {R"({"type":"response.created","sequence_number":0,"response":{"id":"resp_y","status":"in_progress","output":[]}})",
         R"({"type":"response.output_text.delta","sequence_number":[1],"delta":"bad"})"}));
    try {
        (void)run(drain(c.get_streaming_response(ask("x"), {})));
        FAIL() << "a malformed event was accepted";
    } catch (const forma::stream_error& e) {
        EXPECT_EQ(e.kind(), forma::stream_error_kind::protocol);
        EXPECT_NE(std::string(e.what()).find("after sequence number 0"), std::string::npos) << e.what();
    }
}

TEST_F(responses_over_tls, each_call_of_a_background_run_is_a_span_with_the_response_id) {
    forma::telemetry_chat_client c(client({}, {.background_duration = 60ms}));
    auto memory = std::make_shared<forma::telemetry::in_memory_exporter>();
    const forma::run_context parent{.trace = forma::telemetry::trace_parent{.exporter = memory}};
    auto r = run(c.get_response(ask("Trace me"), {.allow_background_responses = true}, parent));
    for (int i = 0; i < 200 && r.continuation_token; ++i) {
        pause(5ms);
        r = run(c.get_response({}, {.continuation_token = r.continuation_token}, parent));
    }
    ASSERT_FALSE(r.continuation_token);
    const auto spans = memory->spans();
    ASSERT_GE(spans.size(), 2u); // the creation and at least one poll
    for (const auto& span : spans) {
        EXPECT_TRUE(span.name.starts_with("chat")) << span.name;
        const auto id = forma::telemetry::find(span.attributes, forma::telemetry::gen_ai::attr::response_id);
        ASSERT_TRUE(id) << span.name;
        EXPECT_EQ(std::get<std::string>(*id), r.response_id);
    }
    for (const auto& request : server().requests()) EXPECT_FALSE(request.header("traceparent").empty());
}

} // namespace
} // namespace responses_client_test
