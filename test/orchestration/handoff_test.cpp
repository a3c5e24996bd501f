// handoff_orchestration over the local model server on real TLS: control moves with the
// handoff tools, the handoff shows as secondary output, approvals pause the whole orchestration
// across runs, a failing participant is named and loses nothing, and streams merge equal.
#include "orchestration_support.hpp"

#include <forma/model/agent_response_builder.hpp>
#include <forma/testing/scripted_chat_client.hpp>
#include <forma/tools.hpp>

#include <boost/describe.hpp>
#include <boost/json/value_to.hpp>

#include <map>

namespace {

using namespace orchestration_test;
using namespace forma;

struct refund_request {
    std::string order;
};
BOOST_DESCRIBE_STRUCT(refund_request, (), (order))

// A named agent that is never run, for tests of what is checked before any run.
std::shared_ptr<agent> participant_stub(std::string name) {
    static boost::asio::io_context unused;
    static forma::testing::scripted_chat_client model(unused.get_executor());
    return std::make_shared<chat_client_agent>(model, chat_client_agent_options{.name = std::move(name)});
}

class handoff : public fixture {
protected:
    int refunds = 0;
    function_tool refund = make_tool(
        "refund", "Refunds an order",
        [this](const refund_request& r) {
            ++refunds;
            return "refunded " + r.order;
        },
        {.requires_approval = true});

    std::shared_ptr<chat_client_agent> triage = participant("triage", {}, "Sorts questions");
    std::shared_ptr<chat_client_agent> billing = participant("billing", {refund}, "Money matters");
    std::shared_ptr<chat_client_agent> technical = participant("technical", {}, "Broken things");

    handoff_orchestration desk{{triage, billing, technical},
                               {.routes = {{"billing", {"triage"}}, {"technical", {}}},
                                .orchestration = {.name = "desk"}}};

