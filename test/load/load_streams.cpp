// The load test: 2,000 concurrent streaming runs through chat_client_agent over one
// openai::chat_client on one io_context thread, against the local model server in a child
// process over TLS on loopback. A tenth of the runs are faulted (load_plan.hpp).
//
// Fails (exit 1) when a healthy run's text or typed result is not exactly its answer, a
// faulted run does not end with its typed error, a run has not ended by the deadline (the
// unfinished runs are listed), work is left on the io_context after the runs, or the heap in
// use after the runs (clients destroyed, connections closed) exceeds the baseline measured
// after a warm-up round by more than the tolerance.
//
//   forma_load_streams [--runs=N] [--rounds=R] [--deadline-s=S] [--chunk-delay-ms=MS]
//                      [--heap-tolerance-kib=K]
//
// FORMA_LOAD_RUNS in the environment sets the default of --runs. The last line is
// "RESULT load key=value ...", read by tools/load-report.
#include "forked_server.hpp"
#include "load_plan.hpp"
#include "process_memory.hpp"

#include <forma/agent/chat_client_agent.hpp>
#include <forma/openai/chat_client.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;
constexpr std::string_view program = "load";

struct settings {
    int runs = 2000;
    int warmup_runs = 80; // every fault kind several times, plain and typed
    int rounds = 1;       // more show whether a round's growth is a one-time high-water mark
    std::chrono::milliseconds chunk_delay{20};
    std::chrono::seconds deadline{load::under_asan ? 300 : 60};
    // A leak of 64 bytes per run over 2,000 runs exceeds it; allocator and OpenSSL caches do not.
    std::size_t heap_tolerance = 128 * 1024;
};

settings parse_settings(int argc, char** argv) {
    settings s;
    if (const char* runs = std::getenv("FORMA_LOAD_RUNS")) s.runs = std::atoi(runs);
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto value = [&](std::string_view name) -> const char* {
            return arg.starts_with(name) ? argv[i] + name.size() : nullptr;
        };
        if (const char* v = value("--runs="))
            s.runs = std::atoi(v);
        else if (const char* v = value("--deadline-s="))
            s.deadline = std::chrono::seconds(std::atoi(v));
        else if (const char* v = value("--chunk-delay-ms="))
            s.chunk_delay = std::chrono::milliseconds(std::atoi(v));
        else if (const char* v = value("--rounds="))
            s.rounds = std::max(1, std::atoi(v));
        else if (const char* v = value("--heap-tolerance-kib="))
            s.heap_tolerance = static_cast<std::size_t>(std::atol(v)) * 1024;
        else {
            std::fprintf(stderr, "unknown argument: %s\n", argv[i]);
            std::exit(2);
        }
    }
    if (s.runs < 1) {
        std::fprintf(stderr, "--runs must be positive\n");
        std::exit(2);
    }
    return s;
}

forma::openai::client_options client_options_for(const load::forked_server& server,
                                                 std::chrono::milliseconds idle) {
    forma::openai::client_options options{.base_url = server.base_url(),
                                          .model = "forma-local",
                                          .trust = {.ca_certificates = server.certificate_pem()}};
    options.retry.max_retries = 1;
    options.retry.initial_backoff = 5ms;
    options.retry.max_backoff = 20ms;
    // Thousands of handshakes queue on one thread at either end: generous connect and total limits.
    options.timeouts.connect = 60s;
    options.timeouts.total = 120s;
    options.timeouts.idle = idle;
    return options;
}

struct run_state {
    load::run_plan plan;
    std::string text;
    std::size_t updates = 0;
    bool finished = false;
    std::string verdict; // "" when the run ended as planned
};

// Streams between their first update and their end.
struct live_streams {
    std::size_t open = 0;
    std::size_t peak = 0;
    void begin() { peak = std::max(peak, ++open); }
    void end() { --open; }
};

