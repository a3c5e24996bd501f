// Sequential, concurrent and group-chat orchestrations over the local model server on real TLS,
// their merged streams, typed answers, checkpoints and telemetry.
#include "orchestration_support.hpp"

#include <forma/agent/in_memory_session_store.hpp>
#include <forma/middleware/agent_builder.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>

#include <forma/agent/as_tool.hpp>
#include <forma/tools.hpp>

#include <boost/describe.hpp>

#include <algorithm>

namespace {

using namespace orchestration_test;
using namespace forma;

struct verdict {
    std::string label;
    int score = 0;
};
BOOST_DESCRIBE_STRUCT(verdict, (), (label, score))

struct tally {
    int total = 0;
    std::vector<std::string> labels;
};
BOOST_DESCRIBE_STRUCT(tally, (), (total, labels))

class orchestrations : public fixture {
protected:
    std::shared_ptr<chat_client_agent> writer = participant("writer");
    std::shared_ptr<chat_client_agent> reviewer = participant("reviewer");
    std::shared_ptr<chat_client_agent> editor = participant("editor");

    /// Runs whole and streamed on one script each, and checks the merged stream equals the whole run.
    agent_response<> both_ways(agent& a, const std::function<void()>& script_run, const std::string& input) {
        script_run();
        const agent_response<> whole = run(a.run(input));
        script_run();
        const agent_response<> streamed = to_agent_response(run(loopback::drain(a.run_streaming(input))));
        EXPECT_EQ(comparable(whole), comparable(streamed)) << json_text(whole) << "\n" << json_text(streamed);
        return whole;
    }
};

TEST_F(orchestrations, sequential_agents_each_add_to_the_conversation_so_far) {
    sequential_orchestration line({writer, reviewer, editor});
    const agent_response<> r = both_ways(line, [&] {
        script("writer", {says("Draft.")});
        script("reviewer", {says("Shorter, please.")});
        script("editor", {says("Final.")});
    }, "Write a note");
    EXPECT_EQ(asked(), (std::vector<std::string>{"writer", "reviewer", "editor", "writer", "reviewer", "editor"}));
    ASSERT_EQ(r.messages.size(), 3u) << json_text(r);
    EXPECT_EQ(r.messages[1].author_name, "reviewer");
    // The editor reads the question and both answers before it.
    const boost::json::object body = bodies_of("editor").at(0);
    const auto& sent = body.at("messages").as_array();
    ASSERT_EQ(sent.size(), 4u) << boost::json::serialize(sent);
    EXPECT_EQ(sent[2].at("content"), "Draft.");
    EXPECT_EQ(sent[3].at("content"), "Shorter, please.");
}

TEST_F(orchestrations, sequential_run_T_gives_the_format_to_the_last_agent_only) {
    sequential_orchestration line({writer, reviewer});
    script("writer", {says("It is good, 8 of 10.")});
    script("reviewer", {says(R"({"label":"good","score":8})")});
    const agent_response<verdict> r = run(line.run<verdict>("Judge it"));
    EXPECT_EQ(r.result().label, "good");
    EXPECT_EQ(r.result().score, 8);
    EXPECT_FALSE(bodies_of("writer").at(0).contains("response_format"));
    EXPECT_TRUE(bodies_of("reviewer").at(0).contains("response_format"));
}

TEST_F(orchestrations, concurrent_agents_answer_the_same_input_in_participant_order) {
    concurrent_orchestration fan({writer, reviewer, editor});
    const agent_response<> r = both_ways(fan, [&] {
        script("writer", {says("W.")});
        script("reviewer", {says("R.")});
        script("editor", {says("E.")});
    }, "Go");
    const std::vector<agent_response<>> answers = fan.answers_of(r.messages);
    ASSERT_EQ(answers.size(), 3u);
    EXPECT_EQ(answers[0].text(), "W.");
    EXPECT_EQ(answers[1].text(), "R.");
    EXPECT_EQ(answers[2].text(), "E.");
    // None sees another's answer.
    for (const char* name : {"writer", "reviewer", "editor"})
        EXPECT_EQ(bodies_of(name).at(0).at("messages").as_array().size(), 2u) << name;
}

TEST_F(orchestrations, a_typed_aggregation_reads_each_answer_and_combines_them) {
    concurrent_orchestration fan({writer, reviewer}, {.aggregator = aggregate_as<verdict>([](std::vector<verdict> all) {
                                                          tally t;
                                                          for (const verdict& v : all) {
                                                              t.total += v.score;
                                                              t.labels.push_back(v.label);
                                                          }
                                                          return t;
                                                      })});
    script("writer", {says(R"({"label":"fine","score":6})")});
    script("reviewer", {says(R"({"label":"great","score":9})")});
    const agent_response<tally> r = run(fan.run<tally>("Rate it"));
    EXPECT_EQ(r.result().total, 15);
    EXPECT_EQ(r.result().labels, (std::vector<std::string>{"fine", "great"}));
    EXPECT_EQ(r.messages.back().author_name, "concurrent");
    // Each participant was asked for a verdict, not a tally.
    const auto format = bodies_of("writer").at(0).at("response_format").at("json_schema").at("schema");
    EXPECT_TRUE(format.at("properties").as_object().contains("score")) << boost::json::serialize(format);
}

TEST_F(orchestrations, a_group_chat_goes_round_robin_until_the_condition_or_the_round_limit) {
    group_chat_orchestration chat({writer, reviewer},
                                  {.terminate = [](const std::vector<chat_message>& c) { return c.back().text() == "Approved."; },
                                   .max_rounds = 5});
    both_ways(chat, [&] {
        script("writer", {says("Draft."), says("Draft 2.")});
        script("reviewer", {says("Again."), says("Approved.")});
    }, "Write");
    EXPECT_EQ(asked().size(), 8u) << "four rounds each way, the condition ending both";

    forget_requests();
    group_chat_orchestration capped({writer, reviewer}, {.max_rounds = 3});
    script("writer", {says("1"), says("3")});
    script("reviewer", {says("2")});
    EXPECT_EQ(run(capped.run("Count")).messages.size(), 3u);
    EXPECT_EQ(asked(), (std::vector<std::string>{"writer", "reviewer", "writer"}));
}

TEST_F(orchestrations, a_group_chat_function_picks_the_speakers_and_an_unknown_name_is_an_error) {
    group_chat_orchestration chat({writer, reviewer}, {.select_speaker = [](const group_chat_turn& t) -> std::string {
                                                           if (t.round == 0) return "reviewer";
                                                           if (t.round == 1) return "writer";
                                                           return "";
                                                       }});
    script("reviewer", {says("First.")});
    script("writer", {says("Second.")});
    const agent_response<> r = run(chat.run("Go"));
    EXPECT_EQ(r.text(), "Second.") << "the answer of whoever answered last";
    ASSERT_EQ(r.messages.size(), 2u);
    EXPECT_EQ(r.messages[0].author_name, "reviewer");
    EXPECT_EQ(asked(), (std::vector<std::string>{"reviewer", "writer"}));

    group_chat_orchestration lost({writer}, {.select_speaker = [](const group_chat_turn&) { return std::string("ghost"); }});
    EXPECT_THROW(run(lost.run("Go")), error);
}

TEST_F(orchestrations, a_checkpoint_lets_another_orchestration_go_on_after_a_failed_step) {
    auto store = std::make_shared<in_memory_session_store>(io.get_executor());
    auto first = std::make_unique<sequential_orchestration>(
        std::vector<std::shared_ptr<agent>>{writer, reviewer, editor},
        sequential_options{.orchestration = {.checkpoints = store}});
    script("writer", {says("Draft.")});
    script("reviewer", {turn{.reply = scripted_reply::error(400, "invalid_request_error", "no")}});
    EXPECT_THROW(run(first->run("Write", session_id("s-1"))), orchestration_error);
    first.reset();

    // Another orchestration (another process) over the same store: the writer is not asked again.
    sequential_orchestration second({writer, reviewer, editor}, {.orchestration = {.checkpoints = store}});
    const std::optional<agent_session> saved = run(store->load(session_id("s-1")));
    ASSERT_TRUE(saved);
    EXPECT_EQ(second.state_of(*saved).speakers, (std::vector<std::string>{"reviewer"}));
    script("reviewer", {says("Fine.")});
    script("editor", {says("Done.")});
    const agent_response<> r = run(second.run(agent_input(std::vector<chat_message>{}), session_id("s-1")));
    EXPECT_EQ(r.text(), "Done.");
    EXPECT_EQ(r.messages.size(), 2u) << "the reviewer's answer and the editor's";
    EXPECT_EQ(asked(), (std::vector<std::string>{"writer", "reviewer", "reviewer", "editor"}));
    const std::optional<agent_session> after = run(store->load(session_id("s-1")));
    ASSERT_TRUE(after);
    EXPECT_EQ(after->history.size(), 4u) << "the question and three answers";
    EXPECT_EQ(second.state_of(*after).status, orchestration_status::idle);
}

TEST_F(orchestrations, each_step_is_an_invoke_agent_span_under_the_orchestrations) {
    auto exporter = std::make_shared<telemetry::in_memory_exporter>();
    auto line = std::make_shared<sequential_orchestration>(std::vector<std::shared_ptr<agent>>{writer, reviewer},
                                                           sequential_options{.orchestration = {.name = "line"}});
    std::shared_ptr<agent> traced = agent_builder(line).use_telemetry({.exporter = exporter}).build();
    for (const bool streamed : {false, true}) {
        SCOPED_TRACE(streamed ? "streamed" : "whole");
        script("writer", {says("A.")});
        script("reviewer", {says("B.")});
        if (streamed)
            run(loopback::drain(traced->run_streaming("Go")));
        else
            run(traced->run("Go"));
        const auto spans = exporter->take_spans();
        auto find = [&](std::string_view name) {
            return std::find_if(spans.begin(), spans.end(), [&](const auto& s) { return s.name == name; });
        };
        const auto outer = find("invoke_agent line");
        ASSERT_NE(outer, spans.end());
        for (const char* step : {"invoke_agent writer", "invoke_agent reviewer"}) {
            const auto inner = find(step);
            ASSERT_NE(inner, spans.end()) << step;
            EXPECT_EQ(inner->parent_span_id, outer->context.span_id) << step;
            EXPECT_EQ(inner->context.trace_id, outer->context.trace_id);
        }
    }
}

TEST_F(orchestrations, a_manager_agent_names_the_speakers_of_a_group_chat) {
    auto manager = participant("manager");
    group_chat_orchestration chat({writer, reviewer}, {.manager = manager});
    script("manager", {says(R"({"next_speaker":"reviewer","reason":"a review first"})"),
                       says(R"({"next_speaker":"writer","reason":"then the text"})"),
                       says(R"({"next_speaker":"","reason":"done"})")});
    script("reviewer", {says("Keep it short.")});
    script("writer", {says("Short text.")});
    const agent_response<> r = run(chat.run("Write"));
    EXPECT_EQ(asked(), (std::vector<std::string>{"manager", "reviewer", "manager", "writer", "manager"}));
    EXPECT_EQ(r.text(), "Short text.");
    EXPECT_EQ(r.messages.front().text(), "Keep it short.");
    // The manager reads the conversation and the roster, and answers in group_chat_choice's format.
    const boost::json::object last = bodies_of("manager").at(2);
    EXPECT_TRUE(last.contains("response_format"));
    const auto& sent = last.at("messages").as_array();
    EXPECT_NE(std::string(sent.back().at("content").as_string()).find("- writer"), std::string::npos);
    EXPECT_EQ(sent.size(), 5u) << "instructions, question, two answers, roster";
}

/// A run that fails: what it answered before (merged updates, for a stream) and its error.
struct failed_run {
    std::vector<chat_message> answered;
    std::optional<orchestration_error> error;
};

boost::asio::awaitable<failed_run> fail(agent& a, std::string input, std::shared_ptr<agent_session> session, bool streamed) {
    failed_run out;
    agent_response_builder merged;
    try {
        if (streamed) {
            update_stream stream = a.run_streaming(std::move(input), session);
            while (std::optional<agent_response_update> update = co_await stream.next()) merged.add(std::move(*update));
        } else {
            (void)co_await a.run(std::move(input), session);
        }
    } catch (const orchestration_error& e) {
        out.error.emplace(e);
    }
    out.answered = streamed ? comparable(merged.take()).messages : std::vector<chat_message>{};
    co_return out;
}

// The manager fails after the writer's turn: the run ends naming the manager, with the writer's
// answer; the state says the turn is done, and the next run asks the manager again, not the writer.
TEST_F(orchestrations, a_group_chat_whose_manager_fails_goes_on_after_the_finished_turn) {
    auto manager = participant("manager");
    group_chat_orchestration chat({writer, reviewer}, {.manager = manager});
    for (const bool streamed : {false, true}) {
        SCOPED_TRACE(streamed ? "streamed" : "whole");
        forget_requests();
        script("manager", {says(R"({"next_speaker":"writer","reason":"a draft first"})"),
                           turn{.reply = scripted_reply::error(400, "invalid_request_error", "the manager's model is gone")}});
        script("writer", {says("Draft.")});
        const std::shared_ptr<agent_session> session = chat.create_session();
        const failed_run first = run(fail(chat, "Write", session, streamed));
        ASSERT_TRUE(first.error);
        EXPECT_EQ(first.error->participant(), "manager");
        EXPECT_EQ(first.error->step(), 2u);
        EXPECT_NE(std::string(first.error->what()).find("the manager's model is gone"), std::string::npos) << first.error->what();
        const agent_response<> partial = comparable(first.error->partial_response());
        ASSERT_EQ(partial.messages.size(), 1u) << json_text(partial);
        EXPECT_EQ(partial.messages[0].author_name, "writer");
        EXPECT_EQ(partial.text(), "Draft.");
        if (streamed) EXPECT_EQ(first.answered, partial.messages);

        const orchestration_state state = chat.state_of(*session);
        EXPECT_EQ(state.status, orchestration_status::running);
        EXPECT_TRUE(state.speakers.empty()) << "the next speaker is still to be chosen";
        EXPECT_EQ(state.step, 1u);
        EXPECT_EQ(state.rounds, 1u);

        script("manager", {says(R"({"next_speaker":"reviewer","reason":"now a review"})"), says(R"({"next_speaker":"","reason":"done"})")});
        script("reviewer", {says("Looks fine.")});
        const agent_response<> second = run(chat.run("Please go on.", session));
        EXPECT_EQ(second.text(), "Looks fine.");
        EXPECT_EQ(asked(), (std::vector<std::string>{"manager", "writer", "manager", "manager", "reviewer", "manager"}))
            << "the writer is not asked twice";
        const std::vector<chat_message>& history = session->history;
        ASSERT_EQ(history.size(), 4u);
        EXPECT_EQ(history[1].author_name, "writer");
        EXPECT_EQ(history[3].author_name, "reviewer");
        EXPECT_EQ(chat.state_of(*session).status, orchestration_status::idle);
    }
}

// A selector that throws: an orchestration_error with its exception as the cause, and the next
// run's selector is asked for the same round.
TEST_F(orchestrations, a_group_chat_whose_selector_throws_asks_it_again_for_the_same_round) {
    bool broken = true;
    std::vector<std::size_t> rounds;
    group_chat_orchestration chat({writer, reviewer}, {.select_speaker = [&](const group_chat_turn& t) -> std::string {
                                                           rounds.push_back(t.round);
                                                           if (t.round == 0) return "writer";
                                                           if (t.round == 1 && broken) throw std::runtime_error("the selector broke");
                                                           return t.round == 1 ? "reviewer" : "";
                                                       }});
    for (const bool streamed : {false, true}) {
        SCOPED_TRACE(streamed ? "streamed" : "whole");
        forget_requests();
        rounds.clear();
        broken = true;
        script("writer", {says("Draft.")});
        const std::shared_ptr<agent_session> session = chat.create_session();
        const failed_run first = run(fail(chat, "Write", session, streamed));
        ASSERT_TRUE(first.error);
        EXPECT_EQ(first.error->participant(), "");
        ASSERT_TRUE(first.error->cause());
        EXPECT_THROW(std::rethrow_exception(first.error->cause()), std::runtime_error);
        EXPECT_EQ(first.error->partial_response().text(), "Draft.");

        broken = false;
        script("reviewer", {says("Fine.")});
        EXPECT_EQ(run(chat.run("Go on", session)).text(), "Fine.");
        EXPECT_EQ(rounds, (std::vector<std::size_t>{0, 1, 1, 2}));
        EXPECT_EQ(asked(), (std::vector<std::string>{"writer", "reviewer"}));
    }
}

TEST_F(orchestrations, a_concurrent_participant_waiting_for_approval_is_the_only_one_asked_again) {
    int publishes = 0;
    function_tool publish = make_tool(
        "publish", "Publishes the text", [&]() {
            ++publishes;
            return std::string("published");
        },
        {.requires_approval = true});
    auto author = participant("author", {publish});
    concurrent_orchestration fan({author, reviewer});
    script("author", {calls("p1", "publish"), says("Published.")});
    script("reviewer", {says("Looks fine.")});
    auto session = fan.create_session();
    const agent_response<> first = run(fan.run("Ship it", session));
    ASSERT_EQ(first.approval_requests().size(), 1u) << json_text(first);
    EXPECT_EQ(fan.answers_of(first.messages).at(1).text(), "Looks fine.") << "the others answered meanwhile";
    EXPECT_EQ(fan.state_of(*session).speakers, (std::vector<std::string>{"author"}));

    const agent_response<> second = run(
        fan.run(chat_message(chat_role::user(), std::vector<content>{first.approval_requests()[0].approve()}), session));
    EXPECT_EQ(publishes, 1);
    EXPECT_EQ(second.text(), "Published.");
    EXPECT_EQ(asked(), (std::vector<std::string>{"author", "reviewer", "author"}));
    // The author's second request holds its own exchange, never the reviewer's answer.
    const boost::json::object body = bodies_of("author").at(1);
    EXPECT_EQ(boost::json::serialize(body).find("Looks fine."), std::string::npos) << boost::json::serialize(body);
    const std::vector<agent_response<>> answers = fan.answers_of(session->history);
    EXPECT_EQ(answers.at(0).text(), "Published.");
    EXPECT_EQ(answers.at(1).text(), "Looks fine.");
}

TEST_F(orchestrations, run_T_on_a_handoff_gives_the_format_to_whoever_answers) {
    handoff_orchestration desk({writer, reviewer});
    script("writer", {calls("h1", "handoff_to_reviewer")});
    script("reviewer", {says(R"({"label":"ok","score":7})")});
    const agent_response<verdict> r = run(desk.run<verdict>("Judge it"));
    EXPECT_EQ(r.result().score, 7);
    EXPECT_TRUE(bodies_of("writer").at(0).contains("response_format"));
    EXPECT_TRUE(bodies_of("reviewer").at(0).contains("response_format"));
    EXPECT_EQ(asked().size(), 2u) << "a handoff is no wrong answer: no validation retry";
}

TEST_F(orchestrations, an_orchestration_is_a_tool_for_another_agent) {
    sequential_orchestration line({writer, reviewer}, {.orchestration = {.name = "line", .description = "Writes and reviews"}});
    auto boss = participant("boss", {as_tool(line)});
    script("boss", {calls("t1", "line", R"({"input":"a note"})"), says("The line said so.")});
    script("writer", {says("Draft.")});
    script("reviewer", {says("Approved draft.")});
    EXPECT_EQ(run(boss->run("Get me a note")).text(), "The line said so.");
    const boost::json::object second = bodies_of("boss").at(1);
    const auto& sent = second.at("messages").as_array();
    EXPECT_EQ(sent.back().at("role"), "tool");
    EXPECT_EQ(sent.back().at("content"), "Approved draft.") << "the line's answer: the last participant's";
}

TEST_F(orchestrations, a_streamed_fan_out_runs_its_participants_at_once_and_yields_the_first_live) {
    // Each answer holds back all but its first chunk for 1.5 s: at once, the run takes about 1.5 s;
    // one after the other, 3 s; and the first participant's first update, if live, comes long
    // before the end.
    using namespace std::chrono_literals;
    auto slow = [](std::string text) {
        scripted_reply reply = scripted_reply::stream(text);
        reply.chunk_delays = {0ms, 1500ms};
        return turn{.reply = std::move(reply)};
    };
    concurrent_orchestration fan({writer, reviewer});
    script("writer", {slow("Draft.")});
    script("reviewer", {slow("Fine.")});
    const auto start = std::chrono::steady_clock::now();
    std::optional<std::chrono::steady_clock::duration> first_update;
    const std::vector<agent_response_update> updates = run([&]() -> boost::asio::awaitable<std::vector<agent_response_update>> {
        std::vector<agent_response_update> all;
        update_stream stream = fan.run_streaming("Go");
        while (auto update = co_await stream.next()) {
            if (!first_update && update->author_name == "writer") first_update = std::chrono::steady_clock::now() - start;
            all.push_back(std::move(*update));
        }
        co_return all;
    }());
    const auto total = std::chrono::steady_clock::now() - start;
    EXPECT_LT(total, 2700ms) << "the participants did not stream at once";
    ASSERT_TRUE(first_update);
    EXPECT_LT(*first_update, 1000ms) << "the first participant's updates were held back";
    const std::vector<agent_response<>> answers = fan.answers_of(to_agent_response(updates).messages);
    EXPECT_EQ(answers.at(0).text(), "Draft.");
    EXPECT_EQ(answers.at(1).text(), "Fine.");
}

TEST_F(orchestrations, a_typed_stream_reads_the_last_participants_answer) {
    sequential_orchestration line({writer, reviewer});
    script("writer", {says("It is good, 8 of 10.")});
    script("reviewer", {says(R"({"label":"good","score":8})")});
    std::vector<std::string> labels_seen;
    const verdict v = run([&]() -> boost::asio::awaitable<verdict> {
        // Even without retries, the writer's prose is no broken verdict: the reviewer's answer follows.
        agent_run_options no_retries;
        no_retries.max_output_retries = 0;
        structured_update_stream<verdict> stream = line.run_streaming<verdict>("Judge it", nullptr, std::move(no_retries));
        std::optional<verdict> last;
        while (auto event = co_await stream.next()) {
            if (const auto& label = event->snapshot()[&verdict::label]; label.has_value())
                labels_seen.push_back(label.value());
            if (event->is_final()) last = event->result();
        }
        co_return *last;
    }());
    EXPECT_EQ(v.label, "good");
    EXPECT_EQ(v.score, 8);
    // The snapshots show the reviewer's answer as it comes, read afresh from its first update.
    ASSERT_FALSE(labels_seen.empty());
    EXPECT_EQ(labels_seen.back(), "good");
}

} // namespace
