// Approvals across runs of one session: the run stops with requests, the caller's answers
// (saved with the session as JSON in between) run or refuse the calls, and the model only
// ever sees plain calls and results in a valid order.
#include "tool_support.hpp"

#include <boost/json/value_to.hpp>

namespace {

using namespace tool_test;
using namespace forma;

struct booking {
    std::string hotel;
};
BOOST_DESCRIBE_STRUCT(booking, (), (hotel))

class approvals : public fixture {
protected:
    int weather_calls = 0;
    int bookings = 0;
    function_tool weather = make_tool("get_weather", "", [this](const weather_query& q) {
        ++weather_calls;
        return forecast{q.city, 5};
    });
    function_tool book = make_tool(
        "book_hotel", "Books a hotel",
        [this](const booking& b) {
            ++bookings;
            return "booked " + b.hotel;
        },
        {.requires_approval = true});
    chat_client_agent agent{model, {.name = "planner", .tools = {weather, book}}};

    void script_first_turn() {
        model.add_response(calls_turn({call("c1", "get_weather", R"({"city":"Oslo"})"),
                                       call("c2", "book_hotel", R"({"hotel":"Grand"})")}));
    }

    // The session as it would come back from storage.
    static std::shared_ptr<agent_session> through_json(const agent_session& session) {
        const std::string text = boost::json::serialize(boost::json::value_from(session));
        return std::make_shared<agent_session>(boost::json::value_to<agent_session>(boost::json::parse(text)));
    }

    static chat_message answers(std::vector<content> contents) {
        return chat_message(chat_role::user(), std::move(contents));
    }
};

TEST_F(approvals, a_turn_with_a_call_that_needs_approval_runs_nothing_and_asks) {
    script_first_turn();
    auto session = agent.create_session();
    const agent_response<> r = run(agent.run("Plan my trip to Oslo", session));
    EXPECT_EQ(weather_calls + bookings, 0) << "no call of the turn runs, not even the one without approval";
    const auto requests = r.approval_requests();
    ASSERT_EQ(requests.size(), 2u) << json_text(r);
    EXPECT_EQ(requests[0].id, "c1");
    EXPECT_EQ(requests[0].call.name, "get_weather");
    EXPECT_EQ(requests[1].call.arguments, json(R"({"hotel":"Grand"})").as_object());
    EXPECT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(r.messages[0].author_name, "planner");
    EXPECT_EQ(r.text(), "");
    EXPECT_EQ(model.requests().size(), 1u);
    // The session keeps the question and the requests.
    ASSERT_EQ(session->history.size(), 2u);
    EXPECT_EQ(session->history[1], r.messages[0]);
}

TEST_F(approvals, answers_in_the_next_run_run_the_approved_calls_and_refuse_the_others) {
    script_first_turn();
    auto session = agent.create_session();
    const agent_response<> first = run(agent.run("Plan my trip to Oslo", session));
    auto restored = through_json(*session);
    ASSERT_EQ(*restored, *session);

    const auto requests = first.approval_requests();
    model.add_response(answer_turn("It is 5 degrees; I did not book the hotel."));
    const agent_response<> second =
        run(agent.run(answers({requests[0].approve(), requests[1].reject("too expensive")}), restored));

    EXPECT_EQ(weather_calls, 1);
    EXPECT_EQ(bookings, 0);
    ASSERT_EQ(second.messages.size(), 3u) << json_text(second);
    EXPECT_EQ(second.messages[0].role, chat_role::tool());
    EXPECT_EQ(second.messages[1].role, chat_role::tool());
    const auto results = results_in(second.messages);
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[0].call_id, "c1");
    EXPECT_EQ(results[0].result, json(R"({"city":"Oslo","celsius":5})"));
    EXPECT_EQ(results[1].call_id, "c2");
    EXPECT_EQ(results[1].result, "rejected: too expensive");
    EXPECT_EQ(second.text(), "It is 5 degrees; I did not book the hotel.");

    // The model saw plain calls followed by their results, and no approval content.
    const auto sent = model.requests().at(1).messages; // a copy: later runs add requests
    ASSERT_EQ(sent.size(), 4u);
    EXPECT_EQ(sent[0].text(), "Plan my trip to Oslo");
    ASSERT_EQ(sent[1].contents.size(), 2u);
    EXPECT_TRUE(std::holds_alternative<function_call_content>(sent[1].contents[0]));
    EXPECT_EQ(std::get<function_call_content>(sent[1].contents[1]), requests[1].call);
    EXPECT_EQ(sent[2], second.messages[0]);
    EXPECT_EQ(sent[3], second.messages[1]);

