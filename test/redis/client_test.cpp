// forma::redis::client against a real redis-server started for the tests: replies of every
// type, pipelines, scripts, AUTH, TLS, and the faults: a server down, killed or slow, bytes
// that are not RESP, a reply too large, cancellation.
#include <forma/redis/client.hpp>

#include "redis_test_support.hpp"
#include "support/fake_resp_server.hpp"
#include "support/scratch_directory.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <future>

#include <stdlib.h>

namespace asio = boost::asio;
using namespace forma::redis;
using forma_test::failure_of;
using forma_test::redis_test;

namespace {

// Starts `operation` and keeps the redis_error it ends with in `failure`.
void keep_failure(asio::io_context& io, asio::awaitable<reply> operation, std::optional<redis_error>& failure) {
    asio::co_spawn(io, std::move(operation), [&failure](std::exception_ptr e, reply) {
        try {
            if (e) std::rethrow_exception(e);
        } catch (const redis_error& caught) {
            failure = caught;
        }
    });
}

std::vector<std::string> texts(const reply& r) {
    std::vector<std::string> out;
    for (const reply& e : r.elements) out.push_back(e.text);
    return out;
}

} // namespace

TEST_F(redis_test, replies_of_every_type_come_back_as_sent) {
    client redis(io.get_executor(), server().client_options());
    const std::string binary("a\0b\r\nc\xff", 7);
    EXPECT_EQ(run(redis.execute(command("SET", "k", binary))).text, "OK");
    EXPECT_EQ(run(redis.execute(command("SET", "k", binary))).kind, reply_kind::status);
    const reply got = run(redis.execute(command("GET", "k")));
    EXPECT_EQ(got.kind, reply_kind::string);
    EXPECT_EQ(got.text, binary);
    EXPECT_TRUE(run(redis.execute(command("GET", "absent"))).is_nil());
    const reply n = run(redis.execute(command("INCRBY", "n", -42)));
    EXPECT_EQ(n.kind, reply_kind::integer);
    EXPECT_EQ(n.integer, -42);
    run(redis.execute(command("RPUSH", "list", "x", "", "z")));
    const reply list = run(redis.execute(command("LRANGE", "list", 0, -1)));
    ASSERT_EQ(list.kind, reply_kind::array);
    EXPECT_EQ(texts(list), (std::vector<std::string>{"x", "", "z"}));
    EXPECT_TRUE(run(redis.execute(command("LRANGE", "absent", 0, -1))).elements.empty());
}

TEST_F(redis_test, an_error_reply_is_a_server_error_and_the_connection_goes_on) {
    client redis(io.get_executor(), server().client_options());
    run(redis.execute(command("SET", "s", "text")));
    {
        const redis_error e = failure_of(io, redis.execute(command("lpush", "s", "x")), redis_error_kind::server);
        EXPECT_FALSE(e.may_have_run());
        const std::string what = e.what();
        EXPECT_NE(what.find("redis at 127.0.0.1:" + std::to_string(server().port()) + " answered LPUSH with an error: WRONGTYPE"),
                  std::string::npos)
            << what;
    }
    EXPECT_EQ(run(redis.execute(command("GET", "s"))).text, "text");
}

