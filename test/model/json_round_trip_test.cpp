#include "test_support.hpp"

#include <gtest/gtest.h>

namespace {

using namespace forma;
using namespace forma_test;

// Every content kind with every field and the common metadata set.
std::vector<content> every_kind() {
    std::vector<content> all;
    text_content text("Hello \"world\" \u00e9 \u6f22");
    text.additional_properties["annotations"] = boost::json::array{1, 2};
    text.raw_representation = {{"delta", {{"content", "Hello"}}}};
    all.emplace_back(text);
    all.emplace_back(text_reasoning_content("thinking", std::string("opaque==")));
    all.emplace_back(text_reasoning_content("no signature"));
    all.emplace_back(text_reasoning_content("", std::string()));
    all.emplace_back(data_content({std::byte{0}, std::byte{255}, std::byte{10}}, "audio/wav", "a.wav"));
    all.emplace_back(data_content({}, "", ""));
    all.emplace_back(uri_content("https://example.com/x?y=1", "image/jpeg"));
    all.emplace_back(uri_content("file:///tmp/x", ""));
    all.emplace_back(function_call_content("call_1", "get_weather",
                                           {{"city", "Oslo"}, {"units", {"c", "f"}}}));
    all.emplace_back(function_call_content("", "", {}));
    all.emplace_back(function_result_content("call_1", {{"temp", -3.5}, {"ok", true}}));
    all.emplace_back(function_result_content("call_2", nullptr, std::string("timed out")));
    all.emplace_back(function_result_content("call_3", "plain string", std::string()));
    usage_details usage{.input_token_count = 1, .reasoning_token_count = 0};
    usage.additional_counts["audio"] = 3;
    all.emplace_back(usage_content(usage));
    all.emplace_back(error_content("Too many requests", "429", "slow down"));
    all.emplace_back(error_content(""));
    all.emplace_back(refusal_content("I can't help with that."));
    all.emplace_back(output_errors_content(std::vector<output_error>{{"/age", "expected integer, got string \"x\""}, {"", "invalid JSON"}}));
    all.emplace_back(output_errors_content());
    all.emplace_back(handoff_content("triage", "billing", "a refund"));
    all.emplace_back(handoff_content("triage", "billing"));
    unknown_content unknown("image_generation_call", {{"id", "ig_1"}, {"result", "aGk="}});
    unknown.additional_properties["seen"] = true;
    unknown.raw_representation = 17;
    all.emplace_back(unknown);
    return all;
}

TEST(model_json_round_trip, every_content_kind) {
    for (const content& c : every_kind()) {
        EXPECT_EQ(through_json_text(c), c) << json_text(c);
        EXPECT_EQ(through_json_text(c).index(), c.index()) << json_text(c);
    }
}

TEST(model_json_round_trip, each_content_kind_through_its_own_conversion) {
    const auto all = every_kind();
    std::visit([](const auto& kind) { EXPECT_EQ(through_json_text(kind), kind); }, all[0]);
    std::visit([](const auto& kind) { EXPECT_EQ(through_json_text(kind), kind); }, all[4]);
    std::visit([](const auto& kind) { EXPECT_EQ(through_json_text(kind), kind); }, all.back());
}

TEST(model_json_round_trip, roles_and_finish_reasons) {
    for (const chat_role& role : {chat_role::system(), chat_role::user(), chat_role::assistant(),
                                  chat_role::tool(), chat_role(std::string("Developer"))}) {
        EXPECT_EQ(through_json_text(role).value(), role.value());
    }
    for (const finish_reason& reason :
         {finish_reason::stop(), finish_reason::length(), finish_reason::tool_calls(),
          finish_reason::content_filter(), finish_reason(std::string("MAX_TOKENS"))}) {
        EXPECT_EQ(through_json_text(reason).value(), reason.value());
    }
}

TEST(model_json_round_trip, continuation_tokens_of_any_json_shape) {
    const std::vector<continuation_token> tokens{
        continuation_token("resp_123"),
        continuation_token(boost::json::value{{"response_id", "r"}, {"sequence", 42}}),
        continuation_token(boost::json::value(7)),
        continuation_token(boost::json::value(boost::json::array{"a", 1, false})),
        continuation_token(boost::json::value(false)),
    };
    for (const auto& token : tokens) {
        EXPECT_EQ(through_json_text(token), token);
        EXPECT_EQ(continuation_token::parse(token.to_string()), token);
    }
    EXPECT_EQ(continuation_token("resp_123").to_string(), R"("resp_123")");
    EXPECT_EQ(continuation_token(std::string("resp_123")), tokens[0]);
    EXPECT_NE(continuation_token("7"), tokens[2]); // the string "7" is not the number 7
    EXPECT_EQ(json_text(tokens[1]), R"({"response_id":"r","sequence":42})");
}

// A token's text goes to stores and peers: it is UTF-8 even when the token's strings are not, and
// it reads back, the stray bytes as U+FFFD.
TEST(model_json_round_trip, a_continuation_token_with_stray_bytes_is_written_as_utf8) {
    const continuation_token token(boost::json::value{{"id", "r\xff\xc3"}, {"cursor", "\xe2\x82"}});
    const std::string text = token.to_string();
    EXPECT_EQ(text, "{\"id\":\"r\xef\xbf\xbd\xef\xbf\xbd\",\"cursor\":\"\xef\xbf\xbd\xef\xbf\xbd\"}");
    const continuation_token read = continuation_token::parse(text);
    EXPECT_EQ(read.value().at("id"), "r\xef\xbf\xbd\xef\xbf\xbd");
}

TEST(model_json_round_trip, times_keep_full_precision_and_their_instant) {
    for (const time_point t : {at(0), at(1) + 1ns, at(1'700'000'000) + 123'456'789ns,
                               at(-86'400) + 500ms, at(4'102'444'800) /* 2100-01-01 */}) {
        chat_message m;
        m.created_at = t;
        EXPECT_EQ(through_json_text(m).created_at, t) << json_text(m);
    }
}

TEST(model_json_round_trip, times_written_as_rfc3339_utc) {
    chat_message m;
    m.created_at = at(0);
    EXPECT_EQ(json_text(m), R"({"role":"user","created_at":"1970-01-01T00:00:00Z","contents":[]})");
    m.created_at = at(951'782'400) + 1ns; // 2000-02-29
    EXPECT_EQ(boost::json::value_from(m).at("created_at"), "2000-02-29T00:00:00.000000001Z");
    m.created_at = at(-1);
    EXPECT_EQ(boost::json::value_from(m).at("created_at"), "1969-12-31T23:59:59Z");
}

TEST(model_json_round_trip, times_with_offsets_are_read_as_the_same_instant) {
    const auto m = from_text<chat_message>(
        R"({"role":"user","created_at":"2023-11-15T00:13:20.5+02:00","contents":[]})");
    EXPECT_EQ(m.created_at, at(1'700'000'000) + 500ms);
    const auto lower = from_text<chat_message>(
        R"({"role":"user","created_at":"2023-11-14t17:13:20-05:00","contents":[]})");
    EXPECT_EQ(lower.created_at, at(1'700'000'000));
}

agent_response<> rich_response() {
    chat_message user(chat_role::user(), "What is the weather in Oslo?");
    user.message_id = "u1";
    chat_message assistant(chat_role::assistant(), every_kind());
    assistant.author_name = "weather_agent";
    assistant.message_id = "a1";
    assistant.created_at = at(1'700'000'000) + 7us;
    agent_response<> r({user, assistant});
    r.response_id = "resp_1";
    r.agent_id = "agent_7";
    r.created_at = at(1'699'999'999);
    r.finish_reason = finish_reason::tool_calls();
    r.usage = usage_details{.input_token_count = 11, .output_token_count = 22, .total_token_count = 33};
    r.continuation_token = continuation_token(boost::json::value{{"id", "resp_1"}});
    r.raw_representation = {{"object", "chat.completion"}, {"choices", boost::json::array{}}};
    r.additional_properties = {{"system_fingerprint", "fp_1"}, {"nested", {{"a", nullptr}}}};
    return r;
}

TEST(model_json_round_trip, a_response_with_everything_set) {
    const agent_response<> r = rich_response();
    EXPECT_EQ(through_json_text(r), r);
}

TEST(model_json_round_trip, an_empty_response) {
    EXPECT_EQ(json_text(agent_response<>()), R"({"messages":[]})");
    EXPECT_EQ(through_json_text(agent_response<>()), agent_response<>());
}

TEST(model_json_round_trip, response_json_names_every_member) {
    agent_response<> r(chat_message(chat_role::assistant(), "ok"));
    r.response_id = "r";
    r.agent_id = "a";
    r.created_at = at(60);
    r.finish_reason = finish_reason::stop();
    r.usage = usage_details{.total_token_count = 2};
    r.continuation_token = continuation_token("t");
    r.raw_representation = 1;
    r.additional_properties["p"] = 2;
    EXPECT_EQ(json_text(r), R"({"messages":[{"role":"assistant","contents":[{"type":"text","text":"ok"}]}],)"
                            R"("response_id":"r","agent_id":"a","created_at":"1970-01-01T00:01:00Z",)"
                            R"("finish_reason":"stop","usage":{"total_token_count":2},)"
                            R"("continuation_token":"t","raw_representation":1,)"
                            R"("additional_properties":{"p":2}})");
}

TEST(model_json_round_trip, updates) {
    agent_response_update minimal;
    EXPECT_EQ(json_text(minimal), R"({"contents":[]})");
    EXPECT_EQ(through_json_text(minimal), minimal);

    agent_response_update u(chat_role::assistant(), every_kind());
    u.author_name = "writer";
    u.response_id = "resp_2";
    u.message_id = "msg_2";
    u.agent_id = "agent_2";
    u.created_at = at(1'000'000) + 1us;
    u.finish_reason = finish_reason::length();
    u.continuation_token = continuation_token(boost::json::value{{"seq", 3}});
    u.raw_representation = {{"id", "chatcmpl-1"}};
    u.additional_properties["obfuscation"] = "abc";
    EXPECT_EQ(through_json_text(u), u);
}

TEST(model_json_round_trip, update_json_names_every_member) {
    agent_response_update u(chat_role::tool(), "t");
    u.author_name = "n";
    u.message_id = "m";
    u.response_id = "r";
    u.agent_id = "a";
    u.created_at = at(1);
    u.finish_reason = finish_reason::stop();
    u.continuation_token = continuation_token("c");
    u.raw_representation = true;
    u.additional_properties["x"] = 1;
    EXPECT_EQ(json_text(u), R"({"role":"tool","author_name":"n","message_id":"m","response_id":"r",)"
                            R"("agent_id":"a","created_at":"1970-01-01T00:00:01Z","finish_reason":"stop",)"
                            R"("continuation_token":"c","contents":[{"type":"text","text":"t"}],)"
                            R"("raw_representation":true,"additional_properties":{"x":1}})");
}

TEST(model_json_round_trip, a_stored_history_of_updates_merges_like_the_original) {
    std::vector<agent_response_update> updates(2, agent_response_update(std::nullopt, "x"));
    updates[1].contents.emplace_back(usage_content({.input_token_count = 3}));
    std::vector<agent_response_update> restored;
    for (const auto& u : updates) restored.push_back(through_json_text(u));
    EXPECT_EQ(to_agent_response(restored), to_agent_response(updates));
}

TEST(model_json_round_trip, absent_optional_members_read_as_empty) {
    const auto r = from_text<agent_response<>>("{}");
    EXPECT_EQ(r, agent_response<>());
    const auto m = from_text<chat_message>(R"({"role":"tool"})");
    EXPECT_TRUE(m.contents.empty());
    const auto u = from_text<agent_response_update>(R"({"role":null,"finish_reason":null})");
    EXPECT_EQ(u, agent_response_update());
}

TEST(model_json_round_trip, unknown_members_are_ignored_for_forward_compatibility) {
    const auto m = from_text<chat_message>(R"({"role":"user","mood":"curious","contents":[]})");
    EXPECT_EQ(m, chat_message());
}

} // namespace
