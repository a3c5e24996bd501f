// forma::redis::session_store on a real redis-server: the session_store contract, then what
// only a shared store meets: another instance, keys holding foreign data, a save cancelled at
// any point, a server restarted mid-run.
#include <forma/redis/session_store.hpp>

#include "../agent/session_store_contract.hpp"
#include "redis_test_support.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>

#include <gtest/gtest.h>

namespace asio = boost::asio;
using forma::agent_session;
using forma::chat_role;
using namespace forma::redis;

namespace {

struct redis_store {
    static std::unique_ptr<forma::session_store> make(asio::io_context& io, std::chrono::milliseconds ttl,
                                                      std::size_t max_session_bytes) {
        static int made = 0; // each store its own keys: the tests share the server
        auto redis = std::make_shared<client>(io.get_executor(), forma_test::shared_redis().client_options());
        return std::make_unique<session_store>(
            redis, session_store_options{.key_prefix = "contract" + std::to_string(++made) + ":", .ttl = ttl,
                                         .max_session_bytes = max_session_bytes});
    }
};

agent_session conversation(std::string id, int messages) {
    agent_session s(forma::session_id(std::move(id)));
    for (int i = 0; i < messages; ++i) s.history.emplace_back(i % 2 ? chat_role::assistant() : chat_role::user(), "m" + std::to_string(i));
    return s;
}

class redis_session_store_test : public forma_test::redis_test {
protected:
    void save(session_store& store, agent_session& s) { run(store.save(s)); }
};

} // namespace

namespace forma_test {
INSTANTIATE_TYPED_TEST_SUITE_P(redis, session_store_contract, ::redis_store);
} // namespace forma_test

TEST_F(redis_session_store_test, two_instances_continue_one_conversation_and_the_slower_writer_gets_the_conflict) {
    session_store instance_a(connect(server()));
    session_store instance_b(connect(server()));
    agent_session started = conversation("shared", 2);
    save(instance_a, started);

    agent_session on_b = *run(instance_b.load(forma::session_id("shared")));
    on_b.history.emplace_back(chat_role::user(), "turn 2 via b");
    save(instance_b, on_b);
    agent_session on_a = *run(instance_a.load(forma::session_id("shared")));
    EXPECT_EQ(on_a.history.back().text(), "turn 2 via b");
    EXPECT_EQ(on_a.version, 2u);

    on_a.history.emplace_back(chat_role::user(), "turn 3 via a");
    on_b.history.emplace_back(chat_role::user(), "stale turn via b");
    save(instance_a, on_a);
    try {
        save(instance_b, on_b);
        FAIL() << "b overwrote a";
    } catch (const forma::session_conflict_error& e) {
        EXPECT_EQ(e.loaded_version(), 2u);
        EXPECT_EQ(e.stored_version(), 3u);
    }
    const agent_session stored = *run(instance_b.load(forma::session_id("shared")));
    EXPECT_EQ(stored.history.back().text(), "turn 3 via a");
    EXPECT_EQ(stored.history.size(), 4u);
}

TEST_F(redis_session_store_test, a_session_is_a_hash_of_version_and_json_and_the_ttl_is_set_at_each_save) {
    auto redis = connect(server());
    session_store store(redis, {.key_prefix = "app:", .ttl = std::chrono::minutes(5)});
    agent_session s = conversation("x", 1);
    save(store, s);
    EXPECT_EQ(store.key_of(forma::session_id("x")), "app:x");
    EXPECT_EQ(run(redis->execute(command("HGET", "app:x", "version"))).text, "1");
    const std::string json = run(redis->execute(command("HGET", "app:x", "session"))).text;
    EXPECT_EQ(json.find("\"version\""), std::string::npos) << "the version is kept apart: " << json;
    const auto ttl = run(redis->execute(command("PTTL", "app:x"))).integer;
    EXPECT_GT(ttl, 290000);
    EXPECT_LE(ttl, 300000);
    session_store forever(redis, {.key_prefix = "app:"});
    save(forever, s);
    EXPECT_EQ(run(redis->execute(command("PTTL", "app:x"))).integer, -1) << "no TTL: kept until erased";
}