TEST_F(redis_test, a_pipeline_sends_many_commands_and_keeps_every_reply_in_order) {
    client redis(io.get_executor(), server().client_options());
    std::vector<command> commands;
    for (int i = 0; i < 1000; ++i) commands.emplace_back("INCR", "counter");
    commands.emplace_back("HGET", "counter", "field"); // WRONGTYPE: an error in place
    commands.emplace_back("GET", "counter");
    const std::vector<reply> replies = run(redis.execute(std::move(commands)));
    ASSERT_EQ(replies.size(), 1002u);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(replies[i].integer, i + 1) << i;
    EXPECT_TRUE(replies[1000].is_error());
    EXPECT_EQ(replies[1001].text, "1000");
    EXPECT_TRUE(run(redis.execute(std::vector<command>{})).empty());

    // The same, and a script, for completion tokens.
    std::future<std::vector<reply>> pipelined =
        redis.async_execute(std::vector<command>{command("INCR", "counter"), command("GET", "counter")}, asio::use_future);
    const script double_it("return tonumber(redis.call('GET', KEYS[1])) * 2");
    std::future<reply> doubled = redis.async_eval(double_it, {"counter"}, {}, asio::use_future);
    const auto ready = [](auto& f) { return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready; };
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    io.restart(); // the client's reader keeps the context busy: run until both are answered
    while (!(ready(pipelined) && ready(doubled)) && std::chrono::steady_clock::now() < deadline)
        io.run_one_for(std::chrono::milliseconds(100));
    ASSERT_TRUE(ready(pipelined) && ready(doubled)) << "no answer in 30 s";
    EXPECT_EQ(pipelined.get().at(1).text, "1001");
    EXPECT_EQ(doubled.get().integer, 2002);
}

TEST_F(redis_test, commands_from_concurrent_coroutines_share_the_connection_and_each_gets_its_own_reply) {
    client redis(io.get_executor(), server().client_options());
    const int writers = 200;
    std::vector<std::int64_t> seen;
    const auto one = [&](int i) -> asio::awaitable<void> {
        const reply r = co_await redis.execute(command("INCR", "shared"));
        const reply mine = co_await redis.execute(command("SET", "key:" + std::to_string(i), i, "GET"));
        EXPECT_TRUE(mine.is_nil());
        const reply back = co_await redis.execute(command("GET", "key:" + std::to_string(i)));
        EXPECT_EQ(back.text, std::to_string(i));
        seen.push_back(r.integer);
    };
    run([&]() -> asio::awaitable<bool> {
        int done = 0;
        for (int i = 0; i < writers; ++i)
            asio::co_spawn(io, one(i), [&](std::exception_ptr e) {
                EXPECT_FALSE(e);
                ++done;
            });
        while (done < writers) co_await forma_test::yield();
        co_return true;
    }());
    std::sort(seen.begin(), seen.end());
    ASSERT_EQ(seen.size(), static_cast<std::size_t>(writers));
    for (int i = 0; i < writers; ++i) EXPECT_EQ(seen[i], i + 1);
    EXPECT_EQ(connected_clients(), 1) << "pipelined on one connection";
}

TEST_F(redis_test, a_script_runs_by_its_sha_and_is_sent_whole_only_when_the_server_lacks_it) {
    client redis(io.get_executor(), server().client_options());
    const script add(R"lua(return redis.call('INCRBY', KEYS[1], ARGV[1]))lua");
    EXPECT_EQ(add.sha1().size(), 40u);
    run(redis.execute(command("SCRIPT", "FLUSH")));
    run(redis.execute(command("CONFIG", "RESETSTAT"))); // the server is shared: count this test's calls only
    EXPECT_EQ(run(redis.eval(add, {"total"}, {"5"})).integer, 5);
    EXPECT_EQ(run(redis.eval(add, {"total"}, {"6"})).integer, 11);
    const std::string stats = run(redis.execute(command("INFO", "commandstats"))).text;
    EXPECT_NE(stats.find("cmdstat_eval:calls=1,"), std::string::npos) << stats;
    EXPECT_NE(stats.find("cmdstat_evalsha:calls=2,"), std::string::npos) << stats;
    const script broken("return redis.call('NOSUCHCOMMAND')");
    {
        const redis_error e = failure_of(io, redis.eval(broken, {}, {}), redis_error_kind::server);
        EXPECT_NE(std::string(e.what()).find("answered a script (EVAL) with an error"), std::string::npos) << e.what();
    }
}