asio::awaitable<void> drive(forma::agent& agent, run_state& run, live_streams& live) {
    std::exception_ptr failure;
    std::optional<load::load_answer> result;
    bool began = false;
    auto on_update = [&](const forma::agent_response_update& update) {
        if (!began) live.begin();
        began = true;
        ++run.updates;
        run.text += update.text();
    };
    try {
        const std::string prompt = load::prompt_for(program, run.plan.id);
        if (run.plan.typed) {
            auto stream = agent.run_streaming<load::load_answer>(prompt);
            while (auto event = co_await stream.next()) {
                if (event->is_final())
                    result = event->result();
                else
                    on_update(event->update());
            }
        } else {
            auto stream = agent.run_streaming(prompt);
            while (auto update = co_await stream.next())
                on_update(*update);
        }
    } catch (...) {
        failure = std::current_exception();
    }
    if (began) live.end();
    run.verdict = load::check_outcome(run.plan, failure, run.text, result);
    run.finished = true;
}

struct round_figures {
    int runs = 0;
    int faulted = 0;
    int rate_limited_once = 0;
    double wall_s = 0;
    std::size_t peak_heap = 0;
    std::size_t peak_open = 0;
    std::vector<std::string> failures;
};

std::string describe_unfinished(const run_state& run) {
    return "run " + std::to_string(run.plan.id) + " (" + std::string(load::name_of(run.plan.kind)) +
           (run.plan.typed ? ", typed" : "") + "): " +
           (run.updates == 0 ? std::string("no update yet")
                             : std::to_string(run.updates) + " updates so far");
}

[[noreturn]] void fail_hung(const std::vector<run_state>& runs, const std::string& why) {
    std::size_t unfinished = 0;
    for (const auto& run : runs)
        unfinished += !run.finished;
    std::fprintf(stderr, "FAIL: %s; %zu of %zu runs unfinished:\n", why.c_str(), unfinished,
                 runs.size());
    std::size_t listed = 0;
    for (const auto& run : runs)
        if (!run.finished && listed++ < 50)
            std::fprintf(stderr, "  %s\n", describe_unfinished(run).c_str());
    if (listed > 50) std::fprintf(stderr, "  ... and %zu more\n", listed - 50);
    std::fflush(stderr);
    _exit(1); // the pending coroutines refer to this frame: no unwinding past them
}

/// Runs ids [first_id, first_id + count) at once; returns after both clients are destroyed.
round_figures run_round(asio::io_context& io, const load::forked_server& server, int first_id,
                        int count, const settings& s) {
    round_figures figures;
    figures.runs = count;
    std::vector<run_state> runs(static_cast<std::size_t>(count));
    {
        forma::openai::chat_client patient(io.get_executor(), client_options_for(server, 30s));
        // Only the stalled runs use it: a 1 s idle timeout would be too tight for healthy runs
        // queued behind thousands of handshakes on a loaded machine.
        forma::openai::chat_client impatient(io.get_executor(), client_options_for(server, 1s));
        forma::chat_client_agent patient_agent(patient, {.name = "load"});
        forma::chat_client_agent impatient_agent(impatient, {.name = "load-impatient"});
        live_streams live;
        int finished = 0;
        clock_type::time_point all_finished{};
        asio::steady_timer sampler(io);
        const auto started = clock_type::now();

        std::function<void()> sample = [&] {
            figures.peak_heap = std::max(figures.peak_heap, load::heap_in_use());
            sampler.expires_after(2ms);
            // Checks `finished`: an expiry queued before cancel() still succeeds.
            sampler.async_wait([&](boost::system::error_code ec) {
                if (!ec && finished < count) sample();
            });
        };
        sample();
        for (int i = 0; i < count; ++i) {
            run_state& run = runs[static_cast<std::size_t>(i)];
            run.plan = load::load_plan_for(first_id + i);
            figures.faulted += run.plan.kind != load::fault::none;
            figures.rate_limited_once += run.plan.rate_limited_once;
            forma::agent& agent =
                run.plan.kind == load::fault::stalled ? impatient_agent : patient_agent;
            asio::co_spawn(io, drive(agent, run, live), [&](std::exception_ptr e) {
                if (e) run.verdict = "the run's coroutine failed outside its stream";
                if (++finished < count) return;
                all_finished = clock_type::now();
                figures.wall_s = std::chrono::duration<double>(all_finished - started).count();
                sampler.cancel();
            });
        }
        // In slices until no work is left: a deadline timer would itself keep the loop alive.
        io.restart();
        while (!io.stopped()) {
            io.run_for(50ms);
            const auto now = clock_type::now();
            if (finished < count && now - started > s.deadline)
                fail_hung(runs, "the runs did not end within " +
                                    std::to_string(s.deadline.count()) + " s");
            if (finished == count && now - all_finished > 10s)
                fail_hung(
                    runs,
                    "every run ended, but work was still pending on the io_context 10 s later");
        }
        figures.peak_open = live.peak;
    }
    // The clients' destruction closes their idle connections; let whatever that started finish.
    io.restart();
    const auto closing = clock_type::now();
    io.run_for(10s);
    if (clock_type::now() - closing >= 10s)
        fail_hung(runs, "work was still pending 10 s after the clients were destroyed");
    for (const auto& run : runs)
        if (!run.verdict.empty())
            figures.failures.push_back("run " + std::to_string(run.plan.id) + " (" +
                                       std::string(load::name_of(run.plan.kind)) +
                                       (run.plan.typed ? ", typed" : "") + "): " + run.verdict);
    return figures;
}

