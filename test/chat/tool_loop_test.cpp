// function_invoking_chat_client over a scripted model: the loop, its limits, concurrency,
// timeouts, cancellation, and streams that merge into what get_response returns.
#include "tool_support.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <forma/telemetry/gen_ai.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>

namespace {

using namespace tool_test;
using namespace forma;

class tool_loop : public fixture {
protected:
    int weather_calls = 0;
    function_tool weather = make_tool("get_weather", "The weather in a city", [this](const weather_query& q) {
        ++weather_calls;
        return forecast{q.city, 5};
    });
    function_tool failing = make_tool("explode", "Always fails", []() -> int { throw std::runtime_error("boom 42"); });

    chat_options with_tools(std::vector<function_tool> tools) const {
        chat_options o;
        o.tools = std::move(tools);
        return o;
    }

    std::vector<chat_message> ask(std::string text) const { return {chat_message(chat_role::user(), std::move(text))}; }
};

TEST_F(tool_loop, runs_the_call_sends_the_result_back_and_returns_every_step) {
    model.add_response(calls_turn({call("call_1", "get_weather", R"({"city":"Oslo"})")}));
    model.add_response(answer_turn("It is 5 degrees in Oslo."));
    function_invoking_chat_client loop(model);
    const agent_response<> r = run(loop.get_response(ask("Weather in Oslo?"), with_tools({weather})));

    EXPECT_EQ(weather_calls, 1);
    ASSERT_EQ(r.messages.size(), 3u) << json_text(r);
    EXPECT_TRUE(std::holds_alternative<function_call_content>(r.messages[0].contents.at(0)));
    EXPECT_EQ(r.messages[1].role, chat_role::tool());
    EXPECT_EQ(r.messages[1].message_id, "call_1");
    const auto results = results_in(r.messages);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].call_id, "call_1");
    EXPECT_EQ(results[0].result, json(R"({"city":"Oslo","celsius":5})"));
    EXPECT_FALSE(results[0].error);
    EXPECT_EQ(r.text(), "It is 5 degrees in Oslo.");
    EXPECT_EQ(r.response_id, "turn-2");
    EXPECT_EQ(r.finish_reason, finish_reason::stop());
    ASSERT_TRUE(r.usage);
    EXPECT_EQ(r.usage->input_token_count, 30);
    EXPECT_EQ(r.usage->output_token_count, 7);

    // The second request: the question, the model's calls, then the result; tools offered both times.
    ASSERT_EQ(model.requests().size(), 2u);
    const auto& second = model.requests()[1].messages;
    ASSERT_EQ(second.size(), 3u);
    EXPECT_EQ(second[1], r.messages[0]);
    EXPECT_EQ(second[2], r.messages[1]);
    EXPECT_EQ(model.requests()[0].options.tools.size(), 1u);
    EXPECT_EQ(model.requests()[1].options.tools.size(), 1u);
}

TEST_F(tool_loop, without_calls_the_answer_passes_through) {
    model.add_response(answer_turn("Hello."));
    function_invoking_chat_client loop(model);
    const agent_response<> r = run(loop.get_response(ask("Hi"), with_tools({weather})));
    EXPECT_EQ(r.text(), "Hello.");
    EXPECT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(weather_calls, 0);
}