TEST_F(redis_session_store_test, a_key_holding_foreign_data_is_a_typed_error_and_is_never_overwritten) {
    auto redis = connect(server());
    session_store store(redis);
    // A hash with forma's two fields is taken for a session by a save, which then finds its
    // version taken (a conflict); anything else is foreign to it too. Either way nothing is written.
    const auto expect_foreign = [&](const std::string& id, const std::string& holds, bool has_session_fields = false) {
        try {
            (void)run(store.load(forma::session_id(id)));
            ADD_FAILURE() << id << " loaded";
        } catch (const redis_error& e) {
            EXPECT_EQ(e.kind(), redis_error_kind::foreign_data) << e.what();
            EXPECT_NE(std::string(e.what()).find("the key \"forma:session:" + id + "\" holds " + holds), std::string::npos)
                << e.what();
        }
        agent_session s = conversation(id, 1);
        try {
            save(store, s);
            ADD_FAILURE() << id << " overwritten";
        } catch (const forma::session_conflict_error& e) {
            EXPECT_TRUE(has_session_fields) << e.what();
        } catch (const redis_error& e) {
            EXPECT_FALSE(has_session_fields) << e.what();
            EXPECT_EQ(e.kind(), redis_error_kind::foreign_data) << e.what();
            EXPECT_NE(std::string(e.what()).find("nothing was saved"), std::string::npos) << e.what();
        }
    };
    run(redis->execute(command("RPUSH", "forma:session:list", "a")));
    expect_foreign("list", "a value of another type");
    run(redis->execute(command("HSET", "forma:session:hash", "name", "someone else's")));
    expect_foreign("hash", "a hash without forma session fields");
    run(redis->execute(command("HSET", "forma:session:notjson", "version", "1", "session", "{not json\xff")));
    expect_foreign("notjson", "text that is not JSON", true);
    run(redis->execute(command("HSET", "forma:session:notsession", "version", "1", "session", R"({"history":7})")));
    expect_foreign("notsession", "JSON that is not a session", true);
    run(redis->execute(command("HSET", "forma:session:other", "version", "1", "session", R"({"id":"someone"})")));
    expect_foreign("other", "the session \"someone\"", true);
    run(redis->execute(command("HSET", "forma:session:badversion", "version", "-3", "session", R"({"id":"badversion"})")));
    expect_foreign("badversion", "the version \"-3\"");
    EXPECT_EQ(run(redis->execute(command("LLEN", "forma:session:list"))).integer, 1) << "left as it was";
    EXPECT_EQ(run(redis->execute(command("HGET", "forma:session:other", "session"))).text, R"({"id":"someone"})");
}

TEST_F(redis_session_store_test, a_save_cancelled_at_any_point_wrote_all_of_the_session_or_nothing) {
    session_store store(connect(server()));
    agent_session base = conversation("c", 20);
    save(store, base);
    int saved = 0, not_saved = 0;
    // Yields before the cancel: one by one at first, then doubling until a save got through (how
    // many a connect takes depends on the machine: the resolver and the server run meanwhile).
    for (int delay = 0; delay < 40 || (saved == 0 && delay < 1 << 20); delay = delay < 40 ? delay + 1 : 2 * delay) {
        // A new client each time: the cancel may come while it connects, while the save waits
        // to be written, or once it is sent.
        session_store fresh(connect(server()));
        agent_session change = *run(store.load(forma::session_id("c")));
        const std::uint64_t before = change.version;
        change.history.emplace_back(chat_role::user(), "change " + std::to_string(delay));
        change.history.emplace_back(chat_role::assistant(), std::string(20000, 'a')); // a long write
        asio::cancellation_signal cancel;
        bool finished = false;
        run([&]() -> asio::awaitable<bool> {
            asio::co_spawn(io, fresh.save(change), asio::bind_cancellation_slot(cancel.slot(), [&](std::exception_ptr) {
                               finished = true;
                           }));
            for (int i = 0; i < delay; ++i) co_await forma_test::yield();
            cancel.emit(asio::cancellation_type::terminal);
            while (!finished) co_await forma_test::yield();
            co_return true;
        }());
        // Read on the same connection: a save sent before the cancel runs before this read.
        const agent_session stored = *run(fresh.load(forma::session_id("c")));
        if (stored.version == before) {
            ++not_saved;
            EXPECT_EQ(stored.history.size(), 20u + 2u * static_cast<std::size_t>(saved));
        } else {
            ++saved;
            ASSERT_EQ(stored.version, before + 1);
            ASSERT_EQ(stored.history.back().text().size(), 20000u) << "torn";
            EXPECT_EQ(stored.history[stored.history.size() - 2].text(), "change " + std::to_string(delay));
        }
    }
    EXPECT_GT(not_saved, 0) << "no cancel came before the save was sent";
    EXPECT_GT(saved, 0) << "no cancel came after the save was sent";
}

TEST_F(redis_session_store_test, a_server_restarted_mid_run_fails_the_save_in_flight_typed_and_the_store_goes_on) {
    forma_test::redis_server restarting({.persistent = true});
    forma::redis::client_options options = restarting.client_options();
    options.reconnect_backoff = std::chrono::milliseconds(10);
    session_store store(std::make_shared<client>(io.get_executor(), options));
    agent_session s = conversation("r", 4);
    save(store, s);

    restarting.stop();
    s.history.emplace_back(chat_role::user(), "while it was down");
    try {
        save(store, s);
        FAIL() << "saved to a server that is down";
    } catch (const redis_error& e) {
        EXPECT_TRUE(e.kind() == redis_error_kind::closed || e.kind() == redis_error_kind::connect) << e.what();
    }
    EXPECT_EQ(s.version, 1u) << "a failed save leaves the version";
    restarting.start();
    const agent_session after = *run(store.load(forma::session_id("r")));
    EXPECT_EQ(after.version, 1u) << "the data survived the restart (append-only file)";
    EXPECT_EQ(after.history.size(), 4u) << "nothing partial was written";
    save(store, s);
    EXPECT_EQ(s.version, 2u);
    EXPECT_EQ(run(store.load(forma::session_id("r")))->history.back().text(), "while it was down");
}