    // A later run sees the same valid conversation, the answers left out.
    model.add_response(answer_turn("You're welcome."));
    run(agent.run("Thanks", restored));
    const auto& third = model.requests().at(2).messages;
    ASSERT_EQ(third.size(), 6u);
    EXPECT_EQ(third[1], sent[1]);
    EXPECT_EQ(third[2], sent[2]);
    EXPECT_EQ(third[3], sent[3]);
    EXPECT_EQ(third[4].text(), "It is 5 degrees; I did not book the hotel.");
    EXPECT_EQ(third[5].text(), "Thanks");
    EXPECT_EQ(weather_calls, 1) << "answered calls never run again";
}

TEST_F(approvals, an_approved_call_of_a_tool_that_needs_approval_runs) {
    script_first_turn();
    auto session = agent.create_session();
    const auto requests = run(agent.run("Plan", session)).approval_requests();
    model.add_response(answer_turn("Booked."));
    run(agent.run(answers({requests[0].approve(), requests[1].approve()}), session));
    EXPECT_EQ(bookings, 1);
    EXPECT_EQ(results_in(model.requests().at(1).messages).at(1).result, "booked Grand");
}

TEST_F(approvals, over_a_client_with_its_own_tool_loop_that_loop_runs_the_approved_call) {
    // The client's loop tells the model what a failing tool said; the agent's own loop (default
    // options) would not: the result shows which loop ran the call.
    function_tool full = make_tool(
        "book_hotel", "Books a hotel",
        [](const booking&) -> std::string { throw std::runtime_error("no rooms left"); }, {.requires_approval = true});
    function_invoking_chat_client stack(model, {.include_tool_error_details = true});
    ASSERT_EQ(static_cast<chat_client&>(stack).find<function_invoking_chat_client>(), &stack);
    chat_client_agent over_loop(stack, {.name = "planner", .tools = {full}});
    model.add_response(calls_turn({call("c1", "book_hotel", R"({"hotel":"Grand"})")}));
    auto session = over_loop.create_session();
    const auto requests = run(over_loop.run("Plan", session)).approval_requests();
    ASSERT_EQ(requests.size(), 1u);
    model.add_response(answer_turn("Sorry."));
    run(over_loop.run(answers({requests[0].approve()}), session));
    EXPECT_EQ(results_in(model.requests().at(1).messages).at(0).error, "the tool failed: no rooms left");
}

TEST_F(approvals, over_a_client_with_its_own_tool_loop_a_streamed_run_equals_the_whole_one) {
    function_tool full = make_tool(
        "book_hotel", "Books a hotel",
        [](const booking&) -> std::string { throw std::runtime_error("no rooms left"); }, {.requires_approval = true});
    function_invoking_chat_client stack(model, {.include_tool_error_details = true});
    chat_client_agent over_loop(stack, {.name = "planner", .tools = {full}});
    auto whole_session = over_loop.create_session();
    auto streamed_session = over_loop.create_session();
    model.add_response(calls_turn({call("c1", "book_hotel", R"({"hotel":"Grand"})")}));
    const agent_response<> whole = run(over_loop.run("Plan", whole_session));
    model.add_response(calls_turn({call("c1", "book_hotel", R"({"hotel":"Grand"})")}));
    const agent_response<> streamed = to_agent_response(run(drain(over_loop.run_streaming("Plan", streamed_session))));
    EXPECT_EQ(without_raw(streamed), without_raw(whole)) << json_text(streamed) << "\n" << json_text(whole);
    const auto requests = whole.approval_requests();
    ASSERT_EQ(requests.size(), 1u);

    model.add_response(answer_turn("Sorry."));
    const agent_response<> resumed_whole = run(over_loop.run(answers({requests[0].approve()}), whole_session));
    model.add_response(answer_turn("Sorry."));
    const agent_response<> resumed_streamed =
        to_agent_response(run(drain(over_loop.run_streaming(answers({requests[0].approve()}), streamed_session))));
    EXPECT_EQ(without_raw(resumed_streamed), without_raw(resumed_whole))
        << json_text(resumed_streamed) << "\n" << json_text(resumed_whole);
    EXPECT_EQ(results_in(model.requests().back().messages).at(0).error, "the tool failed: no rooms left")
        << "the streamed run's approved call ran in the client's loop too";
}

TEST_F(approvals, requests_left_unanswered_are_refused) {
    script_first_turn();
    auto session = agent.create_session();
    run(agent.run("Plan", session));
    model.add_response(answer_turn("Fine."));
    const agent_response<> r = run(agent.run("Never mind, tell me a joke", session));
    EXPECT_EQ(weather_calls + bookings, 0);
    const auto results = results_in(r.messages);
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[0].result, "rejected: the caller did not approve this call");
    const auto sent = model.requests().at(1).messages; // a copy: later runs add requests
    ASSERT_EQ(sent.size(), 5u);
    EXPECT_EQ(sent[2].role, chat_role::tool());
    EXPECT_EQ(sent[3].role, chat_role::tool());
    EXPECT_EQ(sent[4].text(), "Never mind, tell me a joke");
}