bool report_failures(const char* round, const round_figures& figures) {
    if (figures.failures.empty()) return true;
    std::fprintf(stderr, "FAIL: %zu runs of the %s round did not end as planned:\n",
                 figures.failures.size(), round);
    for (std::size_t i = 0; i < figures.failures.size() && i < 50; ++i)
        std::fprintf(stderr, "  %s\n", figures.failures[i].c_str());
    return false;
}

double kib(std::size_t bytes) {
    return static_cast<double>(bytes) / 1024.0;
}

} // namespace

int main(int argc, char** argv) {
    const settings s = parse_settings(argc, argv);
    // Each process holds one descriptor per connection, and a few more.
    const rlim_t needed = static_cast<rlim_t>(s.runs) + 256;
    const rlim_t files = load::raise_file_limit(needed);
    if (files < needed) {
        std::fprintf(stderr,
                     "FAIL: %d concurrent runs need %lu open files per process, but the limit is "
                     "%lu and cannot be "
                     "raised further (ulimit -Hn); raise the hard limit or pass a smaller --runs\n",
                     s.runs, static_cast<unsigned long>(needed), static_cast<unsigned long>(files));
        return 1;
    }

    const auto chunk_delay = s.chunk_delay;
    load::forked_server server(
        {.delta_size = 16},
        [chunk_delay](forma::testing::model_server& model) {
            // Attempts so far per run, to answer a retry differently (the handler runs on the
            // server's one thread).
            auto attempts = std::make_shared<std::unordered_map<int, int>>();
            model.set_handler([attempts,
                               chunk_delay](const forma::testing::received_request& request)
                                  -> std::optional<forma::testing::scripted_reply> {
                const auto id = load::run_id_in(load::last_user_message(request.body), program);
                if (!id) return std::nullopt;
                return load::reply_for(load::load_plan_for(*id), (*attempts)[*id]++, chunk_delay);
            });
        },
        needed);

    asio::io_context io(1);
    const round_figures warmup = run_round(io, server, 100'000'000, s.warmup_runs, s);
    if (!report_failures("warm-up", warmup)) return 1;
    // Asio's reactor keeps the state of every closed socket for reuse, as many as were ever open at
    // once (about 200 bytes each, freed with the io_context): open as many as the round will, so
    // that this pool is in the baseline rather than counted as growth.
    {
        std::vector<asio::ip::tcp::socket> sockets;
        sockets.reserve(static_cast<std::size_t>(s.runs));
        for (int i = 0; i < s.runs; ++i)
            sockets.emplace_back(io).open(asio::ip::tcp::v4());
    }
    load::trim_heap();
    const std::size_t baseline_heap = load::heap_in_use();
    const std::size_t baseline_rss = load::rss_kib();

    // Each round has ids of its own (offsets that keep the plan's pattern), so that the
    // server's count of attempts starts afresh; the figures are the first round's.
    const round_figures round = run_round(io, server, 0, s.runs, s);
    std::size_t after_previous = load::heap_in_use();
    long long last_round_change =
        static_cast<long long>(after_previous) - static_cast<long long>(baseline_heap);
    bool ok = report_failures("load", round);
    for (int r = 2; r <= s.rounds; ++r) {
        const round_figures again = run_round(io, server, (r - 1) * 1'000'000, s.runs, s);
        ok = report_failures("load", again) && ok;
        const std::size_t now = load::heap_in_use();
        last_round_change = static_cast<long long>(now) - static_cast<long long>(after_previous);
        std::printf("load: round %d of %d runs in %.2f s: heap in use %+lld bytes over the round\n",
                    r, s.runs, again.wall_s, last_round_change);
        after_previous = now;
    }
    const std::size_t after_heap = load::heap_in_use();
    const std::size_t peak_rss = load::peak_rss_kib();
    const std::size_t after_rss_untrimmed = load::rss_kib();
    load::trim_heap();
    const std::size_t after_rss = load::rss_kib();

    const double per_stream_kib = round.peak_open ? kib(round.peak_heap - baseline_heap) /
                                                        static_cast<double>(round.peak_open)
                                                  : 0.0;
    const long long heap_change =
        static_cast<long long>(after_heap) - static_cast<long long>(baseline_heap);
    std::printf("load: %d runs (%d faulted, %d rate limited once then answered) in %.2f s on one "
                "thread%s\n",
                round.runs, round.faulted, round.rate_limited_once, round.wall_s,
                load::under_asan ? " (ASan)" : "");
    std::printf("load: at most %zu streams open at once; heap in use %.0f KiB at baseline, %.0f "
                "KiB at peak "
                "(%.1f KiB per open stream), %.0f KiB after (%+lld bytes)\n",
                round.peak_open, kib(baseline_heap), kib(round.peak_heap), per_stream_kib,
                kib(after_heap), heap_change);
    std::printf("load: RSS %zu KiB at baseline, %zu KiB at peak, %zu KiB after (%zu KiB once "
                "malloc_trim gave "
                "freed pages back)\n",
                baseline_rss, peak_rss, after_rss_untrimmed, after_rss);
    std::printf(
        "RESULT load runs=%d faulted=%d rate_limited_once=%d wall_s=%.2f peak_open=%zu "
        "heap_baseline_kib=%.0f "
        "heap_peak_kib=%.0f heap_after_kib=%.0f heap_change_bytes=%lld per_stream_kib=%.1f "
        "rss_baseline_kib=%zu rss_peak_kib=%zu rss_after_kib=%zu rss_after_trim_kib=%zu rounds=%d "
        "last_round_change_bytes=%lld asan=%d\n",
        round.runs, round.faulted, round.rate_limited_once, round.wall_s, round.peak_open,
        kib(baseline_heap), kib(round.peak_heap), kib(after_heap), heap_change, per_stream_kib,
        baseline_rss, peak_rss, after_rss_untrimmed, after_rss, s.rounds, last_round_change,
        load::under_asan ? 1 : 0);

    if (heap_change > static_cast<long long>(s.heap_tolerance)) {
        std::fprintf(
            stderr,
            "FAIL: the heap in use grew by %lld bytes over the round (tolerance %zu): a leak\n",
            heap_change, s.heap_tolerance);
        ok = false;
    }
    if (ok) std::printf("load: every run ended as planned; memory returned to baseline\n");
    return ok ? 0 : 1;
}