TEST_F(tool_loop, arguments_that_do_not_fit_go_back_to_the_model_with_their_pointer) {
    model.add_response(calls_turn({call("c1", "get_weather", R"({"city": 5})")}));
    model.add_response(calls_turn({call("c2", "get_weather", R"({"city": "Os)")}, "turn-2"));
    model.add_response(answer_turn("Sorry.", "turn-3"));
    function_invoking_chat_client loop(model);
    const agent_response<> r = run(loop.get_response(ask("Weather?"), with_tools({weather})));
    EXPECT_EQ(weather_calls, 0);
    const auto wrong_type = last_result(model.requests()[1].messages);
    ASSERT_TRUE(wrong_type.error);
    EXPECT_NE(wrong_type.error->find("invalid arguments: at /city: expected string"), std::string::npos)
        << *wrong_type.error;
    const auto not_json = last_result(model.requests()[2].messages);
    ASSERT_TRUE(not_json.error);
    EXPECT_NE(not_json.error->find("invalid arguments: at /city: invalid JSON"), std::string::npos)
        << *not_json.error;
    EXPECT_EQ(r.text(), "Sorry.");
}

TEST_F(tool_loop, huge_or_deep_arguments_meet_the_parse_limits_not_the_tool) {
    const std::string huge = R"({"city":")" + std::string(17 * 1024 * 1024, 'x') + R"("})";
    const std::string deep = R"({"city":"Oslo","extra":)" + std::string(100, '[') + std::string(100, ']') + "}";
    model.add_response(calls_turn({call("c1", "get_weather", huge), call("c2", "get_weather", deep)}));
    model.add_response(answer_turn("Sorry."));
    function_invoking_chat_client loop(model, {.max_consecutive_tool_errors = 5});
    run(loop.get_response(ask("Weather?"), with_tools({weather})));
    EXPECT_EQ(weather_calls, 0);
    const auto results = results_in(model.requests()[1].messages);
    ASSERT_EQ(results.size(), 2u);
    ASSERT_TRUE(results[0].error && results[1].error);
    EXPECT_NE(results[0].error->find("max_string_length"), std::string::npos) << *results[0].error;
    EXPECT_NE(results[1].error->find("deeper than the limit of 64"), std::string::npos) << *results[1].error;
    EXPECT_LT(results[0].error->size(), 1000u) << "the message does not quote the argument";
}

TEST_F(tool_loop, an_unknown_tool_is_named_to_the_model_with_the_tools_there_are) {
    model.add_response(calls_turn({call("c1", "get_wether", "{}")}));
    model.add_response(answer_turn("Oops."));
    function_invoking_chat_client loop(model);
    run(loop.get_response(ask("Weather?"), with_tools({weather, failing})));
    const auto result = last_result(model.requests()[1].messages);
    ASSERT_TRUE(result.error);
    EXPECT_EQ(*result.error, "unknown tool \"get_wether\"; the tools are: get_weather, explode");
}

TEST_F(tool_loop, a_failing_tool_says_why_only_when_details_are_on) {
    model.add_response(calls_turn({call("c1", "explode", "{}")}));
    model.add_response(answer_turn("Failed."));
    function_invoking_chat_client quiet(model);
    run(quiet.get_response(ask("Go"), with_tools({failing})));
    EXPECT_EQ(last_result(model.requests()[1].messages).error, "the tool failed");

    model.add_response(calls_turn({call("c1", "explode", "{}")}));
    model.add_response(answer_turn("Failed."));
    function_invoking_chat_client detailed(model, {.include_tool_error_details = true});
    run(detailed.get_response(ask("Go"), with_tools({failing})));
    EXPECT_EQ(last_result(model.requests()[3].messages).error, "the tool failed: boom 42");
}

TEST_F(tool_loop, too_many_failed_calls_in_a_row_end_the_run_with_a_tool_error) {
    for (int i = 0; i < 3; ++i) model.add_response(calls_turn({call("c" + std::to_string(i), "explode", "{}")}));
    model.add_response(calls_turn({call("c3", "explode", "{}")}));
    function_invoking_chat_client loop(model, {.max_consecutive_tool_errors = 3});
    try {
        run(loop.get_response(ask("Go"), with_tools({failing})));
        FAIL() << "expected a tool_error";
    } catch (const tool_error& e) {
        EXPECT_EQ(e.tool_name(), "explode");
        EXPECT_EQ(e.call_id(), "c3");
        EXPECT_NE(std::string(e.what()).find("4 tool calls failed in a row"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("max_consecutive_tool_errors (3)"), std::string::npos) << e.what();
    }
    EXPECT_EQ(model.requests().size(), 4u);
}

TEST_F(tool_loop, a_call_that_succeeds_resets_the_count_of_failures) {
    for (int i = 0; i < 3; ++i) model.add_response(calls_turn({call("f" + std::to_string(i), "explode", "{}")}));
    model.add_response(calls_turn({call("ok", "get_weather", R"({"city":"Oslo"})")}));
    for (int i = 0; i < 3; ++i) model.add_response(calls_turn({call("g" + std::to_string(i), "explode", "{}")}));
    model.add_response(answer_turn("Done."));
    function_invoking_chat_client loop(model, {.max_tool_iterations = 20, .max_consecutive_tool_errors = 3});
    EXPECT_EQ(run(loop.get_response(ask("Go"), with_tools({failing, weather}))).text(), "Done.");
}

TEST_F(tool_loop, after_the_last_round_the_model_is_told_to_answer) {
    for (int i = 0; i < 2; ++i)
        model.add_response(calls_turn({call("c" + std::to_string(i), "get_weather", R"({"city":"Oslo"})")}));
    model.add_response(answer_turn("Enough."));
    function_invoking_chat_client loop(model, {.max_tool_iterations = 2});
    const agent_response<> r = run(loop.get_response(ask("Go"), with_tools({weather})));
    EXPECT_EQ(r.text(), "Enough.");
    EXPECT_EQ(weather_calls, 2);
    ASSERT_EQ(model.requests().size(), 3u);
    EXPECT_FALSE(model.requests()[0].options.tool_choice);
    EXPECT_FALSE(model.requests()[1].options.tool_choice);
    EXPECT_EQ(model.requests()[2].options.tool_choice, tool_choice::none());
}

TEST_F(tool_loop, a_model_that_calls_tools_after_being_told_not_to_ends_the_run) {
    for (int i = 0; i < 3; ++i)
        model.add_response(calls_turn({call("c" + std::to_string(i), "get_weather", R"({"city":"Oslo"})")}));
    function_invoking_chat_client loop(model, {.max_tool_iterations = 2});
    try {
        run(loop.get_response(ask("Go"), with_tools({weather})));
        FAIL() << "expected a tool_error";
    } catch (const tool_error& e) {
        EXPECT_NE(std::string(e.what()).find("after 2 rounds"), std::string::npos) << e.what();
    }
    EXPECT_EQ(weather_calls, 2) << "the calls of the forbidden turn do not run";
}

TEST_F(tool_loop, a_forced_choice_applies_to_the_first_request_only) {
    model.add_response(calls_turn({call("c1", "get_weather", R"({"city":"Oslo"})")}));
    model.add_response(answer_turn("Done."));
    function_invoking_chat_client loop(model);
    chat_options o = with_tools({weather});
    o.tool_choice = tool_choice::function("get_weather");
    run(loop.get_response(ask("Go"), o));
    EXPECT_EQ(model.requests()[0].options.tool_choice, tool_choice::function("get_weather"));
    EXPECT_EQ(model.requests()[1].options.tool_choice, tool_choice::automatic());
}

TEST_F(tool_loop, the_calls_of_one_turn_run_concurrently_and_answer_in_call_order) {
    int running = 0, most = 0;
    std::vector<std::string> finished;
    const function_tool wait = make_tool("wait", "", [&](const weather_query& q) -> asio::awaitable<std::string> {
        ++running;
        most = std::max(most, running);
        // The first call waits longest, so completion order is the reverse of call order.
        asio::steady_timer timer(co_await asio::this_coro::executor, std::chrono::milliseconds(60 - 20 * std::stoi(q.city)));
        co_await timer.async_wait(asio::use_awaitable);
        --running;
        finished.push_back(q.city);
        co_return "done " + q.city;
    });
    model.add_response(calls_turn({call("a", "wait", R"({"city":"0"})"), call("b", "wait", R"({"city":"1"})"),
                                   call("c", "wait", R"({"city":"2"})")}));
    model.add_response(answer_turn("All done."));
    function_invoking_chat_client loop(model);
    const agent_response<> r = run(loop.get_response(ask("Go"), with_tools({wait})));
    EXPECT_EQ(most, 3) << "all three ran at once";
    EXPECT_EQ(finished, (std::vector<std::string>{"2", "1", "0"}));
    ASSERT_EQ(r.messages.size(), 5u) << "the calls, one tool message per result, the answer";
    const auto results = results_in(r.messages);
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(results[0].call_id, "a");
    EXPECT_EQ(results[0].result, "done 0");
    EXPECT_EQ(results[2].call_id, "c");
}

TEST_F(tool_loop, a_call_past_its_timeout_is_cancelled_and_reported) {
    bool cancelled = false;
    const function_tool stuck = make_tool(
        "stuck", "",
        [&]() -> asio::awaitable<int> {
            asio::steady_timer forever(co_await asio::this_coro::executor, std::chrono::hours(1));
            try {
                co_await forever.async_wait(asio::use_awaitable);
            } catch (const boost::system::system_error&) {
                cancelled = true;
                throw;
            }
            co_return 1;
        },
        {.timeout = std::chrono::milliseconds(20)});
    model.add_response(calls_turn({call("c1", "stuck", "{}")}));
    model.add_response(answer_turn("It hung."));
    function_invoking_chat_client loop(model);
    const auto started = std::chrono::steady_clock::now();
    EXPECT_EQ(run(loop.get_response(ask("Go"), with_tools({stuck}))).text(), "It hung.");
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
    EXPECT_TRUE(cancelled);
    EXPECT_EQ(last_result(model.requests()[1].messages).error,
              "the tool did not finish within 20 ms and was cancelled");
}

TEST_F(tool_loop, a_tool_that_fails_before_its_timeout_fails_at_once) {
    const function_tool quick_failure =
        make_tool("bad", "", []() -> int { throw std::runtime_error("x"); }, {.timeout = std::chrono::hours(1)});
    model.add_response(calls_turn({call("c1", "bad", "{}")}));
    model.add_response(answer_turn("ok"));
    function_invoking_chat_client loop(model);
    run(loop.get_response(ask("Go"), with_tools({quick_failure})), std::chrono::seconds(5));
    EXPECT_EQ(last_result(model.requests()[1].messages).error, "the tool failed");
}

TEST_F(tool_loop, cancelling_the_request_cancels_the_running_tools) {
    int started = 0, cancelled = 0;
    const function_tool stuck = make_tool("stuck", "", [&]() -> asio::awaitable<int> {
        ++started;
        asio::steady_timer forever(co_await asio::this_coro::executor, std::chrono::hours(1));
        try {
            co_await forever.async_wait(asio::use_awaitable);
        } catch (const boost::system::system_error&) {
            ++cancelled;
            throw;
        }
        co_return 1;
    });
    model.add_response(calls_turn({call("c1", "stuck", "{}"), call("c2", "stuck", "{}")}));
    function_invoking_chat_client loop(model);
    asio::cancellation_signal signal;
    std::exception_ptr outcome;
    bool done = false;
    asio::co_spawn(io, loop.get_response(ask("Go"), with_tools({stuck})),
                   asio::bind_cancellation_slot(signal.slot(), [&](std::exception_ptr e, agent_response<>) {
                       outcome = e;
                       done = true;
                   }));
    while (started < 2) io.run_one_for(10ms);
    signal.emit(asio::cancellation_type::terminal);
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!done && std::chrono::steady_clock::now() < end) io.run_one_for(10ms);
    ASSERT_TRUE(done);
    EXPECT_EQ(cancelled, 2);
    ASSERT_TRUE(outcome);
    try {
        std::rethrow_exception(outcome);
    } catch (const boost::system::system_error& e) {
        EXPECT_EQ(e.code(), asio::error::operation_aborted);
    }
    EXPECT_EQ(model.requests().size(), 1u) << "no request after the cancellation";
}

TEST_F(tool_loop, a_cancelled_call_is_a_cancelled_span) {
    auto memory = std::make_shared<telemetry::in_memory_exporter>();
    bool started = false;
    const function_tool stuck = make_tool("stuck", "", [&]() -> asio::awaitable<int> {
        started = true;
        asio::steady_timer forever(co_await asio::this_coro::executor, std::chrono::hours(1));
        co_await forever.async_wait(asio::use_awaitable);
        co_return 1;
    });
    model.add_response(calls_turn({call("c1", "stuck", "{}")}));
    function_invoking_chat_client loop(model);
    chat_options options = with_tools({stuck});
    const forma::run_context traced{.trace = telemetry::trace_parent{.exporter = memory}};
    asio::cancellation_signal signal;
    bool done = false;
    asio::co_spawn(io, loop.get_response(ask("Go"), options, traced),
                   asio::bind_cancellation_slot(signal.slot(), [&](std::exception_ptr, agent_response<>) { done = true; }));
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!started && std::chrono::steady_clock::now() < end) io.run_one_for(10ms);
    signal.emit(asio::cancellation_type::terminal);
    while (!done && std::chrono::steady_clock::now() < end) io.run_one_for(10ms);
    ASSERT_TRUE(done);
    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 1u);
    EXPECT_EQ(spans[0].status, telemetry::status_code::error);
    EXPECT_EQ(std::get<std::string>(*telemetry::find(spans[0].attributes, telemetry::gen_ai::attr::error_type)),
              "cancelled");
}

TEST_F(tool_loop, calls_without_an_id_or_sharing_one_are_a_tool_error) {
    model.add_response(calls_turn({call("same", "get_weather", R"({"city":"a"})"),
                                   call("same", "get_weather", R"({"city":"b"})")}));
    function_invoking_chat_client loop(model);
    EXPECT_THROW(run(loop.get_response(ask("Go"), with_tools({weather}))), tool_error);
    model.add_response(calls_turn({call("", "get_weather", R"({"city":"a"})")}));
    EXPECT_THROW(run(loop.get_response(ask("Go"), with_tools({weather}))), tool_error);
    EXPECT_EQ(weather_calls, 0);
}

TEST_F(tool_loop, two_tools_of_one_name_are_an_error) {
    function_invoking_chat_client loop(model);
    EXPECT_THROW(run(loop.get_response(ask("Go"), with_tools({weather, weather}))), forma::error);
}

TEST_F(tool_loop, a_result_that_is_not_utf8_is_a_failed_call) {
    const function_tool latin1 = make_tool("read", "", "{\"type\":\"object\"}",
                                           [](boost::json::value) { return boost::json::value("caf\xE9"); });
    model.add_response(calls_turn({call("c1", "read", "{}")}));
    model.add_response(answer_turn("ok"));
    function_invoking_chat_client loop(model);
    run(loop.get_response(ask("Go"), with_tools({latin1})));
    const auto result = last_result(model.requests()[1].messages);
    EXPECT_TRUE(result.result.is_null());
    EXPECT_EQ(result.error, "the tool's result holds text that is not valid UTF-8 (at \"\")");
}

TEST_F(tool_loop, a_stream_yields_calls_once_complete_then_results_then_the_next_turn) {
    agent_response_update role(chat_role::assistant(), std::vector<content>{});
    role.message_id = "turn-1";
    agent_response_update thinking(std::nullopt, "Checking. ");
    thinking.message_id = "turn-1";
    agent_response_update calls(std::nullopt, std::vector<content>{call("c1", "get_weather", R"({"city":"Oslo"})"),
                                                                   call("c2", "get_weather", R"({"city":"Rome"})")});
    calls.message_id = "turn-1";
    calls.finish_reason = finish_reason::tool_calls();
    agent_response_update usage(std::nullopt, std::vector<content>{usage_content({.input_token_count = 3})});
    model.add_updates({role, thinking, calls, usage});
    model.add_response(answer_turn("Oslo 5, Rome 5."));
    function_invoking_chat_client loop(model);
    const auto updates = run(drain(loop.get_streaming_response(ask("Go"), with_tools({weather}))));

    // The calls come in one update, after the finish and usage of their turn, in its message.
    std::size_t calls_at = updates.size(), results_at = updates.size();
    for (std::size_t i = 0; i < updates.size(); ++i) {
        std::size_t n = 0;
        for (const auto& c : updates[i].contents) n += std::holds_alternative<function_call_content>(c);
        if (n) {
            EXPECT_EQ(calls_at, updates.size()) << "calls in more than one update";
            EXPECT_EQ(n, 2u);
            EXPECT_EQ(updates[i].message_id, "turn-1");
            calls_at = i;
        }
        if (updates[i].role == chat_role::tool()) results_at = i;
    }
    ASSERT_LT(calls_at, updates.size());
    ASSERT_LT(results_at, updates.size());
    EXPECT_EQ(results_at, calls_at + 2) << "one update per result";
    EXPECT_EQ(updates[calls_at - 1].contents.size(), 1u) << "the usage passed before the calls";
    EXPECT_EQ(updates[results_at + 1].text(), "Oslo 5, Rome 5.");

    const agent_response<> merged = to_agent_response(updates);
    ASSERT_EQ(merged.messages.size(), 4u) << json_text(merged);
    EXPECT_EQ(merged.messages[0].text(), "Checking. ");
    EXPECT_EQ(merged.messages[0].contents.size(), 3u);
    EXPECT_EQ(merged.messages[1].message_id, "c1");
    EXPECT_EQ(merged.messages[2].message_id, "c2");
    EXPECT_EQ(merged.text(), "Oslo 5, Rome 5.");
    EXPECT_EQ(weather_calls, 2);
}

TEST_F(tool_loop, stream_and_whole_response_agree) {
    // The same script, asked whole and streamed: the model's turns and the loop's messages merge equal.
    auto script = [&] {
        model.add_response(calls_turn({call("c1", "get_weather", R"({"city":"Oslo"})"),
                                       call("c2", "nope", "{}")}));
        model.add_response(calls_turn({call("c3", "get_weather", R"({"city": 1})")}, "turn-1b"));
        model.add_response(answer_turn("Done."));
    };
    function_invoking_chat_client loop(model);
    script();
    const agent_response<> whole = run(loop.get_response(ask("Go"), with_tools({weather})));
    script();
    const agent_response<> streamed =
        to_agent_response(run(drain(loop.get_streaming_response(ask("Go"), with_tools({weather})))));
    EXPECT_EQ(without_raw(whole), without_raw(streamed)) << json_text(whole) << "\n" << json_text(streamed);
    EXPECT_EQ(whole.messages.size(), 6u);
}

TEST_F(tool_loop, a_call_of_a_tool_that_stops_the_loop_ends_the_response_with_the_turns_results) {
    int transfers = 0;
    function_tool transfer = make_tool(
        "transfer", "Hands the conversation on", [&]() {
            ++transfers;
            return std::string("transferred");
        },
        {.stop_after_call = true});
    auto script = [&] {
        // Nothing more is scripted: a second request would fail the run.
        model.add_response(calls_turn({call("c1", "get_weather", R"({"city":"Oslo"})"), call("c2", "transfer", "{}")}));
    };
    function_invoking_chat_client loop(model);
    script();
    const agent_response<> whole = run(loop.get_response(ask("Go"), with_tools({weather, transfer})));
    EXPECT_EQ(model.requests().size(), 1u) << "the model is not asked again";
    EXPECT_EQ(weather_calls, 1) << "the turn's other calls still run";
    EXPECT_EQ(transfers, 1);
    ASSERT_EQ(whole.messages.size(), 3u) << json_text(whole);
    EXPECT_EQ(whole.messages.back().role, chat_role::tool());
    EXPECT_EQ(results_in(whole.messages).back().result, json(R"("transferred")"));

    script();
    const agent_response<> streamed =
        to_agent_response(run(drain(loop.get_streaming_response(ask("Go"), with_tools({weather, transfer})))));
    EXPECT_EQ(model.requests().size(), 2u) << "the stream stops there too";
    EXPECT_EQ(without_raw(whole), without_raw(streamed)) << json_text(whole) << "\n" << json_text(streamed);
}

TEST_F(tool_loop, an_approved_call_of_a_tool_that_stops_the_loop_ends_the_response_after_it_runs) {
    function_tool transfer = make_tool(
        "transfer", "Hands the conversation on", []() { return std::string("transferred"); },
        {.requires_approval = true, .stop_after_call = true});
    model.add_response(calls_turn({call("c1", "transfer", "{}")}));
    function_invoking_chat_client loop(model);
    std::vector<chat_message> conversation = ask("Go");
    const agent_response<> asked = run(loop.get_response(conversation, with_tools({transfer})));
    ASSERT_EQ(asked.approval_requests().size(), 1u) << json_text(asked);
    conversation.insert(conversation.end(), asked.messages.begin(), asked.messages.end());
    conversation.emplace_back(chat_role::user(), std::vector<content>{asked.approval_requests()[0].approve()});
    const agent_response<> ran = run(loop.get_response(conversation, with_tools({transfer})));
    EXPECT_EQ(model.requests().size(), 1u) << "the approved call ran and the loop ended without asking the model";
    ASSERT_EQ(results_in(ran.messages).size(), 1u) << json_text(ran);
    EXPECT_EQ(results_in(ran.messages)[0].result, json(R"("transferred")"));
}

} // namespace