TEST_F(approvals, text_beside_the_answers_comes_after_the_results) {
    script_first_turn();
    auto session = agent.create_session();
    const auto requests = run(agent.run("Plan", session)).approval_requests();
    model.add_response(answer_turn("Done."));
    std::vector<content> contents{requests[0].approve(), text_content("and be quick"), requests[1].reject()};
    run(agent.run(answers(contents), session));
    const auto sent = model.requests().at(1).messages; // a copy: later runs add requests
    ASSERT_EQ(sent.size(), 5u);
    EXPECT_FALSE(std::get<function_call_content>(sent[1].contents[0]).call_id.empty());
    EXPECT_EQ(sent[2].role, chat_role::tool());
    EXPECT_EQ(sent[3].role, chat_role::tool());
    EXPECT_EQ(results_in(sent).at(1).result, "rejected");
    EXPECT_EQ(sent[4].text(), "and be quick");
    // And in later runs, where the results follow the answers in the history.
    model.add_response(answer_turn("Bye."));
    run(agent.run("Bye", session));
    const auto& later = model.requests().at(2).messages;
    ASSERT_EQ(later.size(), 7u);
    EXPECT_EQ(later[2].role, chat_role::tool());
    EXPECT_EQ(later[3].role, chat_role::tool());
    EXPECT_EQ(later[4].text(), "and be quick");
}

TEST_F(approvals, an_answer_to_no_request_of_the_session_is_a_tool_error) {
    const function_approval_request_content stray("zz", call("zz", "book_hotel", R"({"hotel":"X"})"));
    try {
        run(agent.run(answers({stray.approve()})));
        FAIL() << "expected a tool_error";
    } catch (const tool_error& e) {
        EXPECT_NE(std::string(e.what()).find("\"zz\" matches no approval request"), std::string::npos) << e.what();
    }
    EXPECT_EQ(bookings, 0);
    EXPECT_TRUE(model.requests().empty());
}

TEST_F(approvals, streamed_runs_ask_and_resume_as_whole_runs_do) {
    auto streamed_session = agent.create_session();
    auto whole_session = agent.create_session();
    script_first_turn();
    const agent_response<> whole = run(agent.run("Plan", whole_session));
    script_first_turn();
    const agent_response<> streamed = to_agent_response(run(drain(agent.run_streaming("Plan", streamed_session))));
    EXPECT_EQ(without_raw(streamed), without_raw(whole)) << json_text(streamed) << "\n" << json_text(whole);
    ASSERT_EQ(streamed.approval_requests().size(), 2u);

    const auto requests = streamed.approval_requests();
    model.add_response(answer_turn("Done."));
    const agent_response<> resumed_whole =
        run(agent.run(answers({requests[0].approve(), requests[1].reject("no")}), whole_session));
    model.add_response(answer_turn("Done."));
    const agent_response<> resumed_streamed = to_agent_response(
        run(drain(agent.run_streaming(answers({requests[0].approve(), requests[1].reject("no")}), streamed_session))));
    EXPECT_EQ(without_raw(resumed_streamed), without_raw(resumed_whole))
        << json_text(resumed_streamed) << "\n" << json_text(resumed_whole);
    EXPECT_EQ(weather_calls, 2);
    EXPECT_EQ(streamed_session->history.size(), whole_session->history.size());
}

TEST_F(approvals, approval_contents_round_trip_through_json) {
    function_approval_request_content request("r1", call("c1", "book_hotel", R"({"hotel":"Grand"})"));
    request.additional_properties["x"] = 1;
    const function_approval_response_content answer = request.reject("too expensive");
    for (const content& c : {content(request), content(answer), content(request.approve())}) {
        const std::string text = boost::json::serialize(boost::json::value_from(c));
        EXPECT_EQ(boost::json::value_to<content>(boost::json::parse(text)), c) << text;
    }
    EXPECT_EQ(content_type(request), "function_approval_request");
    EXPECT_EQ(content_type(answer), "function_approval_response");
    EXPECT_EQ(boost::json::serialize(boost::json::value_from(content(answer))),
              R"({"type":"function_approval_response","id":"r1","approved":false,"call":{"type":"function_call",)"
              R"("call_id":"c1","name":"book_hotel","arguments":{"hotel":"Grand"},"raw_representation":{"id":"c1",)"
              R"("type":"function","function":{"name":"book_hotel","arguments":"{\"hotel\":\"Grand\"}"}}},)"
              R"("reason":"too expensive"})");
    EXPECT_THROW(boost::json::value_to<content>(json(R"({"type":"function_approval_response","id":"r1",)"
                                                     R"("call":{"type":"function_call","name":"f"}})")),
                 json_error);
}

} // namespace
