// Validation retries end to end: an answer that breaks its format goes back to the model with
// every error found, over the OpenAI client and the local model server on real TLS.
#include "loopback.hpp"

#include <forma/agent/chat_client_agent.hpp>
#include <forma/middleware/agent_builder.hpp>
#include <forma/middleware/structured_output_agent.hpp>
#include <forma/openai/responses_client.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>
#include <forma/tools.hpp>

#include <boost/describe.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

namespace {

using forma::testing::scripted_reply;
namespace json = boost::json;
using loopback::outline;

struct contact {
    std::string name;
    int age = 0;
    std::string email;
    bool operator==(const contact&) const = default;
};
BOOST_DESCRIBE_STRUCT(contact, (), (name, age, email))
FORMA_DESCRIBE_FIELDS(contact, (name, .min_length = 2), (age, .minimum = 0, .maximum = 150), (email, .format = "email"));

const std::string good = R"({"name":"Ada Lovelace","age":36,"email":"ada@example.org"})";
// Three errors: a constraint strict mode does not enforce, a wrong type, a bad format.
const std::string bad = R"({"name":"A","age":"thirty-six","email":"nobody"})";

const forma::output_errors_content& errors_in(const forma::chat_message& m) {
    for (const auto& c : m.contents)
        if (const auto* e = std::get_if<forma::output_errors_content>(&c)) return *e;
    throw std::logic_error("no output_errors_content in the message");
}

// A structured stream read to its end: the partial names it showed, and the final event's response.
template <class T>
boost::asio::awaitable<std::pair<std::vector<std::string>, forma::agent_response<T>>>
read_structured(forma::structured_update_stream<T> stream) {
    std::vector<std::string> names;
    while (auto event = co_await stream.next()) {
        if (event->is_final()) co_return std::pair(std::move(names), event->response());
        if (auto name = event->snapshot()[&T::name]; name.has_value()) names.push_back(name.value());
    }
    throw std::logic_error("the stream ended without a final event");
}

// What a stream can't match of a whole response: raw bodies, times and the server's ids.
forma::agent_response<> comparable(forma::agent_response<> r) {
    r.raw_representation = nullptr;
    r.created_at.reset();
    r.response_id.clear();
    for (auto& m : r.messages) {
        m.created_at.reset();
        if (m.role != forma::chat_role::user()) m.message_id.clear();
        else m.message_id = "correction"; // made afresh by each run
        for (auto& c : m.contents) forma::metadata_of(c) = {};
    }
    return r;
}

class output_retry : public loopback::fixture {
protected:
    // The text of message `i` of a sent chat request.
    static std::string sent_text(const json::object& body, std::size_t i) {
        return std::string(body.at("messages").at(i).at("content").as_string());
    }
};

TEST_F(output_retry, a_broken_answer_goes_back_with_every_error_and_the_corrected_one_is_the_result) {
    auto& s = server();
    s.enqueue(scripted_reply::completion(bad));
    s.enqueue(scripted_reply::completion(good));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "extractor"});

    const auto response = run(agent.run<contact>("Ada Lovelace, 36, ada@example.org"));
    EXPECT_EQ(response.result(), (contact{"Ada Lovelace", 36, "ada@example.org"}));
    EXPECT_EQ(outline(response), "assistant[text,] user[output_errors,] assistant[text,] ");
    EXPECT_EQ(response.text(), good); // the rejected answer is not part of the answer
    const auto& errors = errors_in(response.messages[1]).errors;
    ASSERT_EQ(errors.size(), 3u);
    EXPECT_EQ(errors[0].path, "/name");
    EXPECT_EQ(errors[1].path, "/age");
    EXPECT_EQ(errors[1].reason, R"(expected integer, got string "thirty-six")");
    EXPECT_EQ(errors[2].path, "/email");

    // The second request repeats the conversation, the rejected answer, then one message of errors.
    const auto sent = bodies();
    ASSERT_EQ(sent.size(), 2u);
    const auto& messages = sent[1].at("messages").as_array();
    ASSERT_EQ(messages.size(), 3u);
    EXPECT_EQ(messages[1].at("role"), "assistant");
    EXPECT_EQ(sent_text(sent[1], 1), bad);
    EXPECT_EQ(messages[2].at("role"), "user");
    const std::string correction = sent_text(sent[1], 2);
    EXPECT_NE(correction.find("3 errors"), std::string::npos) << correction;
    EXPECT_NE(correction.find(R"(- at /age: expected integer, got string "thirty-six")"), std::string::npos)
        << correction;
    EXPECT_NE(correction.find("- at /name: "), std::string::npos) << correction;
    EXPECT_NE(correction.find("- at /email: "), std::string::npos) << correction;
    EXPECT_EQ(sent[1].at("response_format"), sent[0].at("response_format"));
}

