// History limits: the newest messages within a count and a token budget, system messages kept,
// a function call never apart from its results, the run's own messages always sent; the
// estimate learning from reported usage; chat_client_agent sending (and keeping) the limited history.
#include <forma/agent/chat_client_agent.hpp>
#include <forma/agent/history_limit.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include "support/bounded_run.hpp"

#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

using forma::chat_message;
using forma::chat_role;
using forma::history_limit;
using forma::limit_history;
using forma::token_estimator;

namespace {

chat_message says(chat_role role, std::string text) { return chat_message(role, std::move(text)); }

chat_message calls(std::string id) {
    chat_message m(chat_role::assistant(), std::vector<forma::content>{forma::function_call_content(id, "lookup", {{"q", id}})});
    return m;
}

chat_message result_of(std::string id) {
    return chat_message(chat_role::tool(), std::vector<forma::content>{forma::function_result_content(id, boost::json::value("found " + id))});
}

std::vector<std::string> texts(const std::vector<chat_message>& messages) {
    std::vector<std::string> out;
    for (const auto& m : messages) {
        std::string label = m.role.value() + ":";
        for (const auto& c : m.contents) {
            if (auto* t = std::get_if<forma::text_content>(&c)) label += t->text;
            if (auto* call = std::get_if<forma::function_call_content>(&c)) label += "call " + call->call_id;
            if (auto* r = std::get_if<forma::function_result_content>(&c)) label += "result " + r->call_id;
        }
        out.push_back(label);
    }
    return out;
}

std::vector<chat_message> numbered(int count) {
    std::vector<chat_message> out{says(chat_role::system(), "rules")};
    for (int i = 0; i < count; ++i) out.push_back(says(i % 2 ? chat_role::assistant() : chat_role::user(), "m" + std::to_string(i)));
    return out;
}

} // namespace

TEST(history_limit, the_newest_messages_are_kept_and_system_messages_stay) {
    const auto kept = limit_history(numbered(6), {.max_messages = 3}, token_estimator());
    EXPECT_EQ(texts(kept), (std::vector<std::string>{"system:rules", "assistant:m3", "user:m4", "assistant:m5"}));
    EXPECT_EQ(limit_history(numbered(6), {}, token_estimator()).size(), 7u) << "no limit: everything";
}

TEST(history_limit, a_function_call_and_its_results_are_kept_or_left_out_together) {
    std::vector<chat_message> history{says(chat_role::user(), "q1"), calls("c1"), result_of("c1"),
                                      says(chat_role::assistant(), "a1"), says(chat_role::user(), "q2")};
    // Three messages would cut between the call and its result: the pair goes, whole.
    EXPECT_EQ(texts(limit_history(history, {.max_messages = 3}, token_estimator())),
              (std::vector<std::string>{"assistant:a1", "user:q2"}));
    EXPECT_EQ(texts(limit_history(history, {.max_messages = 4}, token_estimator())),
              (std::vector<std::string>{"assistant:call c1", "tool:result c1", "assistant:a1", "user:q2"}));
    // Several results of one call message stay with it.
    std::vector<chat_message> parallel{says(chat_role::user(), "q"), calls("c2"), result_of("c2"), result_of("c2b")};
    EXPECT_EQ(texts(limit_history(parallel, {.max_messages = 2}, token_estimator())), std::vector<std::string>{})
        << "the unit of three does not fit in two";
    EXPECT_EQ(limit_history(parallel, {.max_messages = 3}, token_estimator()).size(), 3u);
}

TEST(history_limit, a_tool_result_whose_call_was_trimmed_before_is_left_out) {
    std::vector<chat_message> history{result_of("gone"), says(chat_role::user(), "q"), says(chat_role::assistant(), "a")};
    EXPECT_EQ(texts(limit_history(history, {.max_messages = 10}, token_estimator())),
              (std::vector<std::string>{"user:q", "assistant:a"}));
}

TEST(history_limit, the_token_budget_counts_estimated_tokens) {
    const token_estimator estimator;
    const chat_message forty_bytes = says(chat_role::user(), std::string(40, 'x'));
    EXPECT_EQ(estimator.estimate(forty_bytes), 10u + token_estimator::per_message_overhead);
    std::vector<chat_message> history(5, forty_bytes);
    EXPECT_EQ(limit_history(history, {.max_tokens = 42}, estimator).size(), 3u);
    EXPECT_EQ(limit_history(history, {.max_tokens = 41}, estimator).size(), 2u);
    EXPECT_EQ(limit_history(history, {.max_messages = 2, .max_tokens = 1000}, estimator).size(), 2u) << "both limits hold";
}

