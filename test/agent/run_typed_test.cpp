#include <forma/agent/chat_client_agent.hpp>
#include <forma/model/agent_response_builder.hpp>

#include "agent_test_support.hpp"

#include <boost/describe/class.hpp>
#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace boxed_answer {
// An answer type that cannot be copied: try_result() takes it out of a response that is not kept.
struct boxed {
    std::string name;
    std::unique_ptr<int> count;
};
BOOST_DESCRIBE_STRUCT(boxed, (), (name, count))
} // namespace boxed_answer

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

TEST_F(run_typed, the_providers_dialect_and_first_mode_shape_the_request) {
    tool_only_provider provider(client);
    chat_client_agent on_provider(provider, {.name = "extractor", .max_output_retries = 0});
    client.add_text_response(R"({"name":"Ann","age":3})");
    EXPECT_EQ(run_to_completion(io, on_provider.run<person>("text")).result().name, "Ann");
    const forma::chat_options& sent = client.requests().back().options;
    EXPECT_EQ(sent.response_format->strict(), false);
    EXPECT_EQ(sent.response_format->schema(), forma::json_schema<person>());
    EXPECT_EQ(sent.structured_output_mode, forma::structured_output_mode::tool);

    client.add_text_response(R"({"data":[1]})"); // a non-object root is wrapped in either dialect
    EXPECT_EQ(run_to_completion(io, on_provider.run<std::vector<int>>("text")).result(), std::vector<int>{1});
    boost::json::object items = forma::json_schema<std::vector<int>>();
    items.erase("$schema");
    EXPECT_EQ(client.requests().back().options.response_format->schema().at("properties").at("data"), items);

    client.add_text_response(R"({"name":"Bo","age":4})"); // a run's own mode wins
    (void)run_to_completion(io, on_provider.run<person>("text", {}, {.structured_output_mode = forma::structured_output_mode::native}));
    EXPECT_EQ(client.requests().back().options.structured_output_mode, forma::structured_output_mode::native);

    client.add_text_response("free text"); // no schema format: no mode chosen
    (void)run_to_completion(io, on_provider.run("text"));
    EXPECT_EQ(client.requests().back().options.structured_output_mode, std::nullopt);
}

TEST_F(run_typed, a_provider_that_says_nothing_gets_the_strict_dialect_and_no_mode) {
    (void)ask<person>(R"({"name":"A","age":1})");
    EXPECT_EQ(client.requests().back().options.structured_output_mode, std::nullopt);
    EXPECT_EQ(client.requests().back().options.response_format->strict(), true);
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
    const auto tried = invalid.try_result();
    ASSERT_TRUE(tried.has_error());
    const auto json = tried.error().as<forma::json_error>();
    ASSERT_TRUE(json) << "the error as a value, of its own type";
    EXPECT_EQ(json->path(), "/age");
    EXPECT_STREQ(tried.error().what(), R"(at /age: expected integer, got string "old")");
    EXPECT_FALSE(tried.error().as<forma::refusal_error>());
    EXPECT_TRUE(std::holds_alternative<forma::json_error>(tried.error().variant()));
    EXPECT_THROW(tried.value(), forma::json_error) << "value() throws the error as its own type";
    EXPECT_THROW(tried.error().rethrow(), forma::json_error);
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
    const auto tried = response.try_result();
    ASSERT_TRUE(tried.has_error());
    const auto refusal = tried.error().as<forma::refusal_error>();
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->refusal(), "I can't help with that.");
    EXPECT_THROW(tried.error().rethrow(), forma::refusal_error);
}

TEST_F(run_typed, an_answer_that_cannot_be_copied_is_moved_out_by_try_result) {
    using boxed_answer::boxed;
    auto response = ask<boxed>(R"({"name":"crate","count":3})");
    EXPECT_EQ(*response.result().count, 3) << "result() reads it in place";
    auto taken = std::move(response).try_result();
    ASSERT_TRUE(taken.has_value());
    EXPECT_EQ(taken->name, "crate");
    ASSERT_TRUE(taken->count);
    EXPECT_EQ(*taken->count, 3);
    auto awaited = run_to_completion(io, [&]() -> boost::asio::awaitable<boost::system::result<boxed, forma::answer_error>> {
        client.add_text_response(R"({"name":"crate","count":"three"})");
        co_return (co_await agent.run<boxed>("x")).try_result();
    }());
    ASSERT_TRUE(awaited.has_error());
    const auto json = awaited.error().as<forma::json_error>();
    ASSERT_TRUE(json);
    EXPECT_EQ(json->path(), "/count");
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
    const auto tried = response.try_result();
    ASSERT_TRUE(tried.has_error());
    const auto cut_short = tried.error().as<forma::output_truncated_error>();
    ASSERT_TRUE(cut_short);
    EXPECT_EQ(cut_short->partial_text(), R"({"name":"Jo)");
    EXPECT_EQ(std::visit([](const auto& e) -> std::string { return e.what(); }, tried.error().variant()),
              tried.error().what());
}