TEST_F(output_retry, retries_stop_at_the_limit_and_result_reports_the_last_answer) {
    auto& s = server();
    for (int i = 0; i < 3; ++i) s.enqueue(scripted_reply::completion(i < 2 ? bad : R"({"name":"Ada"})"));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "extractor", .max_output_retries = 2});

    const auto response = run(agent.run<contact>("Ada"));
    EXPECT_EQ(s.requests().size(), 3u);
    EXPECT_EQ(outline(response),
              "assistant[text,] user[output_errors,] assistant[text,] user[output_errors,] assistant[text,] ");
    try {
        (void)response.result();
        FAIL() << "the last answer is not a contact";
    } catch (const forma::json_error& e) {
        EXPECT_EQ(e.path(), "");
        EXPECT_EQ(e.reason(), R"(missing required member "age")");
    }
}

TEST_F(output_retry, the_run_options_override_the_agent_and_zero_turns_retries_off) {
    auto& s = server();
    s.enqueue(scripted_reply::completion(bad));
    s.enqueue(scripted_reply::completion(good));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "extractor", .max_output_retries = 3});
    forma::agent_run_options no_retries;
    no_retries.max_output_retries = 0;

    const auto response = run(agent.run<contact>("Ada", nullptr, no_retries));
    EXPECT_EQ(s.requests().size(), 1u);
    EXPECT_THROW((void)response.result(), forma::json_error);
    EXPECT_EQ(agent.max_output_retries(no_retries), 0u);
    EXPECT_EQ(agent.max_output_retries({}), 3u);
}

TEST_F(output_retry, text_that_is_not_json_and_an_empty_answer_are_retried) {
    auto& s = server();
    s.enqueue(scripted_reply::completion("Sure! Here is the contact: " + good));
    s.enqueue(scripted_reply::completion(""));
    s.enqueue(scripted_reply::completion(good));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "extractor", .max_output_retries = 2});

    const auto response = run(agent.run<contact>("Ada"));
    EXPECT_EQ(response.result().name, "Ada Lovelace");
    ASSERT_EQ(response.messages.size(), 5u) << outline(response);
    const auto& not_json = errors_in(response.messages[1]).errors;
    ASSERT_EQ(not_json.size(), 1u);
    EXPECT_TRUE(not_json[0].reason.starts_with("invalid JSON")) << not_json[0].reason;
    EXPECT_EQ(errors_in(response.messages[3]).errors.at(0).reason,
              "the response has no assistant text to read a structured answer from");
}

TEST_F(output_retry, refusals_and_answers_cut_by_the_token_limit_are_not_retried) {
    auto& s = server();
    s.enqueue(scripted_reply::json(R"({"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[
        {"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't."},"finish_reason":"stop"}]})"));
    s.enqueue(scripted_reply::completion(R"({"name":"Ada Lov)", "length"));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "extractor", .max_output_retries = 3});

    EXPECT_THROW((void)run(agent.run<contact>("Ada")).result(), forma::refusal_error);
    EXPECT_THROW((void)run(agent.run<contact>("Ada")).result(), forma::output_truncated_error);
    EXPECT_EQ(s.requests().size(), 2u);
}

TEST_F(output_retry, a_runtime_schema_is_checked_with_the_schema_validator) {
    auto& s = server();
    s.enqueue(scripted_reply::completion(R"({"priority":9,"title":""})"));
    s.enqueue(scripted_reply::completion(R"({"priority":2,"title":"Printer on fire"})"));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(
        client, {.name = "triage",
                 .response_format = forma::response_format::json_schema("ticket", R"({"type":"object",
                     "properties":{"priority":{"type":"integer","maximum":5},"title":{"type":"string","minLength":1}},
                     "required":["priority","title"],"additionalProperties":false})")});

    const auto response = run(agent.run("The printer is on fire"));
    EXPECT_EQ(response.text(), R"({"priority":2,"title":"Printer on fire"})");
    const auto& errors = errors_in(response.messages.at(1)).errors;
    ASSERT_EQ(errors.size(), 2u);
    EXPECT_EQ(errors[0].path, "/priority");
    EXPECT_EQ(errors[1].path, "/title");
}

TEST_F(output_retry, the_session_keeps_the_exchange_and_later_runs_send_it) {
    auto& s = server();
    s.enqueue(scripted_reply::completion(bad));
    s.enqueue(scripted_reply::completion(good));
    s.enqueue(scripted_reply::completion("Her name is Ada."));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "extractor"});
    auto session = agent.create_session();

    (void)run(agent.run<contact>("Ada", session));
    ASSERT_EQ(session->history.size(), 4u); // the question, the rejected answer, the errors, the answer
    EXPECT_EQ(run(agent.run("What was her name?", session)).text(), "Her name is Ada.");
    const auto later = bodies().back().at("messages").as_array();
    ASSERT_EQ(later.size(), 5u);
    EXPECT_NE(std::string(later[2].at("content").as_string()).find("- at /age:"), std::string::npos);
}

