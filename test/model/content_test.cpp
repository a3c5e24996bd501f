#include "test_support.hpp"

#include <gtest/gtest.h>

#include <array>

namespace {

using namespace forma;
using namespace forma_test;

std::vector<std::byte> bytes_of(std::string_view text) {
    std::vector<std::byte> out;
    for (char c : text) out.push_back(static_cast<std::byte>(c));
    return out;
}

// RFC 4648 section 10.
constexpr std::array<std::pair<std::string_view, std::string_view>, 7> rfc4648_vectors{{
    {"", ""},
    {"f", "Zg=="},
    {"fo", "Zm8="},
    {"foo", "Zm9v"},
    {"foob", "Zm9vYg=="},
    {"fooba", "Zm9vYmE="},
    {"foobar", "Zm9vYmFy"},
}};

TEST(model_data_content, encodes_the_rfc4648_test_vectors) {
    for (const auto& [plain, encoded] : rfc4648_vectors)
        EXPECT_EQ(data_content(bytes_of(plain), "text/plain").base64(), encoded) << plain;
}

TEST(model_data_content, decodes_the_rfc4648_test_vectors_with_and_without_padding) {
    for (const auto& [plain, encoded] : rfc4648_vectors) {
        EXPECT_EQ(data_content::from_base64(encoded, "text/plain").data, bytes_of(plain)) << encoded;
        std::string unpadded(encoded);
        while (!unpadded.empty() && unpadded.back() == '=') unpadded.pop_back();
        EXPECT_EQ(data_content::from_base64(unpadded, "text/plain").data, bytes_of(plain))
            << unpadded;
    }
}

TEST(model_data_content, round_trips_every_byte_value) {
    std::vector<std::byte> all;
    for (int i = 0; i < 256; ++i) all.push_back(static_cast<std::byte>(i));
    const data_content c(all, "application/octet-stream");
    EXPECT_EQ(data_content::from_base64(c.base64(), "application/octet-stream").data, all);
}

TEST(model_data_content, rejects_text_that_is_not_base64) {
    EXPECT_THROW(data_content::from_base64("Zm9v!", "x/y"), forma::error);   // not in the alphabet
    EXPECT_THROW(data_content::from_base64("Zm9vY", "x/y"), forma::error);   // impossible length
    EXPECT_THROW(data_content::from_base64("Zm9=v", "x/y"), forma::error);   // padding inside
    EXPECT_THROW(data_content::from_base64("Zh==", "x/y"), forma::error);    // stray low bits
    EXPECT_THROW(data_content::from_base64("Zm9v\nYg==", "x/y"), forma::error);
    EXPECT_THROW(data_content::from_base64("Zm9-", "x/y"), forma::error);    // base64url
}

TEST(model_data_content, data_uri_follows_rfc2397) {
    const data_content c(bytes_of("hi"), "text/plain", "greeting.txt");
    EXPECT_EQ(c.data_uri(), "data:text/plain;base64,aGk=");
    EXPECT_EQ(c.name, "greeting.txt");
}

TEST(model_content, content_type_names_each_kind) {
    EXPECT_EQ(content_type(text_content("a")), "text");
    EXPECT_EQ(content_type(text_reasoning_content("a")), "reasoning");
    EXPECT_EQ(content_type(data_content()), "data");
    EXPECT_EQ(content_type(uri_content("https://x", "image/png")), "uri");
    EXPECT_EQ(content_type(function_call_content("c1", "f")), "function_call");
    EXPECT_EQ(content_type(function_result_content("c1", 3)), "function_result");
    EXPECT_EQ(content_type(usage_content()), "usage");
    EXPECT_EQ(content_type(error_content("boom")), "error");
    EXPECT_EQ(content_type(refusal_content("no")), "refusal");
    EXPECT_EQ(content_type(unknown_content("image_generation_call", {})), "image_generation_call");
}

TEST(model_content, metadata_is_reachable_for_every_kind) {
    content c = function_call_content("c1", "lookup", {{"q", "x"}});
    metadata_of(c).additional_properties["index"] = 2;
    EXPECT_EQ(std::get<function_call_content>(c).additional_properties.at("index"), 2);
    const content& view = c;
    EXPECT_TRUE(metadata_of(view).raw_representation.is_null());
}

// Exact JSON of each kind: the storage format is a contract.
TEST(model_content_json, text) {
    content c = text_content("Hello");
    EXPECT_EQ(json_text(c), R"({"type":"text","text":"Hello"})");
}

TEST(model_content_json, reasoning_with_and_without_protected_data) {
    EXPECT_EQ(json_text(content(text_reasoning_content("think"))),
              R"({"type":"reasoning","text":"think"})");
    EXPECT_EQ(json_text(content(text_reasoning_content("", std::string("enc==")))),
              R"({"type":"reasoning","text":"","protected_data":"enc=="})");
}

TEST(model_content_json, data_as_base64) {
    EXPECT_EQ(json_text(content(data_content(bytes_of("foob"), "image/png", "a.png"))),
              R"({"type":"data","media_type":"image/png","data":"Zm9vYg==","name":"a.png"})");
}

TEST(model_content_json, uri) {
    EXPECT_EQ(json_text(content(uri_content("https://e.com/a.png", "image/png"))),
              R"({"type":"uri","uri":"https://e.com/a.png","media_type":"image/png"})");
}

TEST(model_content_json, function_call_and_result) {
    EXPECT_EQ(json_text(content(function_call_content("call_1", "get_weather", {{"city", "Oslo"}}))),
              R"({"type":"function_call","call_id":"call_1","name":"get_weather",)"
              R"("arguments":{"city":"Oslo"}})");
    EXPECT_EQ(json_text(content(function_result_content("call_1", {{"temp", 3}}))),
              R"({"type":"function_result","call_id":"call_1","result":{"temp":3}})");
    EXPECT_EQ(json_text(content(function_result_content("call_1", nullptr, std::string("timeout")))),
              R"({"type":"function_result","call_id":"call_1","result":null,"error":"timeout"})");
}

TEST(model_content_json, usage) {
    EXPECT_EQ(json_text(content(usage_content({.input_token_count = 1, .output_token_count = 2}))),
              R"({"type":"usage","details":{"input_token_count":1,"output_token_count":2}})");
}

TEST(model_content_json, error) {
    EXPECT_EQ(json_text(content(error_content("Rate limited", "rate_limit_exceeded", "retry in 2s"))),
              R"({"type":"error","message":"Rate limited","code":"rate_limit_exceeded",)"
              R"("details":"retry in 2s"})");
}

TEST(model_content_json, output_errors) {
    EXPECT_EQ(json_text(content(output_errors_content(std::vector<output_error>{{"/age", "expected integer"}, {"", "missing required member \"name\""}}))),
              R"({"type":"output_errors","errors":[{"path":"/age","reason":"expected integer"},)"
              R"({"path":"","reason":"missing required member \"name\""}]})");
    EXPECT_EQ(content_type(output_errors_content()), "output_errors");
}

