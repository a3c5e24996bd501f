#include "test_support.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <list>
#include <random>
#include <ranges>
#include <span>
#include <sstream>

namespace {

using namespace forma;
using namespace forma_test;

agent_response_update text_update(std::string text) {
    return agent_response_update(std::nullopt, std::move(text));
}

agent_response_update update_of(std::vector<content> contents) {
    return agent_response_update(std::nullopt, std::move(contents));
}

agent_response_update with_id(std::string message_id, std::string text) {
    agent_response_update u = text_update(std::move(text));
    u.message_id = std::move(message_id);
    return u;
}

agent_response_update with_role(chat_role role, std::string text) {
    return agent_response_update(std::move(role), std::move(text));
}

agent_response_update with_author(std::string author, std::string text) {
    agent_response_update u = text_update(std::move(text));
    u.author_name = std::move(author);
    return u;
}

agent_response_update usage_update(usage_details usage) {
    return update_of({usage_content(std::move(usage))});
}

std::vector<std::string> texts_of(const agent_response<>& r) {
    std::vector<std::string> out;
    for (const chat_message& m : r.messages) out.push_back(m.text());
    return out;
}

using strings = std::vector<std::string>;

TEST(model_merge, adjacent_text_updates_become_one_text_content) {
    const auto r = to_agent_response(std::vector{text_update("Hel"), text_update("lo, "),
                                                 text_update("world")});
    ASSERT_EQ(r.messages.size(), 1u);
    ASSERT_EQ(r.messages[0].contents.size(), 1u);
    EXPECT_EQ(std::get<text_content>(r.messages[0].contents[0]).text, "Hello, world");
}

TEST(model_merge, a_new_message_is_the_assistants_unless_the_update_says_otherwise) {
    EXPECT_EQ(to_agent_response(std::vector{text_update("x")}).messages.at(0).role,
              chat_role::assistant());
    EXPECT_EQ(to_agent_response(std::vector{with_role(chat_role::tool(), "x")}).messages.at(0).role,
              chat_role::tool());
}

TEST(model_merge, no_updates_give_an_empty_response) {
    const auto r = to_agent_response(std::vector<agent_response_update>{});
    EXPECT_EQ(r, agent_response<>());
    EXPECT_EQ(r.text(), "");
}

TEST(model_merge, a_new_message_starts_when_the_message_id_changes) {
    const auto r = to_agent_response(std::vector{with_id("m1", "a"), with_id("m1", "b"),
                                                 with_id("m2", "c"), with_id("m1", "d")});
    EXPECT_EQ(texts_of(r), (strings{"ab", "c", "d"}));
    EXPECT_EQ(r.messages[0].message_id, "m1");
    EXPECT_EQ(r.messages[1].message_id, "m2");
    EXPECT_EQ(r.messages[2].message_id, "m1");
}

TEST(model_merge, an_empty_message_id_is_no_change) {
    const auto r = to_agent_response(std::vector{text_update("a"), with_id("m1", "b"),
                                                 text_update("c"), with_id("m1", "d"),
                                                 with_id("m2", "e"), text_update("f")});
    EXPECT_EQ(texts_of(r), (strings{"abcd", "ef"}));
    EXPECT_EQ(r.messages[0].message_id, "m1"); // taken from the first update that had one
    EXPECT_EQ(r.messages[1].message_id, "m2");
}

TEST(model_merge, a_new_message_starts_when_the_role_changes) {
    const auto r = to_agent_response(std::vector{
        with_role(chat_role::assistant(), "a"), text_update("b"),
        with_role(chat_role(std::string("ASSISTANT")), "c"), // same role, other case
        with_role(chat_role::tool(), "d"), text_update("e"), with_role(chat_role::assistant(), "f")});
    EXPECT_EQ(texts_of(r), (strings{"abc", "de", "f"}));
    EXPECT_EQ(r.messages[0].role, chat_role::assistant());
    EXPECT_EQ(r.messages[1].role, chat_role::tool());
    EXPECT_EQ(r.messages[2].role, chat_role::assistant());
}

TEST(model_merge, a_role_differing_from_the_default_assistant_starts_a_new_message) {
    const auto r = to_agent_response(std::vector{text_update("a"), with_role(chat_role::user(), "b")});
    EXPECT_EQ(texts_of(r), (strings{"a", "b"}));
    EXPECT_EQ(r.messages[1].role, chat_role::user());
}

TEST(model_merge, a_new_message_starts_when_the_author_changes) {
    const auto r = to_agent_response(std::vector{with_author("planner", "a"), text_update("b"),
                                                 with_author("planner", "c"),
                                                 with_author("critic", "d"), text_update("e")});
    EXPECT_EQ(texts_of(r), (strings{"abc", "de"}));
    EXPECT_EQ(r.messages[0].author_name, "planner");
    EXPECT_EQ(r.messages[1].author_name, "critic");
}

TEST(model_merge, a_message_without_author_takes_the_first_author_it_sees) {
    const auto r = to_agent_response(std::vector{text_update("a"), with_author("writer", "b")});
    EXPECT_EQ(texts_of(r), (strings{"ab"}));
    EXPECT_EQ(r.messages[0].author_name, "writer");
}

TEST(model_merge, text_and_reasoning_runs_coalesce_separately) {
    const auto r = to_agent_response(std::vector{
        update_of({text_reasoning_content("Let me ")}), update_of({text_reasoning_content("think.")}),
        update_of({text_content("The ")}), update_of({text_content("answer")}),
        update_of({text_reasoning_content("Check.")}), update_of({text_content("!")})});
    ASSERT_EQ(r.messages.size(), 1u);
    const std::vector<content> expected{text_reasoning_content("Let me think."),
                                        text_content("The answer"), text_reasoning_content("Check."),
                                        text_content("!")};
    EXPECT_EQ(r.messages[0].contents, expected);
    EXPECT_EQ(r.text(), "The answer!");
}

TEST(model_merge, text_never_coalesces_across_other_kinds) {
    const function_call_content call("c1", "f", {{"x", 1}});
    const auto r = to_agent_response(std::vector{
        text_update("before"), update_of({call}), text_update("after"),
        update_of({error_content("e")}), text_update("end")});
    const std::vector<content> expected{text_content("before"), call, text_content("after"),
                                        error_content("e"), text_content("end")};
    EXPECT_EQ(r.messages.at(0).contents, expected);
}

TEST(model_merge, a_refusal_streamed_in_pieces_becomes_one_refusal) {
    const auto r = to_agent_response(std::vector{update_of({refusal_content("I'm sorry, ")}),
                                                 update_of({refusal_content("I can't.")}), text_update("x")});
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(r.messages[0].contents,
              (std::vector<content>{refusal_content("I'm sorry, I can't."), text_content("x")}));
}

TEST(model_merge, contents_within_one_update_follow_the_same_rules) {
    const auto r = to_agent_response(std::vector{update_of(
        {text_content("a"), text_content("b"), text_reasoning_content("r"), text_content("c")})});
    const std::vector<content> expected{text_content("ab"), text_reasoning_content("r"),
                                        text_content("c")};
    EXPECT_EQ(r.messages.at(0).contents, expected);
}

TEST(model_merge, reasoning_after_protected_data_starts_a_new_reasoning_content) {
    const auto r = to_agent_response(std::vector{
        update_of({text_reasoning_content("one ")}),
        update_of({text_reasoning_content("block", std::string("sig1"))}),
        update_of({text_reasoning_content("two")}),
        update_of({text_reasoning_content("", std::string("sig2"))})});
    const std::vector<content> expected{text_reasoning_content("one block", std::string("sig1")),
                                        text_reasoning_content("two", std::string("sig2"))};
    EXPECT_EQ(r.messages.at(0).contents, expected);
}

TEST(model_merge, a_merged_content_keeps_the_first_properties_and_drops_raw_representations) {
    text_content first("a");
    first.additional_properties["index"] = 0;
    first.raw_representation = "piece a";
    text_content second("b");
    second.additional_properties["index"] = 1;
    second.raw_representation = "piece b";
    text_content lone("c");
    lone.raw_representation = "piece c";

    const auto r = to_agent_response(std::vector{update_of({first}), update_of({second}),
                                                 update_of({error_content("x")}), update_of({lone})});
    const auto& merged = std::get<text_content>(r.messages.at(0).contents.at(0));
    EXPECT_EQ(merged.text, "ab");
    EXPECT_EQ(merged.additional_properties, (boost::json::object{{"index", 0}}));
    EXPECT_TRUE(merged.raw_representation.is_null());
    EXPECT_EQ(std::get<text_content>(r.messages[0].contents.at(2)).raw_representation, "piece c");
}

TEST(model_merge, usage_is_summed_into_the_response_not_kept_as_content) {
    auto first = text_update("hi");
    first.contents.emplace_back(usage_content({.input_token_count = 1, .output_token_count = 2}));
    const auto r = to_agent_response(
        std::vector{first, usage_update({.input_token_count = 4, .output_token_count = 5})});
    ASSERT_TRUE(r.usage);
    EXPECT_EQ(r.usage->input_token_count, 5);
    EXPECT_EQ(r.usage->output_token_count, 7);
    EXPECT_EQ(r.usage->total_token_count, std::nullopt);
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(r.messages[0].contents, std::vector<content>{text_content("hi")});
}

TEST(model_merge, usage_sums_are_null_aware) {
    const auto r = to_agent_response(
        std::vector{usage_update({.input_token_count = std::nullopt, .total_token_count = 3}),
                    usage_update({.input_token_count = std::nullopt, .output_token_count = 2})});
    EXPECT_EQ(r.usage, (usage_details{.input_token_count = std::nullopt, .output_token_count = 2,
                                      .total_token_count = 3}));
}

TEST(model_merge, no_usage_content_leaves_usage_null) {
    EXPECT_EQ(to_agent_response(std::vector{text_update("x")}).usage, std::nullopt);
}

TEST(model_merge, usage_only_updates_start_no_message) {
    const auto r = to_agent_response(std::vector{usage_update({.input_token_count = 7})});
    EXPECT_TRUE(r.messages.empty());
    EXPECT_EQ(r.usage->input_token_count, 7);
    EXPECT_EQ(r.text(), "");
}

TEST(model_merge, a_usage_only_update_between_texts_does_not_break_the_text_run) {
    const auto r = to_agent_response(
        std::vector{text_update("a"), usage_update({.output_token_count = 1}), text_update("b")});
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(r.messages[0].contents, std::vector<content>{text_content("ab")});
}

TEST(model_merge, an_update_with_only_a_role_starts_an_empty_message_that_later_text_fills) {
    const auto r = to_agent_response(std::vector{
        agent_response_update(chat_role::user(), std::vector<content>{}), text_update("x")});
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(r.messages[0].role, chat_role::user());
    EXPECT_EQ(r.messages[0].text(), "x");
}

TEST(model_merge, the_first_created_time_after_the_epoch_wins) {
    auto timed = [](std::optional<time_point> t, std::string message_id) {
        auto u = with_id(std::move(message_id), "x");
        u.created_at = t;
        return u;
    };
    const auto r = to_agent_response(std::vector{
        timed(std::nullopt, "m1"), timed(time_point{}, "m1"), timed(at(-5), "m1"),
        timed(at(100), "m1"), timed(at(50), "m1"), timed(at(300), "m2"), timed(at(200), "m2")});
    EXPECT_EQ(r.created_at, at(100));
    EXPECT_EQ(r.messages.at(0).created_at, at(100));
    EXPECT_EQ(r.messages.at(1).created_at, at(300));
}

TEST(model_merge, only_epoch_times_leave_the_time_unknown) {
    auto u = text_update("x");
    u.created_at = time_point{};
    const auto r = to_agent_response(std::vector{u});
    EXPECT_EQ(r.created_at, std::nullopt);
    EXPECT_EQ(r.messages.at(0).created_at, std::nullopt);
}

TEST(model_merge, a_time_on_a_usage_only_update_sets_only_the_response_time) {
    auto usage = usage_update({.input_token_count = 1});
    usage.created_at = at(10);
    auto text = text_update("x");
    text.created_at = at(20);
    const auto r = to_agent_response(std::vector{usage, text});
    EXPECT_EQ(r.created_at, at(10));
    EXPECT_EQ(r.messages.at(0).created_at, at(20));
}

TEST(model_merge, the_last_non_empty_ids_and_finish_reason_win) {
    std::vector<agent_response_update> updates(4, text_update("x"));
    updates[0].response_id = "r1";
    updates[0].agent_id = "a1";
    updates[0].finish_reason = finish_reason::length();
    updates[1].response_id = "r2";
    updates[2].agent_id = "a2";
    updates[2].finish_reason = finish_reason::stop();
    // updates[3] has empty ids and no finish reason: no change.
    const auto r = to_agent_response(updates);
    EXPECT_EQ(r.response_id, "r2");
    EXPECT_EQ(r.agent_id, "a2");
    EXPECT_EQ(r.finish_reason, finish_reason::stop());
}

TEST(model_merge, the_continuation_token_is_the_last_updates) {
    std::vector<agent_response_update> updates(3, text_update("x"));
    updates[0].continuation_token = continuation_token("seq-1");
    updates[1].continuation_token = continuation_token("seq-2");
    EXPECT_EQ(to_agent_response(std::span(updates.data(), 2)).continuation_token,
              continuation_token("seq-2"));
    // A completed stream ends with an update that has no token: nothing to resume.
    EXPECT_EQ(to_agent_response(updates).continuation_token, std::nullopt);
}

TEST(model_merge, update_properties_are_merged_into_the_response_with_later_ones_winning) {
    auto a = text_update("x");
    a.additional_properties = {{"tier", "flex"}, {"region", "eu"}};
    a.raw_representation = {{"chunk", 1}};
    auto b = text_update("y");
    b.additional_properties = {{"tier", "default"}};
    const auto r = to_agent_response(std::vector{a, b});
    EXPECT_EQ(r.additional_properties, (boost::json::object{{"tier", "default"}, {"region", "eu"}}));
    EXPECT_TRUE(r.raw_representation.is_null());
}

TEST(model_merge, the_builder_merges_one_update_at_a_time) {
    agent_response_builder builder;
    builder.add(text_update("Hel"));
    EXPECT_EQ(builder.response().text(), "Hel");
    const auto lvalue = text_update("lo");
    builder.add(lvalue);
    EXPECT_EQ(lvalue.text(), "lo"); // an lvalue is copied, not moved from
    EXPECT_EQ(builder.response().text(), "Hello");

    const agent_response<> taken = builder.take();
    EXPECT_EQ(taken.text(), "Hello");
    EXPECT_EQ(builder.response(), agent_response<>());
    builder.add(text_update("again"));
    EXPECT_EQ(builder.take().text(), "again");
}

namespace {

// A single-pass range of updates read from JSON lines, as a stored stream would be read back.
// (Written out: clang 14 cannot compile libstdc++ 12's views, std::ranges::subrange included.)
class json_lines {
public:
    explicit json_lines(std::istream& in) : in_(&in) { advance(); }