TEST_F(output_retry, streaming_restarts_the_partial_and_merges_to_what_the_whole_run_gives) {
    auto& s = server();
    s.enqueue(scripted_reply::stream(bad, 7));
    s.enqueue(scripted_reply::stream(good, 7));
    s.enqueue(scripted_reply::completion(bad));
    s.enqueue(scripted_reply::completion(good));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "extractor"});

    auto [names, streamed] = run(read_structured(agent.run_streaming<contact>("Ada")));
    EXPECT_EQ(streamed.result(), (contact{"Ada Lovelace", 36, "ada@example.org"}));
    // The first attempt's partial showed "A"; the retry's was read afresh as it came ("Ada L" is
    // a piece of the stream), not only parsed whole at the end.
    ASSERT_FALSE(names.empty());
    EXPECT_EQ(names.front(), "A");
    EXPECT_NE(std::find(names.begin(), names.end(), "Ada L"), names.end()) << ::testing::PrintToString(names);
    EXPECT_EQ(names.back(), "Ada Lovelace");

    const auto whole = run(agent.run<contact>("Ada"));
    forma::agent_response<> streamed_plain = streamed;
    EXPECT_EQ(comparable(streamed_plain), comparable(whole));
    EXPECT_EQ(outline(streamed_plain), outline(whole));
}

TEST_F(output_retry, a_tool_run_retries_its_final_answer) {
    auto& s = server();
    s.enqueue(scripted_reply::tool_calls({{"call_1", "lookup", R"({"who":"Ada"})"}}));
    s.enqueue(scripted_reply::completion(bad));
    s.enqueue(scripted_reply::completion(good));
    int looked_up = 0;
    auto lookup = forma::make_tool("lookup", "Finds a person",
                                   R"({"type":"object","properties":{"who":{"type":"string"}},"required":["who"]})",
                                   [&](const json::value&) {
                                       ++looked_up;
                                       return std::string("Ada Lovelace, 36, ada@example.org");
                                   });
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "extractor", .tools = {lookup}});

    const auto response = run(agent.run<contact>("Who is Ada?"));
    EXPECT_EQ(looked_up, 1);
    EXPECT_EQ(response.result().age, 36);
    EXPECT_EQ(outline(response),
              "assistant[function_call,] tool[function_result,] assistant[text,] user[output_errors,] assistant[text,] ");
    // The retry repeats the whole turn: the call, its result, the rejected answer.
    EXPECT_EQ(bodies().back().at("messages").as_array().size(), 5u);
}

TEST_F(output_retry, decorators_pass_retries_through_and_telemetry_records_each) {
    auto& s = server();
    s.enqueue(scripted_reply::completion(bad));
    s.enqueue(scripted_reply::completion(good));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    auto exporter = std::make_shared<forma::telemetry::in_memory_exporter>();
    auto agent = forma::agent_builder(std::make_shared<forma::chat_client_agent>(
                                          client, forma::chat_client_agent_options{.name = "extractor"}))
                     .use_telemetry({.exporter = exporter})
                     .build();

    EXPECT_EQ(agent->max_output_retries({}), 1u);
    EXPECT_EQ(run(agent->run<contact>("Ada")).result().age, 36);
    const auto spans = exporter->spans();
    const auto invoke = std::find_if(spans.begin(), spans.end(),
                                     [](const auto& span) { return span.name.starts_with("invoke_agent"); });
    ASSERT_NE(invoke, spans.end());
    ASSERT_EQ(invoke->events.size(), 1u);
    EXPECT_EQ(invoke->events[0].name, "forma.output.retry");
    const auto* errors = forma::telemetry::find(invoke->events[0].attributes, "forma.output.error_count");
    ASSERT_NE(errors, nullptr);
    EXPECT_EQ(*errors, forma::telemetry::attribute_value(std::int64_t{3}));
}