TEST_F(redis_test, a_database_other_than_0_is_selected_on_each_connection) {
    forma::redis::client_options options = server().client_options();
    options.database = 3;
    client three(io.get_executor(), options);
    client zero(io.get_executor(), server().client_options());
    run(three.execute(command("SET", "where", "three")));
    EXPECT_TRUE(run(zero.execute(command("GET", "where"))).is_nil());
    EXPECT_EQ(run(three.execute(command("GET", "where"))).text, "three");
    options.database = 99;
    client none(io.get_executor(), options);
    {
        const redis_error e = failure_of(io, none.connect(), redis_error_kind::server);
        EXPECT_NE(std::string(e.what()).find("answered SELECT 99 with an error"), std::string::npos) << e.what();
    }
}

TEST_F(redis_test, the_client_names_itself) {
    client redis(io.get_executor(), server().client_options());
    EXPECT_EQ(run(redis.execute(command("CLIENT", "GETNAME"))).text, "forma");
}

TEST(redis_client, a_server_that_is_down_is_a_connect_error_and_attempts_back_off) {
    asio::io_context io;
    forma::redis::client_options options;
    options.port = forma_test::free_port();
    options.reconnect_backoff = std::chrono::milliseconds(200);
    client redis(io.get_executor(), options);
    const auto started = std::chrono::steady_clock::now();
    for (int attempt = 0; attempt < 2; ++attempt) {
        {
            const redis_error e = failure_of(io, redis.execute(command("PING")), redis_error_kind::connect);
            EXPECT_FALSE(e.may_have_run());
            EXPECT_EQ(std::string(e.what()), "cannot connect to redis at 127.0.0.1:" + std::to_string(options.port) + ": " +
                                                 e.code().message());
        }
    }
    EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(200)) << "the second attempt waited";
}

TEST_F(redis_test, auth_with_the_right_password_works_and_a_wrong_one_is_an_auth_error_without_the_password) {
    forma_test::redis_server locked({.password = "s3cret-pass"});
    client good(io.get_executor(), locked.client_options());
    EXPECT_EQ(run(good.execute(command("PING"))).text, "PONG");

    forma::redis::client_options options = locked.client_options();
    options.password = "wrong-guess";
    client bad(io.get_executor(), options);
    {
        const redis_error e = failure_of(io, bad.connect(), redis_error_kind::auth);
        const std::string what = e.what();
        EXPECT_NE(what.find("refused AUTH for the default user"), std::string::npos) << what;
        EXPECT_EQ(what.find("wrong-guess"), std::string::npos) << "a password in a message: " << what;
    }
    options.password.clear();
    client none(io.get_executor(), options);
    {
        const redis_error e = failure_of(io, none.execute(command("GET", "x")), redis_error_kind::auth);
        EXPECT_NE(std::string(e.what()).find("NOAUTH"), std::string::npos) << e.what();
    }
}

TEST_F(redis_test, an_acl_user_authenticates_with_its_name) {
    forma_test::redis_server acl({.arguments = {"--user", "alice", "on", ">alice-pw", "~app:*", "+@all", "--user", "default", "off"}});
    forma::redis::client_options options = acl.client_options();
    options.username = "alice";
    options.password = "alice-pw";
    client alice(io.get_executor(), options);
    EXPECT_EQ(run(alice.execute(command("ACL", "WHOAMI"))).text, "alice");
    EXPECT_THROW(run(alice.execute(command("SET", "other:key", "x"))), redis_error) << "outside alice's keys";
    options.password = "nope";
    client wrong(io.get_executor(), options);
    {
        const redis_error e = failure_of(io, wrong.connect(), redis_error_kind::auth);
        EXPECT_NE(std::string(e.what()).find("refused AUTH for user \"alice\""), std::string::npos) << e.what();
    }
}