    struct iterator {
        using value_type = agent_response_update;
        using difference_type = std::ptrdiff_t;
        json_lines* lines;
        const agent_response_update& operator*() const { return lines->current_; }
        iterator& operator++() {
            lines->advance();
            return *this;
        }
        void operator++(int) { ++*this; }
        bool operator==(std::default_sentinel_t) const { return lines->done_; }
    };
    iterator begin() { return iterator{this}; }
    std::default_sentinel_t end() { return {}; }

private:
    void advance() {
        std::string line;
        done_ = !std::getline(*in_, line);
        if (!done_) current_ = from_text<agent_response_update>(line);
    }
    std::istream* in_;
    agent_response_update current_;
    bool done_ = false;
};

} // namespace

TEST(model_merge, accepts_any_input_range) {
    const std::vector<agent_response_update> vec{text_update("a"), text_update("b")};
    const std::list<agent_response_update> list(vec.begin(), vec.end());
    EXPECT_EQ(to_agent_response(vec).text(), "ab");
    EXPECT_EQ(to_agent_response(list).text(), "ab");
    EXPECT_EQ(to_agent_response(std::deque<agent_response_update>(vec.rbegin(), vec.rend())).text(), "ba");
    EXPECT_EQ(to_agent_response(std::span(vec).subspan(1)).text(), "b");
}

TEST(model_merge, accepts_a_single_pass_input_range) {
    std::istringstream lines(R"({"contents":[{"type":"text","text":"one,"}]})"
                             "\n"
                             R"({"contents":[{"type":"text","text":"two"}]})");
    json_lines updates(lines);
    static_assert(std::ranges::input_range<json_lines> && !std::ranges::forward_range<json_lines>);
    EXPECT_EQ(to_agent_response(updates).text(), "one,two");
}

TEST(model_merge, moving_a_container_in_gives_the_same_response_as_copying_it) {
    std::vector<agent_response_update> updates{with_role(chat_role::assistant(), "a"),
                                               with_author("x", "b"), with_id("m", "c")};
    const auto copied = to_agent_response(updates);
    const auto moved = to_agent_response(std::move(updates));
    EXPECT_EQ(moved, copied);
    EXPECT_EQ(moved.text(), "abc");
}

// Streams built from a fixed seed: merging, then to_updates, then merging again
// gives the same response.
TEST(model_merge, merged_responses_survive_to_updates_and_merging_again) {
    std::mt19937 random(20240501);
    auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
    const std::vector<chat_role> roles{chat_role::assistant(), chat_role::tool(), chat_role::user()};
    for (int stream = 0; stream < 200; ++stream) {
        std::vector<agent_response_update> updates;
        const int count = 1 + pick(30);
        for (int i = 0; i < count; ++i) {
            agent_response_update u;
            if (pick(4) == 0) u.role = roles[static_cast<std::size_t>(pick(3))];
            if (pick(5) == 0) u.message_id = "m" + std::to_string(pick(3));
            if (pick(6) == 0) u.author_name = "author" + std::to_string(pick(2));
            if (pick(5) == 0) u.response_id = "r" + std::to_string(pick(3));
            if (pick(7) == 0) u.agent_id = "a" + std::to_string(pick(2));
            if (pick(4) == 0) u.created_at = at(pick(3) * 1000);
            if (pick(8) == 0) u.finish_reason = finish_reason::stop();
            if (pick(8) == 0) u.continuation_token = continuation_token(std::to_string(i));
            if (pick(9) == 0) u.additional_properties["k" + std::to_string(pick(3))] = i;
            const int contents = pick(4);
            for (int c = 0; c < contents; ++c) {
                switch (pick(6)) {
                case 0: u.contents.emplace_back(text_reasoning_content("r" + std::to_string(i))); break;
                case 1:
                    u.contents.emplace_back(text_reasoning_content("", std::string("sig")));
                    break;
                case 2: u.contents.emplace_back(function_call_content("c", "f")); break;
                case 3: u.contents.emplace_back(usage_content({.input_token_count = i})); break;
                default: u.contents.emplace_back(text_content("t" + std::to_string(i))); break;
                }
            }
            updates.push_back(std::move(u));
        }
        const agent_response<> merged = to_agent_response(updates);
        ASSERT_EQ(to_agent_response(merged.to_updates()), merged) << "stream " << stream;
        ASSERT_EQ(through_json_text(merged), merged) << "stream " << stream;
    }
}

} // namespace
