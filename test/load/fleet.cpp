// The fleet test: N processes, each an agent server (HTTP on loopback) whose conversations live
// in one shared redis-server; many conversations of several turns, each turn sent to a random
// instance. Afterwards every conversation's history must be complete and in order. Then two
// turns of one conversation at once on two instances: one is refused with the conflict (409),
// and its retry goes through. Prints turns/s and the store's added latency per turn.
//
//   forma_fleet [--instances=4] [--conversations=1000] [--turns=5] [--concurrency=32]
//   forma_fleet --instance --listen=PORT --redis=PORT     (what the driver starts; PORT 0: any)
#include <forma/agent/chat_client_agent.hpp>
#include <forma/agent/stored_agent.hpp>
#include <forma/redis/session_store.hpp>

#include "support/redis_server.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using clock_type = std::chrono::steady_clock;
using std::chrono::microseconds;

namespace {

constexpr auto as_result = asio::as_tuple(asio::use_awaitable);

long option(int argc, char** argv, const std::string& name, long fallback) {
    const std::string prefix = "--" + name + "=";
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]).starts_with(prefix)) return std::stol(argv[i] + prefix.size());
    return fallback;
}

bool flag(int argc, char** argv, std::string_view name) {
    for (int i = 1; i < argc; ++i)
        if (argv[i] == std::string("--") + std::string(name)) return true;
    return false;
}

// ---- an instance -------------------------------------------------------------------------

// The model: answers at once with what it was asked; a question with "slow" takes 100 ms, so
// that two turns of one conversation overlap.
class echo_model : public forma::chat_client {
public:
    explicit echo_model(executor_type ex) : executor_(std::move(ex)) {}
    executor_type get_executor() const override { return executor_; }

protected:
    asio::awaitable<forma::agent_response<>> get_response_core(forma::chat_request request) override {
        const std::string asked = request.messages.back().text();
        if (asked.find("slow") != std::string::npos) {
            asio::steady_timer pause(executor_, std::chrono::milliseconds(100));
            co_await pause.async_wait(asio::use_awaitable);
        }
        co_return forma::agent_response<>(forma::chat_message(forma::chat_role::assistant(), "answer: " + asked));
    }
    forma::update_stream get_streaming_response_core(forma::chat_request) override {
        throw forma::error("the fleet's model does not stream");
    }

private:
    executor_type executor_;
};

// The Redis store, timing its loads and saves per session: what the store adds to a turn.
class timed_store : public forma::session_store {
public:
    explicit timed_store(std::shared_ptr<forma::session_store> inner) : inner_(std::move(inner)) {}
    executor_type get_executor() const override { return inner_->get_executor(); }
    asio::awaitable<std::optional<forma::agent_session>> load(forma::session_id id) override {
        const auto start = clock_type::now();
        auto session = co_await inner_->load(id);
        spent_[id.str()] += clock_type::now() - start;
        co_return session;
    }
    asio::awaitable<void> save(forma::agent_session& session) override {
        const auto start = clock_type::now();
        co_await inner_->save(session);
        spent_[session.id.str()] += clock_type::now() - start;
    }
    asio::awaitable<bool> erase(forma::session_id id) override { co_return co_await inner_->erase(std::move(id)); }

    /// The store's time for the turn of `id` that just ended.
    microseconds take(const std::string& id) {
        const auto found = spent_.find(id);
        if (found == spent_.end()) return microseconds(0);
        const auto spent = std::chrono::duration_cast<microseconds>(found->second);
        spent_.erase(found);
        return spent;
    }

private:
    std::shared_ptr<forma::session_store> inner_;
    std::map<std::string, clock_type::duration> spent_;
};

struct instance {
    instance(asio::io_context& io, unsigned short redis_port)
        : model(io.get_executor()), redis(std::make_shared<forma::redis::client>(io.get_executor(), redis_options(redis_port))),
          store(std::make_shared<timed_store>(std::make_shared<forma::redis::session_store>(redis))),
          conversations(std::make_shared<forma::chat_client_agent>(model), store) {}

