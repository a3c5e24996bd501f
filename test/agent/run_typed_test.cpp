#include <forma/agent/chat_client_agent.hpp>
#include <forma/model/agent_response_builder.hpp>

#include "agent_test_support.hpp"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

using namespace agent_test;
using forma::chat_client_agent;
using forma::testing::scripted_chat_client;

namespace {

class run_typed : public ::testing::Test {
protected:
    boost::asio::io_context io;
    scripted_chat_client client{io.get_executor()};
    // Reading answers is tested here, without validation retries (see output_retry_test).
    chat_client_agent agent{client, {.name = "extractor", .instructions = "Extract.", .max_output_retries = 0}};

    template <class T>
    forma::agent_response<T> ask(std::string answer) {
        client.add_text_response(std::move(answer));
        return run_to_completion(io, agent.run<T>("some text"));
    }
    const boost::json::object& sent_schema() const {
        return client.requests().back().options.response_format->schema();
    }
};

} // namespace

TEST_F(run_typed, an_object_type_is_sent_as_its_strict_schema_unwrapped) {
    auto response = ask<person>(R"({"name":"John","age":35,"occupation":null})");
    EXPECT_EQ(response.result(), (person{"John", 35, std::nullopt}));
    EXPECT_FALSE(response.is_wrapped());
    const auto& format = *client.requests().back().options.response_format;
    EXPECT_EQ(format.name(), "person");
    EXPECT_EQ(format.strict(), true);
    EXPECT_EQ(sent_schema(), forma::json_schema<person>({.dialect = forma::schema_dialect::openai_strict}));
}

TEST_F(run_typed, non_object_roots_are_wrapped_in_data_and_unwrapped) {
    EXPECT_EQ(ask<int>(R"({"data":42})").result(), 42);
    EXPECT_EQ(sent_schema(), boost::json::parse(R"({"type":"object",
        "properties":{"data":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},
        "required":["data"],"additionalProperties":false})"));

    EXPECT_EQ(ask<std::vector<std::string>>(R"({"data":["a","b"]})").result(),
              (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(sent_schema().at("properties").at("data").at("type"), "array");

    EXPECT_EQ(ask<mood>(R"({"data":"sad"})").result(), mood::sad);
    EXPECT_EQ(ask<std::optional<int>>(R"({"data":null})").result(), std::nullopt);
    EXPECT_EQ(ask<std::optional<int>>(R"({"data":7})").result(), 7);
    EXPECT_TRUE(ask<std::optional<int>>(R"({"data":7})").is_wrapped());
}

TEST_F(run_typed, wrapping_moves_defs_to_the_wrapper) {
    (void)ask<std::vector<person>>(R"({"data":[]})");
    EXPECT_FALSE(sent_schema().contains("$defs")); // person is not recursive: nothing to move
    const auto& items = sent_schema().at("properties").at("data").at("items");
    EXPECT_EQ(items.at("type"), "object");
}

TEST_F(run_typed, a_wrapped_result_falls_back_to_the_raw_json_without_data) {
    EXPECT_EQ(ask<int>("42").result(), 42);
    EXPECT_EQ(ask<std::vector<std::string>>(R"(["x"])").result(), (std::vector<std::string>{"x"}));
}

TEST_F(run_typed, result_is_read_once_and_cached) {
    auto response = ask<person>(R"({"name":"A","age":1})");
    const person* first = &response.result();
    response.messages.clear(); // the cached value does not follow later edits
    EXPECT_EQ(&response.result(), first);
    EXPECT_EQ(first->name, "A");
}

TEST_F(run_typed, the_last_assistant_message_with_text_is_read) {
    forma::agent_response<> scripted;
    scripted.messages.emplace_back(forma::chat_role::assistant(), "Let me think about it...");
    scripted.messages.emplace_back(forma::chat_role::tool(), R"({"name":"tool","age":0})");
    scripted.messages.emplace_back(forma::chat_role::assistant(), R"({"name":"B","age":2})");
    scripted.messages.emplace_back(forma::chat_role::assistant(), std::vector<forma::content>{});
    client.add_response(scripted);
    EXPECT_EQ(run_to_completion(io, agent.run<person>("x")).result().name, "B");
}

TEST_F(run_typed, errors_are_typed_and_say_what_went_wrong) {
    auto no_text = ask<person>("");
    EXPECT_THROW(no_text.result(), forma::json_error);
    auto null = ask<person>(" null ");
    try {
        null.result();
        FAIL();
    } catch (const forma::json_error& e) {
        EXPECT_STREQ(e.what(), "the answer is null, not a value of the requested type");
    }
    auto invalid = ask<person>(R"({"name":"A","age":"old"})");
    try {
        invalid.result();
        FAIL();
    } catch (const forma::json_error& e) {
        EXPECT_EQ(e.path(), "/age");
        EXPECT_STREQ(e.what(), R"(at /age: expected integer, got string "old")");
    }
    auto inside_data = ask<std::vector<int>>(R"({"data":[1,"x"]})");
    try {
        inside_data.result();
        FAIL();
    } catch (const forma::json_error& e) {
        EXPECT_EQ(e.path(), "/data/1");
    }
    EXPECT_TRUE(invalid.try_result().has_error());
}

TEST_F(run_typed, a_refusal_is_a_refusal_error_with_its_text) {
    forma::agent_response<> refused(
        forma::chat_message(forma::chat_role::assistant(),
                            std::vector<forma::content>{forma::refusal_content("I can't help with that.")}));
    client.add_response(refused);
    auto response = run_to_completion(io, agent.run<person>("x"));
    try {
        response.result();
        FAIL();
    } catch (const forma::refusal_error& e) {
        EXPECT_EQ(e.refusal(), "I can't help with that.");
    }
    EXPECT_EQ(response.text(), "") << "a refusal is not text";
}

TEST_F(run_typed, truncation_by_the_token_limit_is_an_output_truncated_error) {
    forma::agent_response<> cut(forma::chat_message(forma::chat_role::assistant(), R"({"name":"Jo)"));
    cut.finish_reason = forma::finish_reason::length();
    client.add_response(cut);
    auto response = run_to_completion(io, agent.run<person>("x"));
    try {
        response.result();
        FAIL();
    } catch (const forma::output_truncated_error& e) {
        EXPECT_EQ(e.partial_text(), R"({"name":"Jo)");
    }
}

TEST_F(run_typed, deserialize_reads_a_callers_format_without_unwrapping) {
    client.add_text_response(R"({"data":5})");
    forma::agent_response<> plain = run_to_completion(io, agent.run("x"));
    using int_map = std::map<std::string, int>;
    EXPECT_EQ(plain.deserialize<int_map>().at("data"), 5);
    EXPECT_TRUE(plain.try_deserialize<int>().has_error()) << "no unwrapping for a caller's format";
}