TEST(model_content_json, handoff) {
    EXPECT_EQ(json_text(content(handoff_content("triage", "billing", "a refund"))),
              R"({"type":"handoff","from":"triage","to":"billing","reason":"a refund"})");
    EXPECT_EQ(json_text(content(handoff_content("triage", "billing"))), R"({"type":"handoff","from":"triage","to":"billing"})");
    EXPECT_THROW(boost::json::value_to<content>(boost::json::parse(R"({"type":"handoff","to":"billing"})")), json_error)
        << "a handoff names who handed off";
}

TEST(model_content, the_correction_text_lists_every_error_at_its_pointer) {
    EXPECT_EQ(correction_text(output_errors_content(std::vector<output_error>{{"/age", "expected integer, got string \"x\""},
                                                     {"", "missing required member \"name\""}})),
              "Your answer does not match the requested format (2 errors):\n"
              "- at /age: expected integer, got string \"x\"\n"
              "- at the top level: missing required member \"name\"\n"
              "Answer again with JSON that matches the requested schema, and nothing else.");
    EXPECT_TRUE(correction_text(output_errors_content(std::vector<output_error>{{"/a", "b"}})).starts_with(
        "Your answer does not match the requested format:\n- at /a: b\n"));
}

TEST(model_content_json, refusal) {
    EXPECT_EQ(json_text(content(refusal_content("I can't help with that."))),
              R"({"type":"refusal","refusal":"I can't help with that."})");
}

TEST(model_content_json, unknown_kinds_keep_their_own_type_and_members) {
    content c = unknown_content("image_generation_call", {{"id", "ig_1"}, {"status", "done"}});
    EXPECT_EQ(json_text(c), R"({"type":"image_generation_call","id":"ig_1","status":"done"})");
    const auto back = from_text<content>(R"({"type":"citation","url":"https://x","n":[1,2]})");
    const auto& unknown = std::get<unknown_content>(back);
    EXPECT_EQ(unknown.kind, "citation");
    EXPECT_EQ(unknown.json, (boost::json::object{{"url", "https://x"}, {"n", {1, 2}}}));
}

TEST(model_content_json, metadata_is_written_after_the_fields_and_only_when_set) {
    text_content t("x");
    t.raw_representation = {{"delta", "x"}};
    t.additional_properties["index"] = 4;
    EXPECT_EQ(json_text(content(t)),
              R"({"type":"text","text":"x","raw_representation":{"delta":"x"},)"
              R"("additional_properties":{"index":4}})");
}

TEST(model_content_json, each_kind_on_its_own_reads_and_writes_the_same_json) {
    const function_call_content call("c9", "f", {{"a", 1}});
    EXPECT_EQ(json_text(call), json_text(content(call)));
    EXPECT_EQ(from_text<function_call_content>(json_text(call)), call);
    EXPECT_THROW(from_text<function_call_content>(R"({"type":"text","text":"x"})"), json_error);
}

} // namespace