    static forma::redis::client_options redis_options(unsigned short port) {
        forma::redis::client_options o;
        o.port = port;
        return o;
    }

    // POST /turn {"session": id, "text": question} -> 200 {"answer", "store_us"}, 409 on a conflict.
    asio::awaitable<http::response<http::string_body>> handle(const http::request<http::string_body>& request) {
        http::response<http::string_body> response{http::status::ok, request.version()};
        response.set(http::field::content_type, "application/json");
        std::string session, text;
        try {
            const auto body = boost::json::parse(request.body()).as_object();
            session = std::string(body.at("session").as_string());
            text = std::string(body.at("text").as_string());
        } catch (const std::exception& e) {
            response.result(http::status::bad_request);
            response.body() = boost::json::serialize(boost::json::object{{"error", e.what()}});
            co_return response;
        }
        std::optional<std::string> failure;
        http::status failure_status = http::status::internal_server_error;
        forma::agent_response<> answer;
        try {
            answer = co_await conversations.run(text, forma::session_id(session));
        } catch (const forma::stored_run_conflict_error& e) {
            failure = e.what();
            failure_status = http::status::conflict;
        } catch (const std::exception& e) {
            failure = e.what();
        }
        const auto spent = store->take(session);
        if (failure) {
            response.result(failure_status);
            response.body() = boost::json::serialize(boost::json::object{{"error", *failure}});
        } else {
            response.body() = boost::json::serialize(boost::json::object{{"answer", answer.text()}, {"store_us", spent.count()}});
        }
        co_return response;
    }

    asio::awaitable<void> serve(tcp::socket socket) {
        boost::beast::flat_buffer buffer;
        for (;;) {
            http::request<http::string_body> request;
            auto [read_error, n] = co_await http::async_read(socket, buffer, request, as_result);
            if (read_error) co_return;
            auto response = co_await handle(request);
            response.keep_alive(request.keep_alive());
            response.prepare_payload();
            auto [write_error, m] = co_await http::async_write(socket, response, as_result);
            if (write_error || !request.keep_alive()) co_return;
        }
    }

    echo_model model;
    std::shared_ptr<forma::redis::client> redis;
    std::shared_ptr<timed_store> store;
    forma::stored_agent conversations;
};

int run_instance(unsigned short listen_port, unsigned short redis_port) {
    asio::io_context io;
    instance self(io, redis_port);
    tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), listen_port});
    asio::co_spawn(io, [&]() -> asio::awaitable<void> {
        for (;;) {
            auto [ec, socket] = co_await acceptor.async_accept(as_result);
            if (ec) co_return;
            asio::co_spawn(io, self.serve(std::move(socket)), asio::detached);
        }
    }, asio::detached);
    std::printf("fleet instance ready on port %u\n", acceptor.local_endpoint().port());
    std::fflush(stdout);
    io.run();
    return 0;
}

// ---- the driver --------------------------------------------------------------------------

struct turn_result {
    unsigned status = 0;
    std::string body;
};

// One keep-alive connection to one instance.
class instance_connection {
public:
    instance_connection(asio::any_io_executor ex, unsigned short port) : socket_(ex), port_(port) {}

    asio::awaitable<turn_result> post(const std::string& session, const std::string& text) {
        if (!socket_.is_open()) {
            const tcp::endpoint instance(asio::ip::make_address("127.0.0.1"), port_);
            co_await socket_.async_connect(instance, asio::use_awaitable);
        }
        http::request<http::string_body> request{http::verb::post, "/turn", 11};
        request.set(http::field::host, "127.0.0.1");
        request.set(http::field::content_type, "application/json");
        request.body() = boost::json::serialize(boost::json::object{{"session", session}, {"text", text}});
        request.prepare_payload();
        co_await http::async_write(socket_, request, asio::use_awaitable);
        http::response<http::string_body> response;
        co_await http::async_read(socket_, buffer_, response, asio::use_awaitable);
        co_return turn_result{response.result_int(), std::move(response.body())};
    }

private:
    tcp::socket socket_;
    unsigned short port_;
    boost::beast::flat_buffer buffer_;
};

