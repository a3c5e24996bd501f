// The soak: sequential streaming runs (100,000 by default) through one chat_client_agent
// over one reused TLS connection to the local model server in a child process.
//
// Every run's text (or typed result, one run in four) must be exactly its answer. At the
// start (after a warm-up), at every tenth of the runs and at the end it reports the heap in
// use, the RSS and the server's count of accepted connections, which must stay 1. Fails
// (exit 1) on a wrong answer, a second connection, or heap growth over the limit.
//
//   forma_soak_runs [--runs=N] [--max-heap-growth-kib=K] [--max-rss-growth-kib=K]
//
// The last line is "RESULT soak key=value ...", read by tools/load-report.
#include "forked_server.hpp"
#include "load_plan.hpp"
#include "process_memory.hpp"

#include <forma/agent/chat_client_agent.hpp>
#include <forma/openai/chat_client.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;
constexpr std::string_view program = "soak";
constexpr std::string_view stats_prompt = "soak stats";

struct settings {
    int runs = 100'000;
    int warmup_runs = 500;
    std::size_t max_heap_growth = 64 * 1024;
    // RSS also moves with fragmentation; under ASan the quarantine of freed blocks fills it.
    std::size_t max_rss_growth_kib = load::under_asan ? 0 : 4096;
};

settings parse_settings(int argc, char** argv) {
    settings s;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto value = [&](std::string_view name) -> const char* {
            return arg.starts_with(name) ? argv[i] + name.size() : nullptr;
        };
        if (const char* v = value("--runs="))
            s.runs = std::atoi(v);
        else if (const char* v = value("--max-heap-growth-kib="))
            s.max_heap_growth = static_cast<std::size_t>(std::atol(v)) * 1024;
        else if (const char* v = value("--max-rss-growth-kib="))
            s.max_rss_growth_kib = static_cast<std::size_t>(std::atol(v));
        else {
            std::fprintf(stderr, "unknown argument: %s\n", argv[i]);
            std::exit(2);
        }
    }
    if (s.runs < 10) {
        std::fprintf(stderr, "--runs must be at least 10\n");
        std::exit(2);
    }
    return s;
}

load::run_plan soak_plan_for(int id) noexcept {
    return {.id = id, .kind = load::fault::none, .typed = id % 4 == 1, .rate_limited_once = false};
}

// "" when run `id` streamed exactly its answer, else what went wrong.
asio::awaitable<std::string> one_run(forma::agent& agent, int id) {
    const load::run_plan plan = soak_plan_for(id);
    std::string text;
    std::optional<load::load_answer> result;
    std::exception_ptr failure;
    try {
        if (plan.typed) {
            auto stream = agent.run_streaming<load::load_answer>(load::prompt_for(program, id));
            while (auto event = co_await stream.next())
                if (event->is_final())
                    result = event->result();
                else
                    text += event->update().text();
        } else {
            auto stream = agent.run_streaming(load::prompt_for(program, id));
            while (auto update = co_await stream.next())
                text += update->text();
        }
    } catch (...) {
        failure = std::current_exception();
    }
    co_return load::check_outcome(plan, failure, text, result);
}

struct server_stats {
    unsigned long accepted = 0;
    unsigned long requests = 0; // since the previous stats request
};

// Asked over the same client, so over the same connection as the runs.
asio::awaitable<server_stats> ask_stats(forma::agent& agent) {
    std::string text;
    auto stream = agent.run_streaming(std::string(stats_prompt));
    while (auto update = co_await stream.next())
        text += update->text();
    server_stats stats;
    if (std::sscanf(text.c_str(), "accepted=%lu requests=%lu", &stats.accepted, &stats.requests) !=
        2)
        throw std::runtime_error("unexpected stats answer: " + text);
    co_return stats;
}

struct checkpoint {
    int runs = 0;
    std::size_t heap = 0;
    std::size_t rss_kib = 0;
    server_stats server;
};

struct soak_figures {
    checkpoint start, end;
    double wall_s = 0;
    std::string failure;
};