TEST_F(redis_test, tls_works_with_the_servers_certificate_trusted_and_fails_clearly_without) {
    forma_test::redis_server secure({.tls = true});
    client trusted(io.get_executor(), secure.client_options());
    EXPECT_EQ(run(trusted.execute(command("SET", "over", "tls"))).text, "OK");
    std::vector<command> many;
    for (int i = 0; i < 300; ++i) many.emplace_back("APPEND", "big", std::string(1000, 'x'));
    EXPECT_EQ(run(trusted.execute(std::move(many))).back().integer, 300000);
    EXPECT_EQ(run(trusted.execute(command("GET", "big"))).text.size(), 300000u) << "a reply over many TLS records";

    forma::redis::client_options options = secure.client_options();
    options.trust.ca_certificates.clear();
    client untrusting(io.get_executor(), options);
    {
        const redis_error e = failure_of(io, untrusting.connect(), redis_error_kind::tls);
        EXPECT_NE(std::string(e.what()).find("give its certificate as trust.ca_file or trust.ca_certificates"), std::string::npos)
            << e.what();
    }
}

TEST_F(redis_test, a_server_killed_mid_command_fails_it_as_may_have_run_and_the_next_command_reconnects) {
    forma_test::redis_server dying;
    forma::redis::client_options options = dying.client_options();
    options.reconnect_backoff = std::chrono::milliseconds(10);
    client redis(io.get_executor(), options);
    run(redis.execute(command("SET", "k", "v")));
    std::optional<redis_error> failure;
    run([&]() -> asio::awaitable<bool> {
        keep_failure(io, redis.execute(command("BLPOP", "never", 0)), failure);
        co_await forma_test::until_blocked(watcher_of(dying), 1);
        dying.kill();
        while (!failure) co_await forma_test::yield();
        co_return true;
    }());
    ASSERT_TRUE(failure) << "a command outlived its server";
    EXPECT_EQ(failure->kind(), redis_error_kind::closed) << failure->what();
    EXPECT_TRUE(failure->may_have_run());
    EXPECT_NE(std::string(failure->what()).find("BLPOP was sent and may have run"), std::string::npos) << failure->what();

    EXPECT_THROW(run(redis.execute(command("PING"))), redis_error) << "nothing listens now";
    dying.start();
    EXPECT_EQ(run(redis.execute(command("PING"))).text, "PONG") << "a new connection to the new server";
}

TEST_F(redis_test, a_late_reply_times_the_command_out_and_the_connection_is_replaced) {
    forma::redis::client_options options = server().client_options();
    options.command_timeout = std::chrono::milliseconds(100);
    client redis(io.get_executor(), options);
    run(redis.execute(command("SET", "before", "1")));
    {
        const redis_error e = failure_of(io, redis.execute(command("BLPOP", "never", 5)), redis_error_kind::timeout);
        EXPECT_TRUE(e.may_have_run());
        EXPECT_NE(std::string(e.what()).find("did not answer within 100 ms (command_timeout)"), std::string::npos) << e.what();
    }
    EXPECT_EQ(run(redis.execute(command("GET", "before"))).text, "1");
}