    static std::shared_ptr<agent_session> through_json(const agent_session& session) {
        return std::make_shared<agent_session>(
            boost::json::value_to<agent_session>(boost::json::parse(boost::json::serialize(boost::json::value_from(session)))));
    }
};

TEST_F(handoff, a_handoff_moves_the_conversation_and_shows_who_spoke) {
    script("triage", {calls("c1", "handoff_to_billing", R"({"reason":"a double charge"})")});
    script("billing", {says("I see the double charge.")});
    auto session = desk.create_session();
    const agent_response<> r = run(desk.run("I was charged twice", session));

    EXPECT_EQ(asked(), (std::vector<std::string>{"triage", "billing"}));
    EXPECT_EQ(r.text(), "I see the double charge.");
    ASSERT_EQ(handoffs_in(r.messages).size(), 1u) << json_text(r);
    EXPECT_EQ(handoffs_in(r.messages)[0], handoff_content("triage", "billing", "a double charge"));
    EXPECT_EQ(r.agent_id, desk.id());
    ASSERT_FALSE(r.messages.empty());
    EXPECT_EQ(r.messages.front().author_name, "triage");
    EXPECT_EQ(r.messages.back().author_name, "billing");

    // Each may hand off along its routes only; the receiver reads no handoff of the conversation.
    EXPECT_EQ(tools_offered(bodies_of("triage").at(0)), (std::vector<std::string>{"handoff_to_billing", "handoff_to_technical"}));
    EXPECT_EQ(tools_offered(bodies_of("billing").at(0)), (std::vector<std::string>{"refund", "handoff_to_triage"}));
    const boost::json::object body = bodies_of("billing").at(0);
    const auto& sent = body.at("messages").as_array();
    ASSERT_EQ(sent.size(), 2u) << boost::json::serialize(sent);
    EXPECT_EQ(sent[1].at("content"), "I was charged twice");

    // The session holds the conversation and who has it: the next run goes to billing.
    EXPECT_EQ(session->history.size(), 1 + r.messages.size());
    const orchestration_state state = desk.state_of(*session);
    EXPECT_EQ(state.status, orchestration_status::idle);
    EXPECT_EQ(state.speakers, (std::vector<std::string>{"billing"}));
    script("billing", {says("Anything else?")});
    EXPECT_EQ(run(desk.run("Thanks", session)).text(), "Anything else?");
    EXPECT_EQ(asked().back(), "billing");
}

// Two handoffs in one turn: the first is taken; the second's result says it was not, and where
// the conversation went (under handoff_history::full the receiver reads both results). Every
// message, tool results included, names its author. Whole and streamed alike.
TEST_F(handoff, only_the_first_handoff_of_a_turn_is_taken_and_the_others_are_told_so) {
    handoff_orchestration full{{triage, billing, technical}, {.history = handoff_history::full}};
    const auto script_run = [&] {
        script("triage", {turn{.calls = {{"c1", "handoff_to_billing", R"({"reason":"money"})"},
                                         {"c2", "handoff_to_technical", R"({"reason":"a crash"})"}}}});
        script("billing", {says("Billing here.")});
    };
    script_run();
    const agent_response<> whole = run(full.run("Charged twice after a crash"));
    script_run();
    const agent_response<> streamed = to_agent_response(run(loopback::drain(full.run_streaming("Charged twice after a crash"))));
    EXPECT_EQ(comparable(whole), comparable(streamed)) << json_text(whole) << "\n" << json_text(streamed);

    EXPECT_EQ(asked(), (std::vector<std::string>{"triage", "billing", "triage", "billing"}));
    EXPECT_EQ(whole.text(), "Billing here.");
    ASSERT_EQ(handoffs_in(whole.messages).size(), 1u) << json_text(whole);
    EXPECT_EQ(handoffs_in(whole.messages)[0].to, "billing");
    std::map<std::string, std::string> results;
    for (const chat_message& m : whole.messages) {
        EXPECT_FALSE(m.author_name.empty()) << "every message names its author: " << json_text(whole);
        for (const content& c : m.contents)
            if (const auto* result = std::get_if<function_result_content>(&c)) {
                results[result->call_id] = boost::json::value_to<std::string>(result->result);
                EXPECT_EQ(m.author_name, "triage");
            }
    }
    EXPECT_EQ(results["c1"], "Handed off to billing.");
    EXPECT_EQ(results["c2"], "Not handed off: only the first handoff of a turn is taken, and the conversation went to billing.");

    // What billing read: both calls and both results, neither saying technical has it.
    const std::string sent = boost::json::serialize(bodies_of("billing").at(0).at("messages"));
    EXPECT_NE(sent.find("Not handed off"), std::string::npos) << sent;
    EXPECT_EQ(sent.find("Handed off to technical"), std::string::npos) << sent;
}

TEST_F(handoff, a_streamed_run_merges_into_the_whole_runs_response) {
    auto script_run = [&] {
        script("triage", {calls("c1", "handoff_to_technical", R"({"reason":"a crash"})")});
        script("technical", {says("Restart it, then tell me what you see.")});
    };
    script_run();
    const agent_response<> whole = run(desk.run("It crashes"));
    script_run();
    const std::vector<agent_response_update> updates = run(loopback::drain(desk.run_streaming("It crashes")));
    const agent_response<> streamed = to_agent_response(updates);
    EXPECT_EQ(comparable(whole), comparable(streamed)) << json_text(whole) << "\n" << json_text(streamed);

    // Each update's author is the agent that spoke; the handoff comes as its own update.
    bool handoff_seen = false;
    for (const auto& u : updates) {
        for (const auto& c : u.contents)
            if (const auto* h = std::get_if<handoff_content>(&c)) {
                handoff_seen = true;
                EXPECT_EQ(h->to, "technical");
                EXPECT_EQ(u.author_name, "triage");
            }
        if (!u.text().empty()) EXPECT_EQ(u.author_name, "technical");
    }
    EXPECT_TRUE(handoff_seen);
}

TEST_F(handoff, an_approval_pauses_the_orchestration_until_the_next_run_answers_it) {
    for (const bool streamed : {false, true}) {
        SCOPED_TRACE(streamed ? "streamed" : "whole");
        refunds = 0;
        script("triage", {calls("c1", "handoff_to_billing")});
        script("billing", {calls("r1", "refund", R"({"order":"A-17"})"), says("Refunded A-17.")});
        auto ask = [&](agent_input input, std::shared_ptr<agent_session> session) {
            if (!streamed) return run(desk.run(std::move(input), session));
            return to_agent_response(run(loopback::drain(desk.run_streaming(std::move(input), session))));
        };
        auto session = desk.create_session();
        const agent_response<> asked_for = ask("Refund order A-17", session);
        ASSERT_EQ(asked_for.approval_requests().size(), 1u) << json_text(asked_for);
        EXPECT_EQ(refunds, 0);
        orchestration_state state = desk.state_of(*session);
        EXPECT_EQ(state.status, orchestration_status::waiting);
        EXPECT_EQ(state.speakers, (std::vector<std::string>{"billing"}));

        // Stored and loaded between the runs, as another process would.
        session = through_json(*session);
        const agent_response<> done =
            ask(chat_message(chat_role::user(), std::vector<content>{asked_for.approval_requests()[0].approve()}), session);
        EXPECT_EQ(refunds, 1);
        EXPECT_EQ(done.text(), "Refunded A-17.");
        EXPECT_EQ(desk.state_of(*session).status, orchestration_status::idle);
        EXPECT_EQ(asked(), (std::vector<std::string>{"triage", "billing", "billing"})) << "triage is not asked again";
        forget_requests();
    }
}

TEST_F(handoff, a_failing_participant_is_named_and_the_next_run_retries_its_step) {
    script("triage", {calls("c1", "handoff_to_billing", R"({"reason":"money"})")});
    script("billing", {turn{.reply = scripted_reply::error(400, "invalid_request_error", "bad request")}});
    auto session = desk.create_session();
    try {
        run(desk.run("Where is my refund?", session));
        FAIL() << "the run should fail";
    } catch (const orchestration_error& e) {
        EXPECT_EQ(e.participant(), "billing");
        EXPECT_EQ(e.step(), 2u);
        EXPECT_TRUE(e.cause());
        EXPECT_NE(std::string(e.what()).find("\"billing\" failed at step 2"), std::string::npos) << e.what();
        EXPECT_EQ(handoffs_in(e.partial_response().messages).size(), 1u) << "the steps before are kept";
    }
    const orchestration_state state = desk.state_of(*session);
    EXPECT_EQ(state.status, orchestration_status::running);
    EXPECT_EQ(state.speakers, (std::vector<std::string>{"billing"}));
    EXPECT_EQ(handoffs_in(session->history).size(), 1u);

    script("billing", {says("It is on its way.")});
    const agent_response<> r = run(desk.run(agent_input(std::vector<chat_message>{}), session));
    EXPECT_EQ(r.text(), "It is on its way.");
    EXPECT_EQ(asked(), (std::vector<std::string>{"triage", "billing", "billing"}));
}

TEST_F(handoff, handing_on_past_the_limit_ends_the_run_with_the_conversation_where_it_went) {
    handoff_orchestration loop({triage, billing}, {.max_handoffs = 2});
    script("triage", {calls("c1", "handoff_to_billing"), calls("c3", "handoff_to_billing")});
    script("billing", {calls("c2", "handoff_to_triage")});
    auto session = loop.create_session();
    try {
        run(loop.run("Help", session));
        FAIL() << "the run should stop";
    } catch (const orchestration_error& e) {
        EXPECT_FALSE(e.cause());
        EXPECT_EQ(e.participant(), "triage");
        EXPECT_NE(std::string(e.what()).find("max_handoffs is 2"), std::string::npos) << e.what();
        EXPECT_EQ(handoffs_in(e.partial_response().messages).size(), 3u);
    }
    const orchestration_state state = loop.state_of(*session);
    EXPECT_EQ(state.status, orchestration_status::idle);
    EXPECT_EQ(state.speakers, (std::vector<std::string>{"billing"}));
}

TEST_F(handoff, bad_configurations_are_refused_with_the_name_at_fault) {
    EXPECT_THROW(handoff_orchestration({}), error);
    EXPECT_THROW(handoff_orchestration({triage, triage}), error);
    EXPECT_THROW(handoff_orchestration({triage, billing}, {.start = "nobody"}), error);
    EXPECT_THROW(handoff_orchestration({triage, billing}, {.routes = {{"billing", {"nobody"}}}}), error);
    try {
        handoff_orchestration({participant("front desk"), participant("front_desk")});
        FAIL();
    } catch (const error& e) {
        EXPECT_NE(std::string(e.what()).find("would share the handoff tool \"handoff_to_front_desk\""), std::string::npos)
            << e.what();
    }
    sequential_orchestration other({triage});
    auto session = other.create_session();
    session->history.emplace_back(chat_role::user(), "hi");
    session->state[orchestration::state_key] = boost::json::value_from(orchestration_state{.kind = "sequential"});
    EXPECT_THROW(run(desk.run("again", session)), error) << "a session of another kind of orchestration";
}

TEST(orchestration_state_json, round_trips_and_a_broken_state_is_named_where_it_breaks) {
    orchestration_state state{.kind = "handoff",
                              .status = orchestration_status::waiting,
                              .speakers = {"billing"},
                              .step = 3,
                              .handoffs = 2,
                              .rounds = 0,
                              .fan_out_start = 4,
                              .participants = {{"remote desk", {7, boost::json::object{{"a2a", {{"context_id", "c-1"}}}}}}}};
    const boost::json::value json = boost::json::value_from(state);
    EXPECT_EQ(boost::json::value_to<orchestration_state>(json), state);
    EXPECT_EQ(boost::json::value_to<orchestration_state>(boost::json::parse(boost::json::serialize(json))), state);

    handoff_orchestration desk({participant_stub("a"), participant_stub("b")});
    agent_session broken;
    broken.state[orchestration::state_key] = boost::json::parse(R"({"kind":"handoff","status":"sleeping"})");
    try {
        desk.state_of(broken);
        FAIL();
    } catch (const json_error& e) {
        EXPECT_EQ(e.path(), "/state/orchestration/status");
    }
    broken.state[orchestration::state_key] = boost::json::parse(R"({"kind":"handoff","participants":{"a":{"seen":-1}}})");
    try {
        desk.state_of(broken);
        FAIL();
    } catch (const json_error& e) {
        EXPECT_EQ(e.path(), "/state/orchestration/participants/a/seen");
    }
}

} // namespace
