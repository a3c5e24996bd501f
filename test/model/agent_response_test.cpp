#include "test_support.hpp"

#include <gtest/gtest.h>

#include <type_traits>

namespace {

using namespace forma;
using namespace forma_test;

chat_message assistant(std::vector<content> contents) {
    return chat_message(chat_role::assistant(), std::move(contents));
}

TEST(model_agent_response, untyped_response_is_spelled_with_empty_brackets_or_deduced) {
    static_assert(std::is_same_v<agent_response<>, agent_response<void>>);
    agent_response<> original(chat_message(chat_role::assistant(), "hi"));
    agent_response deduced = original; // CTAD through the copy deduction candidate
    static_assert(std::is_same_v<decltype(deduced), agent_response<void>>);
    EXPECT_EQ(deduced.text(), "hi");
}

TEST(model_agent_response, empty_response_has_empty_text) {
    EXPECT_EQ(agent_response<>().text(), "");
    EXPECT_EQ(agent_response<>(std::vector<chat_message>(3, assistant({}))).text(), "");
}

TEST(model_agent_response, text_joins_messages_with_newline) {
    const agent_response<> r({assistant({text_content("first")}), assistant({text_content("second")}),
                              assistant({text_content("third")})});
    EXPECT_EQ(r.text(), "first\nsecond\nthird");
}

TEST(model_agent_response, text_joins_contents_within_a_message_with_no_separator) {
    const agent_response<> r(assistant({text_content("Hel"), text_content("lo")}));
    EXPECT_EQ(r.text(), "Hello");
}

TEST(model_agent_response, text_skips_non_text_content_and_messages_without_text) {
    const agent_response<> r({
        assistant({text_reasoning_content("private thoughts")}),
        assistant({function_call_content("c1", "search", {{"q", "x"}})}),
        chat_message(chat_role::tool(), {function_result_content("c1", "found")}),
        assistant({text_content("")}),
        assistant({text_reasoning_content("more"), text_content("Answer"),
                   error_content("partial failure")}),
        assistant({data_content({std::byte{7}}, "image/png"), uri_content("https://u", "text/html")}),
        assistant({text_content("Done.")}),
    });
    EXPECT_EQ(r.text(), "Answer\nDone.");
}

// An orchestration's response holds several participants' answers: text() is the last author's.
TEST(model_agent_response, text_is_the_answer_of_the_last_author) {
    const auto by = [](std::string author, std::string text) {
        chat_message m = assistant({text_content(std::move(text))});
        m.author_name = std::move(author);
        return m;
    };
    EXPECT_EQ(agent_response<>({by("writer", "Draft."), by("reviewer", "Looks"), by("reviewer", "fine.")}).text(), "Looks\nfine.");
    EXPECT_EQ(agent_response<>({by("writer", "Draft."), by("", "Unnamed.")}).text(), "Unnamed.");
    EXPECT_EQ(agent_response<>({by("a", "One."), by("b", "Two."), by("a", "Three.")}).text(), "Three.");
}

TEST(model_agent_response, text_includes_messages_of_every_role) {
    // text() is about content kinds, not roles: a user echo is text too.
    const agent_response<> r({chat_message(chat_role::user(), "q"), assistant({text_content("a")})});
    EXPECT_EQ(r.text(), "q\na");
}

TEST(model_agent_response, text_starts_after_the_last_tool_result_or_output_errors) {
    const chat_message rejected = assistant({text_content(R"({"age":"x"})")});
    const chat_message errors(chat_role::user(), std::vector<content>{output_errors_content(std::vector<output_error>{{"/age", "expected integer"}})});
    const chat_message call = assistant({function_call_content("c1", "f", {})});
    const chat_message result(chat_role::tool(), std::vector<content>{function_result_content("c1", "r")});
    EXPECT_EQ(agent_response<>({rejected, errors, assistant({text_content(R"({"age":3})")})}).text(), R"({"age":3})");
    EXPECT_EQ(agent_response<>({call, result, rejected, errors, assistant({text_content("b")})}).text(), "b");
    EXPECT_EQ(agent_response<>({call, result, assistant({text_content("a")})}).text(), "a");
    EXPECT_EQ(agent_response<>({rejected, errors}).text(), ""); // no answer after the errors yet
}

TEST(model_agent_response, to_updates_gives_one_update_per_message_then_a_trailer) {
    agent_response<> r({assistant({text_content("a")}), chat_message(chat_role::tool(), "b")});
    r.response_id = "resp_1";
    r.agent_id = "agent_1";
    r.finish_reason = finish_reason::stop();
    r.usage = usage_details{.input_token_count = 5};
    const auto updates = r.to_updates();
    ASSERT_EQ(updates.size(), 3u);
    EXPECT_EQ(updates[0].role, chat_role::assistant());
    EXPECT_EQ(updates[0].text(), "a");
    EXPECT_EQ(updates[1].role, chat_role::tool());
    EXPECT_EQ(updates[1].response_id, "resp_1");
    EXPECT_EQ(updates[2].role, std::nullopt);
    EXPECT_EQ(updates[2].finish_reason, finish_reason::stop());
    ASSERT_EQ(updates[2].contents.size(), 1u);
    EXPECT_EQ(std::get<usage_content>(updates[2].contents[0]).details.input_token_count, 5);
}

TEST(model_agent_response, to_updates_of_an_empty_response_is_empty) {
    EXPECT_TRUE(agent_response<>().to_updates().empty());
}

// A response with everything set, in the shape merging produces.
agent_response<> full_response() {
    chat_message planner(chat_role::assistant(),
                         {text_reasoning_content("plan", std::string("sig")), text_content("Step 1"),
                          function_call_content("c1", "run", {{"n", 1}})});
    planner.author_name = "planner";
    planner.message_id = "m1";
    planner.created_at = at(1'000) + 5ms;
    chat_message tool(chat_role::tool(), {function_result_content("c1", {{"ok", true}})});
    tool.message_id = "m2";
    chat_message answer(chat_role::assistant(), {text_content("Done"), error_content("late", "x")});
    answer.message_id = "m3";
    answer.created_at = at(2'000);

    agent_response<> r({planner, tool, answer});
    r.response_id = "resp_9";
    r.agent_id = "agent_9";
    r.created_at = at(500); // earlier than any message: needs its own update
    r.finish_reason = finish_reason(std::string("pause_turn"));
    r.usage = usage_details{.input_token_count = 10, .output_token_count = 20};
    r.usage->additional_counts["searches"] = 2;
    r.continuation_token = continuation_token(boost::json::value{{"id", "resp_9"}, {"seq", 4}});
    r.additional_properties["service_tier"] = "flex";
    return r;
}

TEST(model_agent_response, to_updates_then_to_agent_response_round_trips) {
    const agent_response<> r = full_response();
    EXPECT_EQ(to_agent_response(r.to_updates()), r);
}

TEST(model_agent_response, to_updates_round_trips_when_the_first_message_carries_the_response_time) {
    agent_response<> r = full_response();
    r.created_at = r.messages[0].created_at;
    const auto updates = r.to_updates();
    EXPECT_EQ(updates.size(), 4u); // no leading update needed
    EXPECT_EQ(to_agent_response(updates), r);
}

TEST(model_agent_response, to_updates_round_trips_ids_alone) {
    agent_response<> r;
    r.response_id = "resp_only";
    EXPECT_EQ(to_agent_response(r.to_updates()), r);
}

} // namespace
