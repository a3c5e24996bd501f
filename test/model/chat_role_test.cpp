#include "test_support.hpp"

#include <gtest/gtest.h>

namespace {

using forma::chat_role;
using forma::finish_reason;
using namespace forma_test;

TEST(model_chat_role, named_roles_have_their_conventional_values) {
    EXPECT_EQ(chat_role::system().value(), "system");
    EXPECT_EQ(chat_role::user().value(), "user");
    EXPECT_EQ(chat_role::assistant().value(), "assistant");
    EXPECT_EQ(chat_role::tool().value(), "tool");
}

TEST(model_chat_role, compares_case_insensitively_and_keeps_its_spelling) {
    const chat_role shouting(std::string("ASSISTANT"));
    EXPECT_EQ(shouting, chat_role::assistant());
    EXPECT_EQ(shouting.value(), "ASSISTANT");
    EXPECT_NE(chat_role::user(), chat_role::assistant());
    EXPECT_NE(chat_role(std::string("users")), chat_role::user());
}

TEST(model_chat_role, custom_values_are_allowed) {
    const chat_role developer(std::string("developer"));
    EXPECT_EQ(developer.value(), "developer");
    EXPECT_EQ(developer, chat_role(std::string("Developer")));
    EXPECT_NE(developer, chat_role::system());
}

TEST(model_chat_role, an_empty_role_is_an_error) {
    EXPECT_THROW(chat_role{std::string()}, forma::error);
}

TEST(model_chat_role, json_is_the_plain_string) {
    EXPECT_EQ(json_text(chat_role::tool()), R"("tool")");
    EXPECT_EQ(json_text(chat_role(std::string("Critic"))), R"("Critic")");
    const chat_role back = from_text<chat_role>(R"("Critic")");
    EXPECT_EQ(back.value(), "Critic");
}

TEST(model_chat_role, json_that_is_not_a_role_is_a_json_error) {
    EXPECT_THROW(from_text<chat_role>("3"), forma::json_error);
    EXPECT_THROW(from_text<chat_role>(R"("")"), forma::json_error);
    EXPECT_THROW(from_text<chat_role>("null"), forma::json_error);
    try {
        from_text<chat_role>("[1]");
        FAIL() << "expected json_error";
    } catch (const forma::json_error& e) {
        EXPECT_STREQ(e.what(), "expected non-empty role string, got array");
    }
}

TEST(model_finish_reason, named_reasons_have_their_conventional_values) {
    EXPECT_EQ(finish_reason::stop().value(), "stop");
    EXPECT_EQ(finish_reason::length().value(), "length");
    EXPECT_EQ(finish_reason::tool_calls().value(), "tool_calls");
    EXPECT_EQ(finish_reason::content_filter().value(), "content_filter");
}

TEST(model_finish_reason, compares_case_insensitively_and_allows_custom_values) {
    EXPECT_EQ(finish_reason(std::string("Length")), finish_reason::length());
    EXPECT_NE(finish_reason::stop(), finish_reason::length());
    const finish_reason paused(std::string("pause_turn"));
    EXPECT_EQ(paused.value(), "pause_turn");
    EXPECT_NE(paused, finish_reason::stop());
    EXPECT_THROW(finish_reason{std::string()}, forma::error);
}

TEST(model_finish_reason, json_is_the_plain_string) {
    EXPECT_EQ(json_text(finish_reason::content_filter()), R"("content_filter")");
    EXPECT_EQ(from_text<finish_reason>(R"("pause_turn")").value(), "pause_turn");
    EXPECT_THROW(from_text<finish_reason>("{}"), forma::json_error);
    EXPECT_THROW(from_text<finish_reason>(R"("")"), forma::json_error);
}

} // namespace