TEST_F(redis_test, a_cancelled_command_is_dropped_and_later_replies_stay_matched) {
    client redis(io.get_executor(), server().client_options());
    client other(io.get_executor(), server().client_options());
    run(redis.connect());
    asio::cancellation_signal cancel;
    bool aborted = false;
    run([&]() -> asio::awaitable<bool> {
        asio::co_spawn(io, redis.execute(command("BLPOP", "queue", 0)),
                       asio::bind_cancellation_slot(cancel.slot(), [&](std::exception_ptr e, reply) {
                           try {
                               if (e) std::rethrow_exception(e);
                           } catch (const boost::system::system_error& caught) {
                               aborted = caught.code() == asio::error::operation_aborted;
                           }
                       }));
        co_await forma_test::until_blocked(watcher_of(server()), 1);
        cancel.emit(asio::cancellation_type::terminal);
        while (!aborted) co_await forma_test::yield();
        co_await other.execute(command("RPUSH", "queue", "for-the-cancelled"));
        co_return true;
    }());
    EXPECT_TRUE(aborted);
    EXPECT_EQ(run(redis.execute(command("ECHO", "next"))).text, "next") << "the BLPOP reply was dropped, not given to ECHO";
    EXPECT_EQ(run(redis.execute(command("LLEN", "queue"))).integer, 0) << "the BLPOP ran: it was sent before the cancel";

    // Cancelled while queued behind a blocked command: never sent.
    asio::cancellation_signal cancel_queued;
    run([&]() -> asio::awaitable<bool> {
        bool first_done = false, second_aborted = false;
        asio::co_spawn(io, redis.execute(command("BLPOP", "queue", 0)), [&](std::exception_ptr, reply) { first_done = true; });
        asio::co_spawn(io, redis.execute(command("RPUSH", "never-sent", "x")),
                       asio::bind_cancellation_slot(cancel_queued.slot(),
                                                    [&](std::exception_ptr e, reply) { second_aborted = e != nullptr; }));
        co_await forma_test::yield();
        cancel_queued.emit(asio::cancellation_type::terminal);
        co_await other.execute(command("RPUSH", "queue", "wake"));
        while (!first_done || !second_aborted) co_await forma_test::yield();
        co_return true;
    }());
    // The RPUSH was written with the BLPOP (one write) unless the cancel came first: either way
    // the connection stays in step, which the next reply shows.
    EXPECT_EQ(run(redis.execute(command("ECHO", "in-step"))).text, "in-step");
}

TEST_F(redis_test, close_fails_waiting_commands_and_refuses_later_ones) {
    client redis(io.get_executor(), server().client_options());
    run(redis.connect());
    std::optional<redis_error> failure;
    run([&]() -> asio::awaitable<bool> {
        keep_failure(io, redis.execute(command("BLPOP", "never", 0)), failure);
        co_await forma_test::yield();
        redis.close();
        while (!failure) co_await forma_test::yield();
        co_return true;
    }());
    EXPECT_EQ(failure->kind(), redis_error_kind::closed);
    {
        const redis_error e = failure_of(io, redis.execute(command("PING")), redis_error_kind::closed);
        EXPECT_NE(std::string(e.what()).find("the client is closed"), std::string::npos);
    }
}

TEST_F(redis_test, a_reply_past_max_reply_bytes_closes_the_connection_with_a_typed_error) {
    client writer(io.get_executor(), server().client_options());
    run(writer.execute(command("SET", "large", std::string(100000, 'L'))));
    forma::redis::client_options options = server().client_options();
    options.max_reply_bytes = 10000;
    client reader(io.get_executor(), options);
    {
        const redis_error e = failure_of(io, reader.execute(command("GET", "large")), redis_error_kind::reply_too_large);
        EXPECT_NE(std::string(e.what()).find("larger than 10000 bytes (max_reply_bytes)"), std::string::npos) << e.what();
    }
    EXPECT_EQ(run(reader.execute(command("STRLEN", "large"))).integer, 100000) << "a new connection";
}

TEST(redis_client, bytes_that_are_not_resp_are_a_protocol_error) {
    asio::io_context io;
    forma_test::fake_resp_server http(io, "HTTP/1.1 400 Bad Request\r\n\r\n");
    forma::redis::client_options options;
    options.port = http.port();
    client redis(io.get_executor(), options);
    {
        const redis_error e = failure_of(io, redis.execute(command("PING")), redis_error_kind::protocol);
        EXPECT_NE(std::string(e.what()).find("sent bytes that are not RESP"), std::string::npos) << e.what();
    }
}