asio::awaitable<soak_figures> soak(forma::agent& agent, const settings& s) {
    soak_figures figures;
    auto fail = [&](std::string why) {
        figures.failure = std::move(why);
        return figures;
    };
    for (int i = 0; i < s.warmup_runs; ++i)
        if (std::string wrong = co_await one_run(agent, 1'000'000 + i); !wrong.empty())
            co_return fail("warm-up run " + std::to_string(1'000'000 + i) + ": " + wrong);

    auto measure = [&](int runs, server_stats stats) {
        checkpoint c{
            .runs = runs, .heap = load::heap_in_use(), .rss_kib = load::rss_kib(), .server = stats};
        std::printf("soak: after %6d runs: heap in use %8.1f KiB (%+lld bytes), RSS %zu KiB, "
                    "connections accepted %lu, "
                    "requests since the last report %lu\n",
                    runs, static_cast<double>(c.heap) / 1024.0,
                    runs == 0 ? 0LL
                              : static_cast<long long>(c.heap) -
                                    static_cast<long long>(figures.start.heap),
                    c.rss_kib, stats.accepted, stats.requests);
        std::fflush(stdout);
        return c;
    };
    figures.start = measure(0, co_await ask_stats(agent));
    const auto started = clock_type::now();
    const int step = std::max(1, s.runs / 10);
    for (int i = 0; i < s.runs; ++i) {
        if (std::string wrong = co_await one_run(agent, i); !wrong.empty())
            co_return fail("run " + std::to_string(i) + ": " + wrong);
        if ((i + 1) % step != 0 && i + 1 != s.runs) continue;
        const checkpoint c = measure(i + 1, co_await ask_stats(agent));
        if (c.server.accepted != 1)
            co_return fail("the server accepted " + std::to_string(c.server.accepted) +
                           " connections: the connection was not reused");
        figures.end = c;
    }
    figures.wall_s = std::chrono::duration<double>(clock_type::now() - started).count();
    co_return figures;
}

} // namespace

int main(int argc, char** argv) {
    const settings s = parse_settings(argc, argv);
    // Printed first also so that stdout's buffer (4 KiB) is allocated before the start's measure.
    std::printf("soak: %d sequential runs over one connection, after %d warm-up runs\n", s.runs,
                s.warmup_runs);
    std::fflush(stdout);
    load::forked_server server(
        {},
        [](forma::testing::model_server& model) {
            model.set_handler([&model](const forma::testing::received_request& request)
                                  -> std::optional<forma::testing::scripted_reply> {
                const std::string prompt = load::last_user_message(request.body);
                if (prompt == stats_prompt) {
                    const std::size_t requests = model.requests().size() - 1; // not this one
                    model.clear_requests(); // 100,000 recorded requests would only fill the
                                            // server's memory
                    return forma::testing::scripted_reply::stream(
                        "accepted=" + std::to_string(model.connections_accepted()) +
                        " requests=" + std::to_string(requests));
                }
                const auto id = load::run_id_in(prompt, program);
                if (!id) return std::nullopt;
                return load::reply_for(soak_plan_for(*id), 0, 0ms);
            });
        },
        1024);

    asio::io_context io(1);
    forma::openai::client_options options{.base_url = server.base_url(),
                                          .model = "forma-local",
                                          .trust = {.ca_certificates = server.certificate_pem()}};
    options.max_idle_connections = 1;
    options.timeouts.idle = 10s;
    forma::openai::chat_client client(io.get_executor(), options);
    forma::chat_client_agent agent(client, {.name = "soak"});

    std::optional<soak_figures> figures;
    std::string crashed;
    asio::co_spawn(io, soak(agent, s), [&](std::exception_ptr e, soak_figures f) {
        if (e) {
            try {
                std::rethrow_exception(e);
            } catch (const std::exception& error) {
                crashed = error.what();
            }
        }
        figures = std::move(f);
    });
    io.run();
    if (!crashed.empty() || !figures->failure.empty()) {
        std::fprintf(stderr, "FAIL: %s\n",
                     crashed.empty() ? figures->failure.c_str() : crashed.c_str());
        return 1;
    }
    const soak_figures& f = *figures;
    const long long heap_change =
        static_cast<long long>(f.end.heap) - static_cast<long long>(f.start.heap);
    const long long rss_change =
        static_cast<long long>(f.end.rss_kib) - static_cast<long long>(f.start.rss_kib);
    std::printf(
        "RESULT soak runs=%d wall_s=%.2f runs_per_s=%.0f connections=%lu heap_start_kib=%.1f "
        "heap_end_kib=%.1f heap_change_bytes=%lld rss_start_kib=%zu rss_end_kib=%zu "
        "rss_peak_kib=%zu asan=%d\n",
        s.runs, f.wall_s, s.runs / f.wall_s, f.end.server.accepted,
        static_cast<double>(f.start.heap) / 1024.0, static_cast<double>(f.end.heap) / 1024.0,
        heap_change, f.start.rss_kib, f.end.rss_kib, load::peak_rss_kib(),
        load::under_asan ? 1 : 0);
    bool ok = true;
    if (heap_change > static_cast<long long>(s.max_heap_growth)) {
        std::fprintf(stderr, "FAIL: the heap in use grew by %lld bytes over %d runs (limit %zu)\n",
                     heap_change, s.runs, s.max_heap_growth);
        ok = false;
    }
    if (s.max_rss_growth_kib && rss_change > static_cast<long long>(s.max_rss_growth_kib)) {
        std::fprintf(stderr, "FAIL: RSS grew by %lld KiB over %d runs (limit %zu KiB)\n",
                     rss_change, s.runs, s.max_rss_growth_kib);
        ok = false;
    }
    if (ok) std::printf("soak: stable: %d runs over one connection\n", s.runs);
    return ok ? 0 : 1;
}