TEST_F(output_retry, the_structured_output_agent_retries_its_conversion) {
    auto& s = server();
    s.enqueue(scripted_reply::completion("Ada Lovelace is 36; write to ada@example.org."));
    s.enqueue(scripted_reply::completion(bad));
    s.enqueue(scripted_reply::completion(good));
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    auto inner = std::make_shared<forma::chat_client_agent>(client, forma::chat_client_agent_options{.name = "writer"});
    forma::structured_output_agent agent(inner, client);

    const auto response = run(agent.run<contact>("Tell me about Ada"));
    EXPECT_EQ(response.result().email, "ada@example.org");
    EXPECT_EQ(s.requests().size(), 3u);
    // The inner agent answered as text: it was asked for no format and checked by nothing.
    EXPECT_FALSE(bodies()[0].contains("response_format"));
}

// The local server's sloppy-model faults, as a run with retries off reads them.
class sloppy_model : public output_retry {
protected:
    std::string error_of(forma::testing::answer_fault fault) {
        auto& s = server({.answer_fault = fault});
        forma::openai::chat_client client(io.get_executor(), options_for(s));
        forma::chat_client_agent agent(client, {.name = "extractor", .max_output_retries = 0});
        const auto response = run(agent.run<contact>("Ada Lovelace, 36, ada@example.org"));
        try {
            (void)response.result();
        } catch (const forma::json_error& e) {
            return e.what();
        }
        return "(no error) " + response.text();
    }
};

TEST_F(sloppy_model, a_wrong_type) {
    EXPECT_TRUE(error_of(forma::testing::answer_fault::wrong_type).starts_with("at /name: expected string, got number 42"))
        << error_of(forma::testing::answer_fault::wrong_type);
}
TEST_F(sloppy_model, a_missing_member) {
    EXPECT_EQ(error_of(forma::testing::answer_fault::missing_member), R"(missing required member "name")");
}
TEST_F(sloppy_model, a_string_too_short) {
    EXPECT_EQ(error_of(forma::testing::answer_fault::short_string), R"(at /name: "" is shorter than the minimum length 2)");
}
TEST_F(sloppy_model, json_cut_short) {
    EXPECT_TRUE(error_of(forma::testing::answer_fault::cut_json).starts_with("invalid JSON: unexpected end of input"));
}
TEST_F(sloppy_model, prose_around_the_json) {
    EXPECT_TRUE(error_of(forma::testing::answer_fault::prose_around).starts_with("invalid JSON"));
}

TEST_F(sloppy_model, a_model_that_obeys_on_the_second_try_answers_the_question_again) {
    auto& s = server({.answer_fault = forma::testing::answer_fault::wrong_type, .answer_fault_attempts = 1});
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "extractor"});
    const auto response = run(agent.run<contact>("Ada Lovelace, 36, ada@example.org"));
    ASSERT_TRUE(response.try_result().has_value()) << response.text();
    EXPECT_EQ(response.result().age, 36); // the question's number: the correction is not read as a question
    EXPECT_EQ(s.requests().size(), 2u);
}

TEST_F(sloppy_model, the_rate_is_the_share_of_answers_that_break) {
    auto& s = server({.answer_fault = forma::testing::answer_fault::missing_member, .answer_fault_rate = 0.3});
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "extractor", .max_output_retries = 0});
    int broken = 0;
    for (int i = 0; i < 200; ++i) broken += run(agent.run<contact>("Ada Lovelace, 36")).try_result().has_error();
    EXPECT_GT(broken, 40); // 60 expected; the draws are fixed by the seed
    EXPECT_LT(broken, 80);
}

TEST_F(sloppy_model, the_responses_api_breaks_its_answers_and_retries_alike) {
    auto& s = server({.answer_fault = forma::testing::answer_fault::prose_around, .answer_fault_attempts = 1});
    forma::openai::responses_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "extractor"});
    const auto response = run(agent.run<contact>("Ada Lovelace, 36, ada@example.org"));
    EXPECT_EQ(response.result().age, 36);
    ASSERT_EQ(response.messages.size(), 3u);
    EXPECT_TRUE(response.messages[0].text().starts_with("Sure! Here is the JSON")) << response.messages[0].text();
    EXPECT_EQ(s.requests().size(), 2u);
}

} // namespace