TEST(redis_client, a_server_that_never_answers_the_greeting_is_a_connect_timeout) {
    asio::io_context io;
    forma_test::fake_resp_server silent(io, "");
    forma::redis::client_options options;
    options.port = silent.port();
    options.connect_timeout = std::chrono::milliseconds(150);
    client redis(io.get_executor(), options);
    {
        const redis_error e = failure_of(io, redis.connect(), redis_error_kind::timeout);
        EXPECT_EQ(std::string(e.what()), "connecting to redis at 127.0.0.1:" + std::to_string(options.port) +
                                             " took longer than 150 ms (connect_timeout)");
    }
}

TEST(redis_client_options, a_url_gives_host_port_credentials_database_and_tls) {
    const auto o = forma::redis::client_options::from_url("rediss://al%40ice:p%3Ass@cache.example:6380/2");
    EXPECT_TRUE(o.tls);
    EXPECT_EQ(o.host, "cache.example");
    EXPECT_EQ(o.port, 6380);
    EXPECT_EQ(o.username, "al@ice");
    EXPECT_EQ(o.password, "p:ss");
    EXPECT_EQ(o.database, 2);
    const auto plain = forma::redis::client_options::from_url("redis://secret@[::1]");
    EXPECT_FALSE(plain.tls);
    EXPECT_EQ(plain.host, "::1");
    EXPECT_EQ(plain.port, 6379);
    EXPECT_EQ(plain.password, "secret");
    EXPECT_TRUE(plain.username.empty());
    for (const char* bad : {"http://host", "redis://", "redis://host:99999", "redis://host/x", "redis://u:p%zz@host",
                            "redis://host?db=1"}) {
        try {
            (void)forma::redis::client_options::from_url(bad);
            ADD_FAILURE() << bad << " was taken";
        } catch (const forma::error& e) {
            EXPECT_NE(std::string(e.what()).find("invalid Redis URL"), std::string::npos) << e.what();
        }
    }
    try {
        (void)forma::redis::client_options::from_url("redis://user:hunter2@host:0");
        FAIL();
    } catch (const forma::error& e) {
        EXPECT_EQ(std::string(e.what()).find("hunter2"), std::string::npos) << "a password in a message: " << e.what();
    }
}

// A server that echoes the password in its error reply: no part of it reaches the error.
TEST(redis_client, an_error_reply_echoing_the_password_keeps_no_part_of_it) {
    const std::string password = "pw-0123456789abcdef-zyxwvut";
    asio::io_context io;
    forma_test::fake_resp_server echoing(io, "-WRONGPASS invalid username-password pair: " + password + "\r\n");
    forma::redis::client_options options;
    options.port = echoing.port();
    options.client_name.clear(); // AUTH is the one command before any other
    options.password = password;
    client redis(io.get_executor(), options);
    const redis_error e = failure_of(io, redis.connect(), redis_error_kind::auth);
    const std::string what = e.what();
    EXPECT_NE(what.find("[redacted]"), std::string::npos) << what;
    for (std::size_t at = 0; at + 8 <= password.size(); ++at)
        EXPECT_EQ(what.find(password.substr(at, 8)), std::string::npos) << what;
}

// A reply's memory grows with what arrives, never with what is announced.
TEST(redis_client, an_announced_count_that_could_never_fit_fails_at_once) {
    asio::io_context io;
    forma_test::fake_resp_server huge(io, "*4000000\r\n"); // and then silence
    forma::redis::client_options options;
    options.port = huge.port();
    options.client_name.clear(); // the command is the first one sent
    options.max_reply_bytes = 1024 * 1024;
    client redis(io.get_executor(), options);
    const redis_error e = failure_of(io, redis.execute(command("LRANGE", "l", 0, -1)), redis_error_kind::reply_too_large);
    EXPECT_NE(std::string(e.what()).find("larger than 1048576 bytes (max_reply_bytes), or announced one"),
              std::string::npos)
        << e.what();
}

