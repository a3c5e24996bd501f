#pragma once
// The contract of every forma::session_store: versions, optimistic saves and the conflict error,
// erase, expiry, size limits, the async forms. A test binary instantiates it for a store with
// a maker: `static std::unique_ptr<forma::session_store> make(io_context&, ttl, max_session_bytes)`.
#include <forma/agent/session_store.hpp>

#include "support/bounded_run.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_future.hpp>

#include <gtest/gtest.h>

#include <future>
#include <memory>

namespace forma_test {

template <class Maker>
class session_store_contract : public ::testing::Test {
protected:
    std::unique_ptr<forma::session_store> make(std::chrono::milliseconds ttl = std::chrono::milliseconds(0),
                                               std::size_t max_session_bytes = 16 * 1024 * 1024) {
        return Maker::make(io, ttl, max_session_bytes);
    }

    template <class T>
    T run(boost::asio::awaitable<T> operation) {
        return run_bounded(io, std::move(operation), std::chrono::seconds(10));
    }

    std::optional<forma::agent_session> load(forma::session_store& store, std::string id) {
        return run(store.load(forma::session_id(std::move(id))));
    }

    void save(forma::session_store& store, forma::agent_session& session) {
        run([&]() -> boost::asio::awaitable<bool> {
            co_await store.save(session);
            co_return true;
        }());
    }

    // Runs the io_context until `result` is ready (a store may keep a connection open, so
    // io_context::run would not return), for at most 10 s.
    template <class Future>
    void drive(const Future& result) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        io.restart();
        while (result.wait_for(std::chrono::seconds(0)) != std::future_status::ready &&
               std::chrono::steady_clock::now() < deadline)
            io.run_one_for(std::chrono::milliseconds(50));
        ASSERT_EQ(result.wait_for(std::chrono::seconds(0)), std::future_status::ready) << "hang";
    }

    static forma::agent_session conversation(std::string id, std::vector<std::string> texts) {
        forma::agent_session s(forma::session_id(std::move(id)));
        for (auto& text : texts) s.history.emplace_back(forma::chat_role::user(), std::move(text));
        return s;
    }

    boost::asio::io_context io;
};

TYPED_TEST_SUITE_P(session_store_contract);

namespace asio = boost::asio;
using forma::agent_session;
using forma::chat_role;

TYPED_TEST_P(session_store_contract, a_saved_session_loads_back_equal_with_its_version) {
    auto store_owner = this->make();
    forma::session_store& store = *store_owner;
    agent_session s = this->conversation("s-1", {"hello", "again"});
    s.state["a2a"] = boost::json::object{{"context_id", "c-1"}};
    EXPECT_EQ(s.version, 0u);
    this->save(store, s);
    EXPECT_EQ(s.version, 1u);
    const auto loaded = this->load(store, "s-1");
    ASSERT_TRUE(loaded);
    EXPECT_EQ(*loaded, s);
    this->save(store, s);
    EXPECT_EQ(s.version, 2u);
    EXPECT_EQ(this->load(store, "s-1")->version, 2u);
    EXPECT_FALSE(this->load(store, "nobody"));
}

// A model's tool call can hold any bytes (a path cut in the middle of a character): the session
// is saved as valid UTF-8, each such byte U+FFFD, and loads back.
TYPED_TEST_P(session_store_contract, a_session_holding_bytes_that_are_not_utf8_is_saved_and_loads_back) {
    auto store_owner = this->make();
    forma::session_store& store = *store_owner;
    agent_session s = this->conversation("bytes", {"delete \xdf"});
    s.history.emplace_back(chat_role::assistant(),
                           std::vector<forma::content>{forma::function_call_content("call-1", "delete_file", {{"path", "\x86"}})});
    this->save(store, s);
    const auto loaded = this->load(store, "bytes");
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->history[0].text(), "delete \xEF\xBF\xBD");
    const auto& call = std::get<forma::function_call_content>(loaded->history[1].contents.at(0));
    EXPECT_EQ(call.arguments.at("path").as_string(), "\xEF\xBF\xBD");
}