TEST(history_limit, the_runs_own_messages_are_sent_even_past_the_limits) {
    std::vector<chat_message> history = numbered(4);
    history.push_back(says(chat_role::user(), std::string(400, 'n')));
    const auto kept = limit_history(history, {.max_tokens = 50}, token_estimator(), 1);
    ASSERT_EQ(kept.size(), 2u) << "system and the new message";
    EXPECT_EQ(kept.back().text().size(), 400u);
}

TEST(token_estimator, calibration_moves_toward_the_reported_ratio_and_ignores_tiny_samples) {
    token_estimator estimator;
    const std::vector<chat_message> sent(10, says(chat_role::user(), std::string(200, 'y'))); // 2000 bytes
    estimator.calibrate(sent, 40 + 1000);                                                     // 2 bytes per token
    EXPECT_NEAR(estimator.bytes_per_token(), 0.7 * 4 + 0.3 * 2, 1e-9);
    for (int i = 0; i < 30; ++i) estimator.calibrate(sent, 1040);
    EXPECT_NEAR(estimator.bytes_per_token(), 2.0, 0.01);
    const double before = estimator.bytes_per_token();
    estimator.calibrate({says(chat_role::user(), "hi")}, 9);
    EXPECT_EQ(estimator.bytes_per_token(), before) << "too little to learn from";
}

namespace {

class agent_history_test : public ::testing::Test {
protected:
    forma::agent_response<> answer(std::string text, std::int64_t input_tokens = 0) {
        forma::agent_response<> r(says(chat_role::assistant(), std::move(text)));
        if (input_tokens) r.usage = forma::usage_details{.input_token_count = input_tokens};
        return r;
    }
    void turn(forma::chat_client_agent& agent, std::shared_ptr<forma::agent_session> session, std::string text) {
        forma_test::run_bounded(io, agent.run(std::move(text), session), std::chrono::seconds(10));
    }
    boost::asio::io_context io;
    forma::testing::scripted_chat_client model{io.get_executor()};
};

} // namespace

TEST_F(agent_history_test, the_agent_sends_the_limited_history_and_keeps_all_unless_told_to_trim) {
    forma::chat_client_agent agent(model, {.history_limit = history_limit{.max_messages = 3}});
    auto session = agent.create_session();
    for (int i = 0; i < 4; ++i) {
        model.add_response(answer("a" + std::to_string(i)));
        turn(agent, session, "q" + std::to_string(i));
    }
    EXPECT_EQ(texts(model.requests().back().messages),
              (std::vector<std::string>{"user:q2", "assistant:a2", "user:q3"}));
    EXPECT_EQ(session->history.size(), 8u) << "the session keeps everything";

    forma::chat_client_agent trimming(model, {.history_limit = history_limit{.max_messages = 3, .trim_stored_history = true}});
    auto trimmed = trimming.create_session();
    for (int i = 0; i < 4; ++i) {
        model.add_response(answer("b" + std::to_string(i)));
        turn(trimming, trimmed, "p" + std::to_string(i));
    }
    EXPECT_EQ(texts(trimmed->history), (std::vector<std::string>{"assistant:b2", "user:p3", "assistant:b3"}));
}

TEST_F(agent_history_test, trimming_the_stored_history_keeps_the_runs_own_exchange_whatever_its_size) {
    forma::chat_client_agent agent(model, {.history_limit = history_limit{.max_tokens = 30, .trim_stored_history = true}});
    auto session = agent.create_session();
    session->history.assign(3, says(chat_role::user(), "old"));
    model.add_response(answer(std::string(400, 'a'))); // past the budget on its own
    turn(agent, session, "question");
    ASSERT_EQ(session->history.size(), 2u);
    EXPECT_EQ(session->history[0].text(), "question");
    EXPECT_EQ(session->history[1].text().size(), 400u);
}

TEST_F(agent_history_test, reported_usage_tightens_the_token_budget) {
    // 100-byte messages: 29 tokens each at 4 bytes per token, so a budget of 90 sends three.
    forma::chat_client_agent agent(model, {.history_limit = history_limit{.max_tokens = 90}});
    const auto conversation = [&] {
        auto session = agent.create_session();
        session->history.assign(6, says(chat_role::user(), std::string(100, 'z')));
        return session;
    };
    model.add_response(answer("ok", /*input_tokens=*/3 * (50 + 4))); // the server counted 2 bytes per token
    turn(agent, conversation(), std::string(100, 'q'));
    EXPECT_EQ(model.requests()[0].messages.size(), 3u);
    model.add_response(answer("ok"));
    turn(agent, conversation(), std::string(100, 'q'));
    EXPECT_EQ(model.requests()[1].messages.size(), 2u) << "messages now estimated larger: fewer fit";
}