TEST_F(run_typed, deserialize_reads_a_callers_format_without_unwrapping) {
    client.add_text_response(R"({"data":5})");
    forma::agent_response<> plain = run_to_completion(io, agent.run("x"));
    using int_map = std::map<std::string, int>;
    EXPECT_EQ(plain.deserialize<int_map>().at("data"), 5);
    const auto unwrapped = plain.try_deserialize<int>();
    ASSERT_TRUE(unwrapped.has_error()) << "no unwrapping for a caller's format";
    EXPECT_TRUE(unwrapped.error().as<forma::json_error>());
}

namespace {

// Counts its default constructions: how many times an answer was read into it.
struct counted_reading {
    static inline int made = 0;
    counted_reading() { ++made; }
    std::string name;
};
BOOST_DESCRIBE_STRUCT(counted_reading, (), (name))

// With validation retries on (the default), the check reads the answer: run<T> keeps that T.
class run_typed_checked : public ::testing::Test {
protected:
    boost::asio::io_context io;
    scripted_chat_client client{io.get_executor()};
    chat_client_agent agent{client, {.name = "extractor", .max_output_retries = 1}};

    // The constructions of one read of `answer`, and those of run<T> with result() on it.
    template <class T>
    std::pair<int, int> reads_of(const std::string& answer) {
        client.add_text_response(answer);
        (void)run_to_completion(io, agent.run<T>("x")).result(); // one-time schema work done
        counted_reading::made = 0;
        if (forma::response_format::wraps<T>()) (void)forma::json_detail::try_read_wrapped<T>(answer, {});
        else (void)forma::try_from_json<T>(answer);
        const int one_read = counted_reading::made;
        counted_reading::made = 0;
        client.add_text_response(answer);
        const forma::agent_response<T> response = run_to_completion(io, agent.run<T>("x"));
        EXPECT_TRUE(response.try_result().has_value());
        (void)response.result();
        return {one_read, counted_reading::made};
    }
};

} // namespace

TEST_F(run_typed_checked, the_answer_its_check_read_is_not_read_again) {
    const auto [one_read, run_and_result] = reads_of<counted_reading>(R"({"name":"Ada"})");
    EXPECT_GT(one_read, 0);
    EXPECT_EQ(run_and_result, one_read) << "the check's T, not a second read";
}

TEST_F(run_typed_checked, a_wrapped_answer_its_check_read_is_not_read_again) {
    const auto [one_read, run_and_result] =
        reads_of<std::vector<counted_reading>>(R"({"data":[{"name":"Ada"},{"name":"Grace"}]})");
    EXPECT_GE(one_read, 2);
    EXPECT_EQ(run_and_result, one_read);
}

TEST_F(run_typed_checked, a_corrected_answer_is_the_result) {
    client.add_text_response(R"({"name":5})");
    client.add_text_response(R"({"name":"Grace"})");
    const forma::agent_response<counted_reading> response = run_to_completion(io, agent.run<counted_reading>("x"));
    EXPECT_EQ(response.result().name, "Grace");
}

TEST(kept_answer, gives_its_value_only_for_the_answer_it_was_read_from) {
    forma::agent_detail::kept_answer<int> kept;
    kept.keep("41", 41);
    const forma::agent_response<> other(
        std::vector{forma::chat_message(forma::chat_role::assistant(), "42")});
    EXPECT_EQ(kept.take(other), std::nullopt) << "another answer is read afresh";
    const forma::agent_response<> same(
        std::vector{forma::chat_message(forma::chat_role::assistant(), "41")});
    EXPECT_EQ(kept.take(same), 41);
    EXPECT_EQ(kept.take(same), std::nullopt) << "taken once";
}