TEST(redis_client, elements_past_the_limit_fail_as_they_arrive) {
    asio::io_context io;
    // 100,000 tiny elements: 400 KB on the wire, far more as values.
    forma_test::fake_resp_server many(io, "*100000\r\n", ":1\r\n", 4 * 100000);
    forma::redis::client_options options;
    options.port = many.port();
    options.client_name.clear(); // the command is the first one sent
    options.max_reply_bytes = 256 * 1024;
    client redis(io.get_executor(), options);
    (void)failure_of(io, redis.execute(command("LRANGE", "l", 0, -1)), redis_error_kind::reply_too_large);
}

TEST(redis_client, a_bulk_string_past_the_limit_fails_before_it_has_all_arrived) {
    asio::io_context io;
    forma_test::fake_resp_server large(io, "$2000000\r\n", std::string(64 * 1024, 'x'), 2000000);
    forma::redis::client_options options;
    options.port = large.port();
    options.client_name.clear(); // the command is the first one sent
    options.max_reply_bytes = 1024 * 1024;
    client redis(io.get_executor(), options);
    (void)failure_of(io, redis.execute(command("GET", "k")), redis_error_kind::reply_too_large);
}

TEST(redis_client, arrays_nested_deeper_than_the_reader_follows_are_a_protocol_error) {
    asio::io_context io;
    std::string nested;
    for (int depth = 0; depth < 12; ++depth) nested += "*1\r\n";
    forma_test::fake_resp_server deep(io, nested + ":1\r\n");
    forma::redis::client_options options;
    options.port = deep.port();
    options.client_name.clear(); // the command is the first one sent
    client redis(io.get_executor(), options);
    (void)failure_of(io, redis.execute(command("GET", "k")), redis_error_kind::protocol);
}

// The test servers' start on a free port (test/support/server_process.hpp): what redis-server
// says when its port was taken is what on_a_free_port starts another one on.
TEST(test_redis_server, a_taken_port_is_an_error_that_says_so_and_another_port_is_tried) {
    asio::io_context io;
    asio::ip::tcp::acceptor taken(io, {asio::ip::make_address("127.0.0.1"), 0});
    const std::string port = std::to_string(taken.local_endpoint().port());
    try {
        forma_test::server_process redis(FORMA_REDIS_SERVER, {"--bind", "127.0.0.1", "--port", port, "--save", ""},
                                         "Ready to accept connections");
        FAIL() << "redis-server started on a port that was taken";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("already in use"), std::string::npos) << e.what();
    }
    int starts = 0;
    forma_test::on_a_free_port([&](unsigned short) {
        if (++starts < 3) throw std::runtime_error("redis-server did not start: bind: Address already in use");
    });
    EXPECT_EQ(starts, 3);
    starts = 0;
    EXPECT_THROW(forma_test::on_a_free_port([&](unsigned short) {
                     ++starts;
                     throw std::runtime_error("another failure");
                 }),
                 std::runtime_error);
    EXPECT_EQ(starts, 1); // only a taken port is worth another try
    EXPECT_EQ(forma_test::reported_port("ready, listening on port 4123\n", "listening on port "), 4123);
}

// A server that does not start leaves no directory behind: its scratch directory is a member
// that goes with the half-made server, where a destructor that never ran would have removed it.
TEST(test_redis_server, a_server_that_does_not_start_leaves_no_directory) {
    const forma_test::scratch_directory temporary{"forma-tmp"};
    const char* const saved = std::getenv("TMPDIR");
    const std::string saved_value = saved ? saved : "";
    ::setenv("TMPDIR", temporary.path().c_str(), 1);
    EXPECT_THROW(forma_test::redis_server({.arguments = {"--no-such-directive", "yes"}}), std::runtime_error);
    EXPECT_NO_THROW(forma_test::redis_server{}); // and one that starts is made there, and removed
    if (saved) ::setenv("TMPDIR", saved_value.c_str(), 1);
    else ::unsetenv("TMPDIR");
    EXPECT_TRUE(std::filesystem::is_empty(temporary.path()));
}
