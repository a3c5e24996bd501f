#include "test_support.hpp"

#include <gtest/gtest.h>

namespace {

using namespace forma;
using namespace forma_test;

// Reads `text` as T and returns the json_error's message; fails the test if none.
template <class T>
std::string error_of(std::string_view text) {
    try {
        (void)from_text<T>(text);
    } catch (const json_error& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("wrong exception type: ") + e.what();
    }
    return "no error";
}

template <class T>
std::string path_of(std::string_view text) {
    try {
        (void)from_text<T>(text);
    } catch (const json_error& e) {
        return e.path();
    }
    return "no error";
}

TEST(model_json_errors, wrong_root_kinds) {
    EXPECT_EQ(error_of<agent_response<>>("[]"), "expected agent response object, got array");
    EXPECT_EQ(error_of<chat_message>("\"hi\""), "expected chat message object, got string \"hi\"");
    EXPECT_EQ(error_of<agent_response_update>("null"),
              "expected agent response update object, got null");
    EXPECT_EQ(error_of<usage_details>("5"), "expected usage object, got number 5");
    EXPECT_EQ(error_of<content>("true"), "expected content object, got true");
}

TEST(model_json_errors, missing_required_members) {
    EXPECT_EQ(error_of<chat_message>("{}"), "missing required member \"role\"");
    EXPECT_EQ(error_of<content>(R"({"text":"x"})"), "missing required member \"type\"");
    EXPECT_EQ(error_of<content>(R"({"type":"data","media_type":"image/png"})"),
              "missing required member \"data\"");
    EXPECT_EQ(error_of<content>(R"({"type":"uri"})"), "missing required member \"uri\"");
    EXPECT_EQ(error_of<content>(R"({"type":"usage"})"), "missing required member \"details\"");
}

TEST(model_json_errors, wrong_member_types_name_the_member) {
    EXPECT_EQ(error_of<chat_message>(R"({"role":"user","author_name":3})"),
              "at /author_name: expected string, got number 3");
    EXPECT_EQ(error_of<agent_response<>>(R"({"messages":{}})"),
              "at /messages: expected array, got object");
    EXPECT_EQ(error_of<agent_response_update>(R"({"additional_properties":[1]})"),
              "at /additional_properties: expected object or null, got array");
    EXPECT_EQ(error_of<content>(R"({"type":"reasoning","protected_data":false})"),
              "at /protected_data: expected string or null, got false");
    EXPECT_EQ(error_of<content>(R"({"type":"function_call","name":"f","arguments":"{}"})"),
              "at /arguments: expected object or null, got string \"{}\"");
}

TEST(model_json_errors, paths_reach_into_nested_arrays) {
    const std::string text = R"({"messages":[{"role":"user","contents":[]},
        {"role":"assistant","contents":[{"type":"text","text":"ok"},{"type":7}]}]})";
    EXPECT_EQ(path_of<agent_response<>>(text), "/messages/1/contents/1/type");
    EXPECT_EQ(error_of<agent_response<>>(text),
              "at /messages/1/contents/1/type: expected non-empty content type string, got number 7");
}

TEST(model_json_errors, usage_counts_must_be_64_bit_integers) {
    EXPECT_EQ(error_of<usage_details>(R"({"input_token_count":1.5})"),
              "at /input_token_count: expected 64-bit integer or null, got number 1.5E0");
    EXPECT_EQ(error_of<usage_details>(R"({"output_token_count":"7"})"),
              "at /output_token_count: expected 64-bit integer or null, got string \"7\"");
    EXPECT_EQ(error_of<usage_details>(R"({"total_token_count":18446744073709551615})"),
              "at /total_token_count: expected 64-bit integer or null, got number "
              "18446744073709551615");
    EXPECT_EQ(error_of<usage_details>(R"({"additional_counts":{"a/b":null}})"),
              "at /additional_counts/a~1b: expected 64-bit integer, got null");
    EXPECT_EQ(path_of<agent_response<>>(R"({"usage":{"additional_counts":{"x":[]}}})"),
              "/usage/additional_counts/x");
}

TEST(model_json_errors, bad_times) {
    for (std::string_view bad : {R"("2024-02-30T00:00:00Z")", R"("2024-01-01T24:00:00Z")",
                                 R"("2024-01-01 00:00:00")", R"("2024-01-01T00:00:00")",
                                 R"("2024-01-01T00:00:00.Z")", R"("9999-01-01T00:00:00Z")",
                                 R"("2024-01-01T00:00:00+0100")", R"("")", "1700000000"}) {
        const std::string text = R"({"role":"user","created_at":)" + std::string(bad) + "}";
        EXPECT_EQ(path_of<chat_message>(text), "/created_at") << bad;
    }
}

TEST(model_json_errors, bad_base64_in_data_content) {
    EXPECT_EQ(error_of<content>(R"({"type":"data","data":"Zm9v!"})"),
              "at /data: expected standard base64, but offset 4 holds a character outside the base64 "
              "alphabet");
}

TEST(model_json_errors, a_known_kind_read_as_another_names_both) {
    EXPECT_EQ(error_of<text_content>(R"({"type":"uri","uri":"x"})"),
              "at /type: expected \"text\", got \"uri\"");
}

TEST(model_json_errors, empty_roles_and_tokens) {
    EXPECT_EQ(error_of<chat_message>(R"({"role":""})"),
              "at /role: expected non-empty role string, got string \"\"");
    EXPECT_EQ(error_of<continuation_token>("null"), "expected continuation token, got null");
    EXPECT_THROW(continuation_token::parse("null"), json_error);
    EXPECT_THROW(continuation_token::parse("{bad"), json_error);
    EXPECT_THROW(continuation_token{boost::json::value()}, error);
}

TEST(model_json_errors, long_strings_are_cut_in_messages) {
    const std::string long_value(100, 'x');
    const std::string message =
        error_of<chat_message>(R"({"role":"user","message_id":[],"author_name":")" + long_value +
                               R"("})");
    EXPECT_EQ(message, "at /message_id: expected string, got array");
    const std::string excerpt = error_of<usage_details>(R"({"input_token_count":")" + long_value + R"("})");
    EXPECT_EQ(excerpt, "at /input_token_count: expected 64-bit integer or null, got string \"" +
                           std::string(40, 'x') + "\"...");
}

TEST(model_json_errors, unknown_content_that_cannot_be_written_faithfully) {
    EXPECT_THROW((void)json_text(content(unknown_content("text", {{"text", "x"}}))), json_error);
    EXPECT_THROW((void)json_text(content(unknown_content("", {}))), json_error);
    EXPECT_THROW((void)json_text(content(unknown_content("custom", {{"type", "other"}}))),
                 json_error);
    EXPECT_THROW((void)json_text(content(unknown_content("custom", {{"raw_representation", 1}}))),
                 json_error);
}

} // namespace