std::string conversation_id(long i) { return "conversation-" + std::to_string(i); }
std::string question(long conversation, long turn) {
    return "question " + std::to_string(turn) + " of conversation " + std::to_string(conversation);
}

long percentile(std::vector<long> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
    return values[std::min(index, values.size() - 1)];
}

int run_driver(const std::string& self, long instances, long conversations, long turns, long concurrency) {
    forma_test::redis_server redis;
    std::vector<std::unique_ptr<forma_test::server_process>> fleet;
    std::vector<unsigned short> ports;
    for (long i = 0; i < instances; ++i) {
        fleet.push_back(std::make_unique<forma_test::server_process>(
            self, std::vector<std::string>{"--instance", "--listen=0", "--redis=" + std::to_string(redis.port())},
            "fleet instance ready"));
        ports.push_back(forma_test::reported_port(fleet.back()->output(), "fleet instance ready on port "));
    }

    asio::io_context io;
    std::vector<long> store_us, turn_us;
    long failures = 0;
    long next_conversation = 0;
    const auto started = clock_type::now();
    for (long w = 0; w < concurrency; ++w) {
        asio::co_spawn(io, [&, w]() -> asio::awaitable<void> {
            std::vector<instance_connection> links;
            for (auto port : ports) links.emplace_back(io.get_executor(), port);
            std::minstd_rand random(static_cast<unsigned>(w) + 1);
            while (next_conversation < conversations) {
                const long c = next_conversation++;
                for (long t = 0; t < turns; ++t) {
                    const auto sent = clock_type::now();
                    auto& link = links[random() % links.size()];
                    const turn_result r = co_await link.post(conversation_id(c), question(c, t));
                    if (r.status != 200) {
                        ++failures;
                        std::fprintf(stderr, "turn %ld of conversation %ld: HTTP %u %s\n", t, c, r.status, r.body.c_str());
                        continue;
                    }
                    turn_us.push_back(std::chrono::duration_cast<microseconds>(clock_type::now() - sent).count());
                    store_us.push_back(boost::json::parse(r.body).at("store_us").as_int64());
                }
            }
        }, [&](std::exception_ptr e) {
            if (!e) return;
            ++failures;
            try {
                std::rethrow_exception(e);
            } catch (const std::exception& ex) {
                std::fprintf(stderr, "a worker failed: %s\n", ex.what());
            }
        });
    }
    io.run();
    const double seconds = std::chrono::duration<double>(clock_type::now() - started).count();

    // Every history complete and in order.
    io.restart();
    auto reader = std::make_shared<forma::redis::client>(io.get_executor(), instance::redis_options(redis.port()));
    forma::redis::session_store store(reader);
    long complete = 0;
    asio::co_spawn(io, [&]() -> asio::awaitable<void> {
        for (long c = 0; c < conversations; ++c) {
            const auto session = co_await store.load(forma::session_id(conversation_id(c)));
            bool ok = session && session->history.size() == static_cast<std::size_t>(2 * turns) &&
                      session->version == static_cast<std::uint64_t>(turns);
            for (long t = 0; ok && t < turns; ++t) {
                ok = session->history[2 * t].text() == question(c, t) &&
                     session->history[2 * t + 1].text() == "answer: " + question(c, t);
            }
            if (ok) ++complete;
            else if (complete + 5 > c) std::fprintf(stderr, "conversation %ld is not complete and in order\n", c);
        }
        reader->close();
    }, asio::detached);
    io.run();

    // Two turns of one conversation at once, on two instances: the conflict, then a clean retry.
    io.restart();
    std::string conflict_report = "not run (one instance)";
    bool conflict_ok = instances < 2;
    if (instances >= 2) {
        asio::co_spawn(io, [&]() -> asio::awaitable<void> {
            instance_connection a(io.get_executor(), ports[0]), b(io.get_executor(), ports[1]), a2(io.get_executor(), ports[0]);
            (void)co_await a.post("race", "start");
            turn_result first, second;
            int done = 0;
            asio::co_spawn(io, [&]() -> asio::awaitable<void> { first = co_await a.post("race", "slow turn via a"); ++done; }, asio::detached);
            asio::co_spawn(io, [&]() -> asio::awaitable<void> { second = co_await b.post("race", "slow turn via b"); ++done; }, asio::detached);
            asio::steady_timer pause(io.get_executor());
            while (done < 2) {
                pause.expires_after(std::chrono::milliseconds(5));
                co_await pause.async_wait(asio::use_awaitable);
            }
            const bool one_conflict = (first.status == 409) != (second.status == 409) && (first.status == 200 || second.status == 200);
            const std::string refused = first.status == 409 ? "slow turn via a" : "slow turn via b";
            const std::string reason = first.status == 409 ? first.body : second.body;
            const turn_result retry = co_await a2.post("race", refused);
            auto checker = std::make_shared<forma::redis::client>(io.get_executor(), instance::redis_options(redis.port()));
            forma::redis::session_store race_store(checker);
            const auto session = co_await race_store.load(forma::session_id("race"));
            checker->close();
            const bool history_ok = session && session->history.size() == 6 && session->history.back().text() == "answer: " + refused;
            conflict_ok = one_conflict && retry.status == 200 && history_ok;
            conflict_report = one_conflict ? "one turn refused with 409 (" + reason.substr(0, 120) + "...), its retry " +
                                                 std::to_string(retry.status) + ", history " + (history_ok ? "complete" : "WRONG")
                                           : "no conflict seen (" + std::to_string(first.status) + ", " +
                                                 std::to_string(second.status) + ")";
        }, asio::detached);
        io.run();
    }

    const long total = static_cast<long>(turn_us.size());
    std::printf("fleet: %ld instances, %ld conversations x %ld turns: %ld turns in %.2f s, %.0f turns/s\n", instances,
                conversations, turns, total, seconds, static_cast<double>(total) / seconds);
    std::printf("fleet: store per turn (load + save) p50 %ld us, p99 %ld us; whole turn p50 %ld us, p99 %ld us\n",
                percentile(store_us, 0.5), percentile(store_us, 0.99), percentile(turn_us, 0.5), percentile(turn_us, 0.99));
    std::printf("fleet: histories complete and in order: %ld of %ld; failed turns: %ld\n", complete, conversations, failures);
    std::printf("fleet: concurrent writers: %s\n", conflict_report.c_str());
    std::printf("RESULT fleet instances=%ld conversations=%ld turns=%ld turns_per_s=%.0f store_p50_us=%ld store_p99_us=%ld "
                "turn_p50_us=%ld turn_p99_us=%ld\n",
                instances, conversations, turns, static_cast<double>(total) / seconds, percentile(store_us, 0.5),
                percentile(store_us, 0.99), percentile(turn_us, 0.5), percentile(turn_us, 0.99));
    const bool ok = complete == conversations && failures == 0 && conflict_ok;
    std::printf(ok ? "fleet: all histories complete\n" : "fleet: FAILED\n");
    return ok ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    try {
        if (flag(argc, argv, "instance"))
            return run_instance(static_cast<unsigned short>(option(argc, argv, "listen", 0)),
                                static_cast<unsigned short>(option(argc, argv, "redis", 6379)));
        return run_driver("/proc/self/exe", option(argc, argv, "instances", 4), option(argc, argv, "conversations", 1000),
                          option(argc, argv, "turns", 5), option(argc, argv, "concurrency", 32));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "forma_fleet: %s\n", e.what());
        return 1;
    }
}
