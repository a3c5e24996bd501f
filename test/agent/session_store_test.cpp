// session_store's contract on in_memory_session_store: versions, optimistic saves and the
// conflict error, erase, expiry, size limits. (The Redis store runs the same cases.)
#include <forma/agent/in_memory_session_store.hpp>

#include "support/bounded_run.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <gtest/gtest.h>

namespace asio = boost::asio;
using forma::agent_session;
using forma::chat_message;
using forma::chat_role;

namespace {

class session_store_test : public ::testing::Test {
protected:
    template <class T>
    T run(asio::awaitable<T> operation) {
        return forma_test::run_bounded(io, std::move(operation), std::chrono::seconds(10));
    }

    std::optional<agent_session> load(forma::session_store& store, std::string id) { return run(store.load(std::move(id))); }

    void save(forma::session_store& store, agent_session& session) {
        run([&]() -> asio::awaitable<bool> {
            co_await store.save(session);
            co_return true;
        }());
    }

    static agent_session conversation(std::string id, std::vector<std::string> texts) {
        agent_session s(std::move(id));
        for (auto& text : texts) s.history.emplace_back(chat_role::user(), std::move(text));
        return s;
    }

    asio::io_context io;
};

} // namespace

TEST_F(session_store_test, a_saved_session_loads_back_equal_with_its_version) {
    forma::in_memory_session_store store(io.get_executor());
    agent_session s = conversation("s-1", {"hello", "again"});
    s.state["a2a"] = boost::json::object{{"context_id", "c-1"}};
    EXPECT_EQ(s.version, 0u);
    save(store, s);
    EXPECT_EQ(s.version, 1u);
    const auto loaded = load(store, "s-1");
    ASSERT_TRUE(loaded);
    EXPECT_EQ(*loaded, s);
    save(store, s);
    EXPECT_EQ(s.version, 2u);
    EXPECT_EQ(load(store, "s-1")->version, 2u);
    EXPECT_FALSE(load(store, "nobody"));
}

TEST_F(session_store_test, a_save_over_a_newer_version_is_a_conflict_and_writes_nothing) {
    forma::in_memory_session_store store(io.get_executor());
    agent_session first = conversation("s", {"one"});
    save(store, first);
    agent_session a = *load(store, "s");
    agent_session b = *load(store, "s");
    a.history.emplace_back(chat_role::assistant(), "from a");
    b.history.emplace_back(chat_role::assistant(), "from b");
    save(store, a);
    try {
        save(store, b);
        FAIL() << "the second writer overwrote the first";
    } catch (const forma::session_conflict_error& e) {
        EXPECT_EQ(e.session_id(), "s");
        EXPECT_EQ(e.loaded_version(), 1u);
        EXPECT_EQ(e.stored_version(), 2u);
        EXPECT_NE(std::string(e.what()).find("another writer saved first"), std::string::npos) << e.what();
    }
    EXPECT_EQ(b.version, 1u) << "a refused save leaves the session as it was";
    EXPECT_EQ(load(store, "s")->history.back().text(), "from a");

    // The clean retry: load again, redo the change, save.
    agent_session retry = *load(store, "s");
    retry.history.emplace_back(chat_role::assistant(), "from b");
    save(store, retry);
    const auto both = load(store, "s");
    ASSERT_EQ(both->history.size(), 3u);
    EXPECT_EQ(both->history[1].text(), "from a");
    EXPECT_EQ(both->history[2].text(), "from b");
    EXPECT_EQ(both->version, 3u);
}

TEST_F(session_store_test, a_new_session_under_a_taken_id_is_a_conflict) {
    forma::in_memory_session_store store(io.get_executor());
    agent_session stored = conversation("taken", {"first"});
    save(store, stored);
    agent_session newcomer = conversation("taken", {"second"});
    EXPECT_THROW(save(store, newcomer), forma::session_conflict_error);
    EXPECT_EQ(load(store, "taken")->history[0].text(), "first");
}

TEST_F(session_store_test, erase_removes_and_a_save_of_an_erased_session_is_a_conflict) {
    forma::in_memory_session_store store(io.get_executor());
    agent_session s = conversation("e", {"x"});
    save(store, s);
    EXPECT_TRUE(run(store.erase("e")));
    EXPECT_FALSE(run(store.erase("e")));
    EXPECT_FALSE(load(store, "e"));
    try {
        save(store, s);
        FAIL() << "an erased session came back";
    } catch (const forma::session_conflict_error& e) {
        EXPECT_EQ(e.stored_version(), 0u);
    }
    EXPECT_EQ(store.size(), 0u);
}

TEST_F(session_store_test, a_session_not_saved_within_the_ttl_is_gone) {
    forma::in_memory_session_store store(io.get_executor(), {.ttl = std::chrono::milliseconds(20)});
    agent_session s = conversation("t", {"x"});
    save(store, s);
    EXPECT_TRUE(load(store, "t"));
    run([&]() -> asio::awaitable<bool> {
        asio::steady_timer pause(io, std::chrono::milliseconds(30)); // the TTL is a time: only waiting shows it
        co_await pause.async_wait(asio::use_awaitable);
        co_return true;
    }());
    EXPECT_FALSE(load(store, "t"));
    EXPECT_EQ(store.size(), 0u);
}

TEST_F(session_store_test, a_session_over_the_size_limit_or_without_an_id_is_refused) {
    forma::in_memory_session_store store(io.get_executor(), {.max_session_bytes = 200});
    agent_session big = conversation("big", {std::string(500, 'x')});
    try {
        save(store, big);
        FAIL() << "a session past the limit was saved";
    } catch (const forma::session_conflict_error&) {
        FAIL() << "not a conflict";
    } catch (const forma::error& e) {
        EXPECT_NE(std::string(e.what()).find("more than the store's limit of 200"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(load(store, "big"));
    EXPECT_EQ(big.version, 0u);
    agent_session nameless;
    EXPECT_THROW(save(store, nameless), forma::error);
}

TEST_F(session_store_test, the_async_forms_take_any_completion_token) {
    forma::in_memory_session_store store(io.get_executor());
    agent_session s = conversation("f", {"x"});
    auto saved = store.async_save(s, asio::use_future);
    auto loaded = store.async_load("f", asio::use_future);
    io.run();
    saved.get();
    EXPECT_EQ(loaded.get()->version, 1u);
}

TEST(agent_session_json, the_version_round_trips_and_a_bad_one_is_named) {
    agent_session s("v");
    s.version = 7;
    const auto json = boost::json::value_from(s);
    EXPECT_EQ(json.at("version"), 7);
    EXPECT_EQ(boost::json::value_to<agent_session>(json), s);
    EXPECT_FALSE(boost::json::value_from(agent_session("none")).as_object().contains("version")) << "0 is not written";
    try {
        (void)boost::json::value_to<agent_session>(boost::json::parse(R"({"id":"v","version":-1})"));
        FAIL();
    } catch (const forma::json_error& e) {
        EXPECT_EQ(e.path(), "/version");
    }
}
