#include <forma/agent/agent_run.hpp>
#include <forma/agent/heap_optional.hpp>
#include <forma/model/agent_response.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>

namespace {

using forma::heap_optional;

TEST(heap_optional, IsEmptyUntilSetAndHoldsWhatWasSet) {
    heap_optional<std::string> o;
    EXPECT_FALSE(o);
    EXPECT_FALSE(o.has_value());
    EXPECT_EQ(o, std::nullopt);
    EXPECT_THROW((void)o.value(), std::bad_optional_access);
    EXPECT_EQ(o.value_or("fallback"), "fallback");

    o = std::string("set");
    ASSERT_TRUE(o);
    EXPECT_EQ(*o, "set");
    EXPECT_EQ(o->size(), 3u);
    EXPECT_EQ(o.value(), "set");
    EXPECT_EQ(o.value_or("fallback"), "set");

    o.emplace(2, 'x');
    EXPECT_EQ(*o, "xx");
    o = std::nullopt;
    EXPECT_FALSE(o);
    o = std::string("again");
    o = {};
    EXPECT_FALSE(o);
}

TEST(heap_optional, CopiesAreIndependentValuesAndAMovedFromOneIsEmpty) {
    heap_optional<std::string> a = std::string("one");
    heap_optional<std::string> b = a;
    *b += " changed";
    EXPECT_EQ(*a, "one");
    EXPECT_EQ(*b, "one changed");
    EXPECT_NE(a, b);

    heap_optional<std::string> c;
    c = a; // into an empty one
    EXPECT_EQ(c, a);
    c = b; // over a set one
    EXPECT_EQ(*c, "one changed");
    c = heap_optional<std::string>(); // an empty one copied over a set one
    EXPECT_FALSE(c);

    heap_optional<std::string> moved = std::move(a);
    EXPECT_EQ(*moved, "one");
    EXPECT_FALSE(a); // NOLINT(bugprone-use-after-move): the documented state
    std::string taken = *std::move(moved);
    EXPECT_EQ(taken, "one");
}

TEST(heap_optional, ConvertsToAndFromAStdOptional) {
    const std::optional<std::string> set = "from std";
    const heap_optional<std::string> o = set;
    EXPECT_EQ(*o, "from std");
    const std::optional<std::string> back = o;
    EXPECT_EQ(back, set);
    const heap_optional<std::string> none = std::optional<std::string>();
    EXPECT_FALSE(none);
    EXPECT_EQ(static_cast<std::optional<std::string>>(none), std::nullopt);
    heap_optional<std::string> moved = std::string("moved");
    const std::optional<std::string> taken = std::move(moved);
    EXPECT_EQ(taken, "moved");
}

// What agent_run_options::chat_options is held as for: a run's options, and so every run_core
// coroutine frame, stay small whether or not chat options are set (a set std::optional<chat_options>
// held 408 bytes in place and put a trivial agent's frame past the 1,020 bytes Asio recycles).
TEST(heap_optional, KeepsARunsOptionsSmallAndSpelledAsBefore) {
    EXPECT_LE(sizeof(forma::agent_run_options), 320u);
    EXPECT_LE(sizeof(forma::agent_run) + sizeof(forma::agent_response<>), 900u);

    forma::agent_run_options options{.chat_options = forma::chat_options{.model = "m", .temperature = 0.5}};
    ASSERT_TRUE(options.chat_options);
    EXPECT_EQ(options.chat_options->model, "m");
    forma::agent_run_options copy = options;
    copy.chat_options->model = "other";
    EXPECT_EQ(options.chat_options->model, "m");
    EXPECT_NE(copy, options);
    copy.chat_options->model = "m";
    EXPECT_EQ(copy, options);
    EXPECT_EQ(options.clone(), options);
}

} // namespace
