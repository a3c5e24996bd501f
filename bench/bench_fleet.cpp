// What running behind many servers adds to a turn, against a redis-server this binary starts:
// - a session's load + save (20 messages) through forma::redis::session_store, against the same
//   commands through hiredis's blocking client with the same JSON work (the C client forma's
//   reader comes from: what the Asio client, pipelining and coroutines cost on top); p50 and p99;
// - a streamed update appended to a served task through forma::redis::task_store, against the
//   same script by EVALSHA through hiredis's blocking client with the same JSON work;
// - the concurrency limiter's and the response cache's cost per request over a scripted model.
#include <forma/agent/agent_session.hpp>
#include <forma/chat/caching_chat_client.hpp>
#include <forma/chat/concurrency_limiter.hpp>
#include <forma/redis/session_store.hpp>
#include <forma/redis/task_store.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include "support/redis_server.hpp"

#include <benchmark/benchmark.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>
#include <hiredis/hiredis.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace asio = boost::asio;
using clock_type = std::chrono::steady_clock;

namespace {

forma_test::redis_server& server() {
    static forma_test::redis_server shared;
    return shared;
}

forma::agent_session conversation(const std::string& id, int messages) {
    forma::agent_session s{forma::session_id(id)};
    for (int i = 0; i < messages; ++i) {
        s.history.emplace_back(i % 2 ? forma::chat_role::assistant() : forma::chat_role::user(),
                               "Message " + std::to_string(i) + ": a sentence or two of an ordinary conversation, "
                               "about eighty bytes of text.");
    }
    return s;
}

// Runs `operation` to its end, turning the io_context by hand: the client's reader keeps
// io_context::run from returning.
template <class Operation>
void run_once(asio::io_context& io, Operation operation) {
    bool done = false;
    std::exception_ptr failure;
    asio::co_spawn(io, std::move(operation), [&](std::exception_ptr e) {
        failure = e;
        done = true;
    });
    if (io.stopped()) io.restart(); // a run that left no work behind stopped it
    while (!done) io.run_one();
    if (failure) std::rethrow_exception(failure);
}

void report_percentiles(benchmark::State& state, std::vector<double>& microseconds) {
    if (microseconds.empty()) return;
    std::sort(microseconds.begin(), microseconds.end());
    const auto at = [&](double p) { return microseconds[static_cast<std::size_t>(p * static_cast<double>(microseconds.size() - 1))]; };
    state.counters["p50_us"] = at(0.50);
    state.counters["p99_us"] = at(0.99);
}

void BM_store_round_forma(benchmark::State& state) {
    const int messages = static_cast<int>(state.range(0));
    asio::io_context io;
    auto redis = std::make_shared<forma::redis::client>(io.get_executor(), server().client_options());
    forma::redis::session_store store(redis, {.key_prefix = "bench:forma:"});
    forma::agent_session first = conversation("s", messages);
    run_once(io, [&]() -> asio::awaitable<void> {
        co_await redis->execute(forma::redis::command("DEL", "bench:forma:s"));
        co_await store.save(first);
    });
    std::vector<double> latencies;
    for (auto _ : state) {
        const auto start = clock_type::now();
        run_once(io, [&]() -> asio::awaitable<void> {
            std::optional<forma::agent_session> session = co_await store.load(forma::session_id("s"));
            co_await store.save(*session);
        });
        latencies.push_back(std::chrono::duration<double, std::micro>(clock_type::now() - start).count());
    }
    report_percentiles(state, latencies);
}

// The same round through hiredis's blocking client: EXISTS + HMGET pipelined, the JSON read
// into a session and written back, EVALSHA of the same compare-and-set.
void BM_store_round_hiredis(benchmark::State& state) {
    const int messages = static_cast<int>(state.range(0));
    asio::io_context io;
    auto redis = std::make_shared<forma::redis::client>(io.get_executor(), server().client_options());
    forma::redis::session_store store(redis, {.key_prefix = "bench:hiredis:"});
    forma::agent_session first = conversation("s", messages);
    run_once(io, [&]() -> asio::awaitable<void> {
        co_await redis->execute(forma::redis::command("DEL", "bench:hiredis:s"));
        co_await store.save(first);
    });
    redisContext* context = redisConnect("127.0.0.1", server().port());
    if (!context || context->err) {
        state.SkipWithError("hiredis cannot connect");
        if (context) redisFree(context);
        return;
    }
    // The same compare-and-set as forma's save script, without its checks for foreign data.
    static const char* const cas =
        "local v = redis.call('HGET', KEYS[1], 'version') "
        "if v ~= ARGV[1] then return {'conflict', v} end "
        "local saved = redis.call('HINCRBY', KEYS[1], 'version', 1) "
        "redis.call('HSET', KEYS[1], 'session', ARGV[2]) return {'saved', tostring(saved)}";
    redisReply* loaded_script = static_cast<redisReply*>(redisCommand(context, "SCRIPT LOAD %s", cas));
    if (!loaded_script || loaded_script->type != REDIS_REPLY_STRING) {
        state.SkipWithError("hiredis: SCRIPT LOAD failed");
        if (loaded_script) freeReplyObject(loaded_script);
        redisFree(context);
        return;
    }
    const std::string sha(loaded_script->str, loaded_script->len);
    freeReplyObject(loaded_script);
    std::vector<double> latencies;
    std::uint64_t version = 1;
    for (auto _ : state) {
        const auto start = clock_type::now();
        redisAppendCommand(context, "EXISTS %s", "bench:hiredis:s");
        redisAppendCommand(context, "HMGET %s version session", "bench:hiredis:s");
        redisReply* exists = nullptr;
        redisReply* fields = nullptr;
        redisGetReply(context, reinterpret_cast<void**>(&exists));
        redisGetReply(context, reinterpret_cast<void**>(&fields));
        if (!exists || !fields || fields->type != REDIS_REPLY_ARRAY || fields->elements != 2 ||
            fields->element[1]->type != REDIS_REPLY_STRING) {
            state.SkipWithError("hiredis: unexpected HMGET reply");
            break;
        }
        forma::agent_session session = boost::json::value_to<forma::agent_session>(
            boost::json::parse(std::string_view(fields->element[1]->str, fields->element[1]->len)));
        version = std::stoull(fields->element[0]->str);
        freeReplyObject(exists);
        freeReplyObject(fields);
        session.version = 0;
        const std::string json = boost::json::serialize(boost::json::value_from(session));
        const std::string loaded = std::to_string(version);
        redisReply* saved = static_cast<redisReply*>(redisCommand(context, "EVALSHA %s 1 %s %s %b", sha.c_str(),
                                                                   "bench:hiredis:s", loaded.c_str(), json.data(), json.size()));
        if (!saved || saved->type != REDIS_REPLY_ARRAY) {
            state.SkipWithError("hiredis: the save failed");
            break;
        }
        freeReplyObject(saved);
        latencies.push_back(std::chrono::duration<double, std::micro>(clock_type::now() - start).count());
    }
    redisFree(context);
    report_percentiles(state, latencies);
}

// One update of a streamed answer, as a served run appends it for each piece of text.
forma::agent_response_update streamed_piece() {
    forma::agent_response_update u(forma::chat_role::assistant(), "a few streamed words ");
    u.message_id = "chatcmpl-8f3a2c";
    u.response_id = "chatcmpl-8f3a2c";
    return u;
}

void BM_task_append_forma(benchmark::State& state) {
    asio::io_context io;
    auto redis = std::make_shared<forma::redis::client>(io.get_executor(), server().client_options());
    forma::redis::task_store store(redis, {.key_prefix = "bench:task:forma:"});
    run_once(io, [&]() -> asio::awaitable<void> {
        co_await redis->execute(forma::redis::command("DEL", "bench:task:forma:t", "bench:task:forma:t:updates"));
        forma::agent_task task{.id = "t", .context_id = "c", .state = forma::task_state::working};
        co_await store.create(std::move(task));
    });
    for (auto _ : state) {
        run_once(io, [&]() -> asio::awaitable<void> {
            std::vector<forma::agent_response_update> one{streamed_piece()};
            co_await store.append("t", std::move(one));
        });
    }
}

// The same append through hiredis's blocking client: the update serialized, then a script
// doing what forma's does (RPUSH, the times and claim, the caller's listing, HINCRBY of the
// version, PEXPIRE) by EVALSHA.
void BM_task_append_hiredis(benchmark::State& state) {
    redisContext* context = redisConnect("127.0.0.1", server().port());
    if (!context || context->err) {
        state.SkipWithError("hiredis cannot connect");
        if (context) redisFree(context);
        return;
    }
    static const char* const append =
        "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) "
        "if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end "
        "redis.call('RPUSH', KEYS[2], ARGV[3]) "
        "redis.call('HSET', KEYS[1], 'updated', now, 'lease_until', now + tonumber(ARGV[2])) "
        "local index = redis.call('HGET', KEYS[1], 'index') "
        "if index then redis.call('ZADD', index, now, KEYS[1]) redis.call('PEXPIRE', index, ARGV[1]) end "
        "local v = redis.call('HINCRBY', KEYS[1], 'version', 1) "
        "redis.call('PEXPIRE', KEYS[1], ARGV[1]) redis.call('PEXPIRE', KEYS[2], ARGV[1]) return v";
    redisReply* loaded = static_cast<redisReply*>(redisCommand(context, "SCRIPT LOAD %s", append));
    freeReplyObject(redisCommand(context, "DEL bench:task:hiredis:t bench:task:hiredis:t:updates"));
    freeReplyObject(redisCommand(context, "HSET bench:task:hiredis:t state working version 1 index bench:task:hiredis::owner:a2a/"));
    if (!loaded || loaded->type != REDIS_REPLY_STRING) {
        state.SkipWithError("hiredis: SCRIPT LOAD failed");
        if (loaded) freeReplyObject(loaded);
        redisFree(context);
        return;
    }
    const std::string sha(loaded->str, loaded->len);
    freeReplyObject(loaded);
    for (auto _ : state) {
        const std::string json = boost::json::serialize(boost::json::value_from(streamed_piece()));
        redisReply* r = static_cast<redisReply*>(redisCommand(context, "EVALSHA %s 2 %s %s %s %s %b", sha.c_str(), "bench:task:hiredis:t",
                                                               "bench:task:hiredis:t:updates", "86400000", "30000", json.data(), json.size()));
        if (!r || r->type != REDIS_REPLY_INTEGER) {
            state.SkipWithError("hiredis: the append failed");
            if (r) freeReplyObject(r);
            break;
        }
        freeReplyObject(r);
    }
    redisFree(context);
}

forma::agent_response<> answer() {
    forma::agent_response<> r(forma::chat_message(forma::chat_role::assistant(), "Paris is the capital of France."));
    r.usage = forma::usage_details{.input_token_count = 24, .output_token_count = 8};
    return r;
}

std::vector<forma::chat_message> question() {
    return {forma::chat_message(forma::chat_role::user(), "What is the capital of France?")};
}

forma::chat_options deterministic() {
    forma::chat_options o;
    o.model = "gpt-4o-mini";
    o.temperature = 0.0;
    return o;
}

// A real chat client's io_context has a reactor (its sockets'); the scripted model needs none.
// Without one, the baseline never polls it, while the limiter's timer starts it and each run
// then polls it once (an epoll_wait of no time): a system call that the baseline alone skipped.
// Each of these benchmarks' io_context gets one, as a real program's has.
struct io_with_reactor {
    asio::io_context io;
    asio::steady_timer idle{io};
};

// A request straight to the scripted model: the baseline of the two below.
void BM_request_direct(benchmark::State& state) {
    io_with_reactor context;
    asio::io_context& io = context.io;
    forma::testing::scripted_chat_client model(io.get_executor());
    for (auto _ : state) {
        model.add_response(answer());
        run_once(io, [&]() -> asio::awaitable<void> { benchmark::DoNotOptimize(co_await model.get_response(question(), deterministic())); });
        model.clear_requests();
    }
}

// The same request through a concurrency_limiter with a slot free and local buckets.
void BM_request_limited(benchmark::State& state) {
    io_with_reactor context;
    asio::io_context& io = context.io;
    forma::testing::scripted_chat_client model(io.get_executor());
    forma::concurrency_limiter limited(model, {.max_in_flight = 8, .requests_per_minute = 1e12, .tokens_per_minute = 1e15});
    for (auto _ : state) {
        model.add_response(answer());
        run_once(io, [&]() -> asio::awaitable<void> { benchmark::DoNotOptimize(co_await limited.get_response(question(), deterministic())); });
        model.clear_requests();
    }
}

// The same request answered from an in-memory cache: hash the request, read the entry.
void BM_request_cache_hit(benchmark::State& state) {
    io_with_reactor context;
    asio::io_context& io = context.io;
    forma::testing::scripted_chat_client model(io.get_executor());
    forma::caching_chat_client cached(model, std::make_shared<forma::in_memory_response_cache>());
    model.add_response(answer());
    run_once(io, [&]() -> asio::awaitable<void> { co_await cached.get_response(question(), deterministic()); });
    for (auto _ : state) {
        run_once(io, [&]() -> asio::awaitable<void> { benchmark::DoNotOptimize(co_await cached.get_response(question(), deterministic())); });
    }
    if (cached.hits() == 0) state.SkipWithError("no cache hit");
}

} // namespace

BENCHMARK(BM_store_round_forma)->Arg(20)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_store_round_hiredis)->Arg(20)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_task_append_forma)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_task_append_hiredis)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_request_direct);
BENCHMARK(BM_request_limited);
BENCHMARK(BM_request_cache_hit);

BENCHMARK_MAIN();
