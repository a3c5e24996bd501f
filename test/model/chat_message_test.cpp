#include "test_support.hpp"

#include <gtest/gtest.h>

namespace {

using namespace forma;
using namespace forma_test;

TEST(model_chat_message, defaults_to_an_empty_user_message) {
    const chat_message m;
    EXPECT_EQ(m.role, chat_role::user());
    EXPECT_TRUE(m.contents.empty());
    EXPECT_EQ(m.text(), "");
}

TEST(model_chat_message, text_constructor_holds_one_text_content) {
    const chat_message m(chat_role::system(), "Be brief.");
    ASSERT_EQ(m.contents.size(), 1u);
    EXPECT_EQ(std::get<text_content>(m.contents[0]).text, "Be brief.");
}

TEST(model_chat_message, text_joins_text_contents_with_no_separator_and_skips_the_rest) {
    const chat_message m(chat_role::assistant(),
                         {text_reasoning_content("let me think"), text_content("The answer"),
                          function_call_content("c1", "calc", {{"x", 1}}),
                          function_result_content("c1", 42), text_content(" is 42."),
                          usage_content({.input_token_count = 3}), error_content("oops"),
                          data_content({std::byte{1}}, "image/png"),
                          uri_content("https://x", "image/png"), refusal_content("no"),
                          unknown_content("k", {})});
    EXPECT_EQ(m.text(), "The answer is 42.");
}

TEST(model_chat_message, json_writes_only_what_is_set) {
    const chat_message m(chat_role::user(), "Hi");
    EXPECT_EQ(json_text(m), R"({"role":"user","contents":[{"type":"text","text":"Hi"}]})");

    chat_message full(chat_role::assistant(), std::vector<content>{});
    full.author_name = "planner";
    full.message_id = "msg_1";
    full.created_at = at(1'700'000'000) + 250ms;
    EXPECT_EQ(json_text(full), R"({"role":"assistant","author_name":"planner","message_id":"msg_1",)"
                               R"("created_at":"2023-11-14T22:13:20.25Z","contents":[]})");
}

TEST(model_chat_message, json_round_trips) {
    chat_message m(chat_role(std::string("Critic")),
                   {text_content("a"), text_reasoning_content("b", std::string("sig"))});
    m.author_name = "reviewer";
    m.message_id = "m-7";
    m.created_at = at(86400 * 365) + 123456789ns;
    EXPECT_EQ(through_json_text(m), m);
    EXPECT_EQ(through_json_text(m).role.value(), "Critic");
}

} // namespace
