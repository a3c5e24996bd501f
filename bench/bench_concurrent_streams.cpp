// Many concurrent streaming runs through openai::chat_client on one io_context thread,
// against the local model server over TLS on loopback.
//
// The server runs in a child process so that the memory measured is the client's alone:
// the peak of malloc'd bytes (mallinfo2, OpenSSL's allocations included) while the streams
// are open, less the baseline before they start, divided by the streams. Every stream's text
// is checked against the answer the server must give it: nothing lost, nothing reordered.
#include <forma/openai/chat_client.hpp>
#include <forma/testing/model_server.hpp>

#include <benchmark/benchmark.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <malloc.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;

void raise_file_limit() {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

// A model server in a child process; its port and certificate come back through a pipe.
class child_server {
public:
    child_server(std::chrono::milliseconds chunk_delay, bool tls) : tls_(tls) {
        int fds[2];
        if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
        pid_ = fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            close(fds[0]);
            raise_file_limit();
            asio::io_context io;
            forma::testing::model_server server(io.get_executor(),
                                                {.tls = tls, .delta_size = 16, .chunk_delay = chunk_delay});
            const std::string hello = std::to_string(server.port()) + "\n" + server.certificate_pem();
            if (write(fds[1], hello.data(), hello.size()) != static_cast<ssize_t>(hello.size())) _exit(1);
            close(fds[1]);
            asio::signal_set stop(io, SIGTERM);
            stop.async_wait([&](auto, int) { server.stop(); });
            io.run();
            _exit(0);
        }
        close(fds[1]);
        std::string hello;
        char buffer[4096];
        for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) hello.append(buffer, static_cast<std::size_t>(n));
        close(fds[0]);
        const auto newline = hello.find('\n');
        if (newline == std::string::npos) throw std::runtime_error("the server process did not start");
        port_ = std::stoi(hello.substr(0, newline));
        certificate_ = hello.substr(newline + 1);
    }
    ~child_server() {
        kill(pid_, SIGTERM);
        waitpid(pid_, nullptr, 0);
    }
    std::string base_url() const { return (tls_ ? "https://127.0.0.1:" : "http://127.0.0.1:") + std::to_string(port_) + "/v1"; }
    const std::string& certificate() const { return certificate_; }

private:
    bool tls_;
    pid_t pid_ = -1;
    int port_ = 0;
    std::string certificate_;
};

std::string prompt_for(int i) {
    std::string prompt = "stream " + std::to_string(i);
    for (int w = 0; w < 24; ++w) prompt += " word" + std::to_string((i + w) % 97);
    return prompt;
}

std::size_t heap_in_use() { return mallinfo2().uordblks; }

struct run_result {
    std::size_t completed = 0;
    std::size_t wrong = 0;
    std::size_t failed = 0;
    std::size_t peak_open = 0;
    std::size_t peak_heap = 0;
    std::size_t chunks = 0;
};

asio::awaitable<void> one_stream(forma::openai::chat_client& client, int i, run_result& result, std::size_t& open) {
    std::string text;
    try {
        std::vector<forma::chat_message> messages{forma::chat_message(forma::chat_role::user(), prompt_for(i))};
        auto stream = client.get_streaming_response(std::move(messages), {});
        bool counted = false;
        while (auto update = co_await stream.next()) {
            if (!counted) {
                counted = true;
                result.peak_open = std::max(result.peak_open, ++open);
            }
            ++result.chunks;
            text += update->text();
        }
        if (counted) --open;
    } catch (const std::exception& e) {
        ++result.failed;
        std::fprintf(stderr, "stream %d failed: %s\n", i, e.what());
        co_return;
    }
    ++result.completed;
    if (text != "You said: " + prompt_for(i)) ++result.wrong;
}

void concurrent_streams(benchmark::State& state) {
    raise_file_limit();
    const int streams = static_cast<int>(state.range(0));
    child_server server(20ms, state.range(1) != 0);
    run_result total;
    double bytes_per_stream = 0;
    for (auto _ : state) {
        asio::io_context io(1);
        forma::openai::client_options options{.base_url = server.base_url(),
                                              .model = "forma-local",
                                              .trust = {.ca_certificates = server.certificate()}};
        options.max_idle_connections = 0; // measure streams, not a pool
        forma::openai::chat_client client(io.get_executor(), options);
        run_result result;
        std::size_t open = 0;
        std::size_t running = static_cast<std::size_t>(streams);
        malloc_trim(0);
        const std::size_t baseline = heap_in_use();
        for (int i = 0; i < streams; ++i)
            asio::co_spawn(io, one_stream(client, i, result, open), [&](std::exception_ptr) { --running; });
        // Sample the heap while the streams run.
        asio::steady_timer sampler(io);
        std::function<void()> sample = [&] {
            result.peak_heap = std::max(result.peak_heap, heap_in_use());
            if (running == 0) return;
            sampler.expires_after(2ms);
            sampler.async_wait([&](auto) { sample(); });
        };
        sample();
        io.run();
        bytes_per_stream = static_cast<double>(result.peak_heap - baseline) / static_cast<double>(result.peak_open);
        total = result;
    }
    if (total.failed || total.wrong || total.completed != static_cast<std::size_t>(streams)) {
        state.SkipWithError("streams failed or lost updates (see stderr)");
        return;
    }
    state.counters["streams"] = static_cast<double>(streams);
    state.counters["peak_concurrent"] = static_cast<double>(total.peak_open);
    state.counters["KiB_per_stream"] = bytes_per_stream / 1024.0;
    state.counters["updates"] = static_cast<double>(total.chunks);
}

BENCHMARK(concurrent_streams)->ArgNames({"streams", "tls"})->Args({1000, 1})->Args({1000, 0})->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
