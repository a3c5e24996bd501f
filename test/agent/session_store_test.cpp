// session_store's contract on in_memory_session_store (test/redis runs it on Redis), and the
// session's version in JSON.
#include <forma/agent/in_memory_session_store.hpp>

#include "session_store_contract.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <gtest/gtest.h>

using forma::agent_session;

namespace {

struct in_memory_store {
    static std::unique_ptr<forma::session_store> make(boost::asio::io_context& io, std::chrono::milliseconds ttl,
                                                      std::size_t max_session_bytes) {
        return std::make_unique<forma::in_memory_session_store>(
            io.get_executor(), forma::in_memory_session_store_options{.ttl = ttl, .max_session_bytes = max_session_bytes});
    }
};

} // namespace

namespace forma_test {
INSTANTIATE_TYPED_TEST_SUITE_P(in_memory, session_store_contract, ::in_memory_store);
} // namespace forma_test

TEST(in_memory_session_store, size_counts_live_sessions_only) {
    boost::asio::io_context io;
    forma::in_memory_session_store store(io.get_executor(), {.ttl = std::chrono::hours(1)});
    agent_session a(forma::session_id("a")), b(forma::session_id("b"));
    forma_test::run_bounded(io, [&]() -> boost::asio::awaitable<bool> {
        co_await store.save(a);
        co_await store.save(b);
        co_await store.erase(forma::session_id("a"));
        co_return true;
    }(), std::chrono::seconds(10));
    EXPECT_EQ(store.size(), 1u);
}

// Bounded as a peak: past max_sessions or max_bytes the sessions saved longest ago go.
TEST(in_memory_session_store, the_sessions_saved_longest_ago_give_way_at_its_limits) {
    boost::asio::io_context io;
    forma::in_memory_session_store by_count(io.get_executor(), {.max_sessions = 2});
    forma::in_memory_session_store by_bytes(io.get_executor(), {.max_bytes = 2500}); // two sessions of about 950 bytes
    std::vector<bool> counted, sized;
    forma_test::run_bounded(io, [&]() -> boost::asio::awaitable<bool> {
        for (const char* id : {"a", "b", "c"}) {
            agent_session s{forma::session_id(id)};
            co_await by_count.save(s);
        }
        agent_session a_again = *co_await by_count.load(forma::session_id("b")); // saved again: the newest
        co_await by_count.save(a_again);
        agent_session d{forma::session_id("d")};
        co_await by_count.save(d);
        for (const char* id : {"a", "b", "c", "d"}) counted.push_back((co_await by_count.load(forma::session_id(id))).has_value());
        for (const char* id : {"x", "y", "z"}) {
            agent_session s{forma::session_id(id)};
            s.history.emplace_back(forma::chat_role::user(), std::string(900, 'w'));
            co_await by_bytes.save(s);
        }
        for (const char* id : {"x", "y", "z"}) sized.push_back((co_await by_bytes.load(forma::session_id(id))).has_value());
        co_return true;
    }(), std::chrono::seconds(10));
    EXPECT_EQ(counted, (std::vector<bool>{false, true, false, true})) << "a and c went, the oldest saved";
    EXPECT_EQ(sized, (std::vector<bool>{false, true, true}));
    EXPECT_EQ(by_bytes.size(), 2u);
}

TEST(in_memory_session_store, sessions_expire_by_default) {
    EXPECT_GT(forma::in_memory_session_store_options{}.ttl.count(), 0) << "expiry is on without options";
}

TEST(agent_session_json, the_version_round_trips_and_a_bad_one_is_named) {
    agent_session s(forma::session_id("v"));
    s.version = 7;
    const auto json = boost::json::value_from(s);
    EXPECT_EQ(json.at("version"), 7);
    EXPECT_EQ(boost::json::value_to<agent_session>(json), s);
    EXPECT_FALSE(boost::json::value_from(agent_session(forma::session_id("none"))).as_object().contains("version")) << "0 is not written";
    try {
        (void)boost::json::value_to<agent_session>(boost::json::parse(R"({"id":"v","version":-1})"));
        FAIL();
    } catch (const forma::json_error& e) {
        EXPECT_EQ(e.path(), "/version");
    }
}