TYPED_TEST_P(session_store_contract, a_save_over_a_newer_version_is_a_conflict_and_writes_nothing) {
    auto store_owner = this->make();
    forma::session_store& store = *store_owner;
    agent_session first = this->conversation("s", {"one"});
    this->save(store, first);
    agent_session a = *this->load(store, "s");
    agent_session b = *this->load(store, "s");
    a.history.emplace_back(chat_role::assistant(), "from a");
    b.history.emplace_back(chat_role::assistant(), "from b");
    this->save(store, a);
    try {
        this->save(store, b);
        FAIL() << "the second writer overwrote the first";
    } catch (const forma::session_conflict_error& e) {
        EXPECT_EQ(e.session_id().str(), "s");
        EXPECT_EQ(e.loaded_version(), 1u);
        EXPECT_EQ(e.stored_version(), 2u);
        EXPECT_NE(std::string(e.what()).find("another writer saved first"), std::string::npos) << e.what();
    }
    EXPECT_EQ(b.version, 1u) << "a refused save leaves the session as it was";
    EXPECT_EQ(this->load(store, "s")->history.back().text(), "from a");

    // The clean retry: load again, redo the change, save.
    agent_session retry = *this->load(store, "s");
    retry.history.emplace_back(chat_role::assistant(), "from b");
    this->save(store, retry);
    const auto both = this->load(store, "s");
    ASSERT_EQ(both->history.size(), 3u);
    EXPECT_EQ(both->history[1].text(), "from a");
    EXPECT_EQ(both->history[2].text(), "from b");
    EXPECT_EQ(both->version, 3u);
}

TYPED_TEST_P(session_store_contract, a_new_session_under_a_taken_id_is_a_conflict) {
    auto store_owner = this->make();
    forma::session_store& store = *store_owner;
    agent_session stored = this->conversation("taken", {"first"});
    this->save(store, stored);
    agent_session newcomer = this->conversation("taken", {"second"});
    EXPECT_THROW(this->save(store, newcomer), forma::session_conflict_error);
    EXPECT_EQ(this->load(store, "taken")->history[0].text(), "first");
}

TYPED_TEST_P(session_store_contract, erase_removes_and_a_save_of_an_erased_session_is_a_conflict) {
    auto store_owner = this->make();
    forma::session_store& store = *store_owner;
    agent_session s = this->conversation("e", {"x"});
    this->save(store, s);
    EXPECT_TRUE(this->run(store.erase(forma::session_id("e"))));
    EXPECT_FALSE(this->run(store.erase(forma::session_id("e"))));
    EXPECT_FALSE(this->load(store, "e"));
    try {
        this->save(store, s);
        FAIL() << "an erased session came back";
    } catch (const forma::session_conflict_error& e) {
        EXPECT_EQ(e.stored_version(), 0u);
    }
}

TYPED_TEST_P(session_store_contract, a_session_not_saved_within_the_ttl_is_gone) {
    auto store_owner = this->make(std::chrono::milliseconds(20));
    forma::session_store& store = *store_owner;
    agent_session s = this->conversation("t", {"x"});
    this->save(store, s);
    EXPECT_TRUE(this->load(store, "t"));
    this->run([&]() -> asio::awaitable<bool> {
        asio::steady_timer pause(this->io, std::chrono::milliseconds(30)); // the TTL is a time: only waiting shows it
        co_await pause.async_wait(asio::use_awaitable);
        co_return true;
    }());
    EXPECT_FALSE(this->load(store, "t"));
}

TYPED_TEST_P(session_store_contract, a_session_over_the_size_limit_or_without_an_id_is_refused) {
    auto store_owner = this->make(std::chrono::milliseconds(0), 200);
    forma::session_store& store = *store_owner;
    agent_session big = this->conversation("big", {std::string(500, 'x')});
    try {
        this->save(store, big);
        FAIL() << "a session past the limit was saved";
    } catch (const forma::session_conflict_error&) {
        FAIL() << "not a conflict";
    } catch (const forma::error& e) {
        EXPECT_NE(std::string(e.what()).find("more than the store's limit of 200"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(this->load(store, "big"));
    EXPECT_EQ(big.version, 0u);
    agent_session nameless;
    EXPECT_THROW(this->save(store, nameless), forma::error);
}

TYPED_TEST_P(session_store_contract, the_async_forms_take_any_completion_token) {
    auto store_owner = this->make();
    forma::session_store& store = *store_owner;
    agent_session s = this->conversation("f", {"x"});
    auto saved = store.async_save(s, asio::use_future);
    this->drive(saved);
    saved.get();
    auto loaded = store.async_load(forma::session_id("f"), asio::use_future);
    this->drive(loaded);
    const auto session = loaded.get();
    ASSERT_TRUE(session);
    EXPECT_EQ(session->version, 1u);
}

REGISTER_TYPED_TEST_SUITE_P(session_store_contract,
                            a_saved_session_loads_back_equal_with_its_version,
                            a_session_holding_bytes_that_are_not_utf8_is_saved_and_loads_back,
                            a_save_over_a_newer_version_is_a_conflict_and_writes_nothing,
                            a_new_session_under_a_taken_id_is_a_conflict,
                            erase_removes_and_a_save_of_an_erased_session_is_a_conflict,
                            a_session_not_saved_within_the_ttl_is_gone,
                            a_session_over_the_size_limit_or_without_an_id_is_refused,
                            the_async_forms_take_any_completion_token);

} // namespace forma_test
