// What the telemetry decorator adds per run: an agent run over forma's scripted client,
// without and with telemetry_agent recording to the in-memory exporter (span, GenAI
// attributes, duration and token histograms), plain and streaming.
#include <forma/agent/chat_client_agent.hpp>
#include <forma/middleware/agent_builder.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include <benchmark/benchmark.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <memory>
#include <string>

namespace {

forma::agent_response<> answer() {
    forma::agent_response<> r(forma::chat_message(forma::chat_role::assistant(), "Paris is the capital of France."));
    r.response_id = "chatcmpl-0123456789";
    r.finish_reason = forma::finish_reason::stop();
    r.usage = forma::usage_details{.input_token_count = 24, .output_token_count = 8};
    r.additional_properties["model"] = "gpt-4o-mini-2024-07-18";
    return r;
}

std::vector<forma::agent_response_update> streamed_answer() {
    std::vector<forma::agent_response_update> updates;
    for (const char* piece : {"Paris ", "is the ", "capital ", "of France."})
        updates.emplace_back(forma::chat_role::assistant(), std::string(piece));
    updates.front().response_id = "chatcmpl-0123456789";
    updates.back().finish_reason = forma::finish_reason::stop();
    updates.back().contents.push_back(forma::usage_content({.input_token_count = 24, .output_token_count = 8}));
    return updates;
}

enum class mode { plain, telemetry, telemetry_sensitive };

struct setup {
    explicit setup(mode m) {
        if (m == mode::plain) {
            agent = std::shared_ptr<forma::agent>(&inner, [](forma::agent*) {});
        } else {
            agent = forma::agent_builder(inner)
                        .use_telemetry({.exporter = memory,
                                        .sensitive_data = m == mode::telemetry_sensitive,
                                        .provider_name = "openai"})
                        .build();
        }
    }

    // The exporter holds `batch` spans before they are taken, as otlp_http_exporter holds a
    // batch (its max_batch_size, 512 by default) until it is sent.
    void trim(std::size_t run, std::size_t batch) {
        client.clear_requests();
        if (run % batch != 0) return;
        taken_spans += memory->take_spans().size();
    }

    // Whether a run recorded its span, taken by trim() or not yet.
    bool recorded_a_span() const {
        return taken_spans > 0 || memory->find_span("invoke_agent assistant") != std::nullopt;
    }

    boost::asio::io_context io;
    forma::testing::scripted_chat_client client{io.get_executor()};
    forma::chat_client_agent inner{client,
                                   {.name = "assistant",
                                    .instructions = "Answer briefly.",
                                    .chat_options = {.model = "gpt-4o-mini", .temperature = 0.2}}};
    std::shared_ptr<forma::telemetry::in_memory_exporter> memory =
        std::make_shared<forma::telemetry::in_memory_exporter>();
    std::shared_ptr<forma::agent> agent;
    std::size_t taken_spans = 0; // by trim(); only the agent records spans here
};

template <class Operation>
void run_once(boost::asio::io_context& io, Operation operation) {
    boost::asio::co_spawn(io, std::move(operation), boost::asio::detached);
    io.restart();
    io.run();
}

void BM_run(benchmark::State& state) {
    setup s(static_cast<mode>(state.range(0)));
    const auto scripted = answer();
    std::size_t chars = 0, runs = 0;
    for (auto _ : state) {
        s.client.add_response(scripted);
        run_once(s.io, [&]() -> boost::asio::awaitable<void> {
            auto response = co_await s.agent->run("What is the capital of France?");
            chars += response.messages.front().text().size();
        });
        s.trim(++runs, static_cast<std::size_t>(state.range(1)));
    }
    benchmark::DoNotOptimize(chars);
    if (static_cast<mode>(state.range(0)) != mode::plain && !s.recorded_a_span() && runs > 0)
        state.SkipWithError("no span was recorded");
}

void BM_run_streaming(benchmark::State& state) {
    setup s(static_cast<mode>(state.range(0)));
    const auto scripted = streamed_answer();
    std::size_t updates = 0, runs = 0;
    for (auto _ : state) {
        s.client.add_updates(scripted);
        run_once(s.io, [&]() -> boost::asio::awaitable<void> {
            auto stream = s.agent->run_streaming("What is the capital of France?");
            while (auto update = co_await stream.next()) ++updates;
        });
        s.trim(++runs, static_cast<std::size_t>(state.range(1)));
    }
    benchmark::DoNotOptimize(updates);
}

// mode: plain, telemetry, telemetry with sensitive data; batch: spans held before they are taken.
void modes(benchmark::internal::Benchmark* b) {
    b->ArgNames({"mode", "batch"});
    for (int batch : {64, 512})
        for (int m : {0, 1, 2}) b->Args({m, batch});
}

} // namespace

BENCHMARK(BM_run)->Apply(modes);
// Fixed counts for bench/instructions_per_run.sh: callgrind's instruction count of 2000 runs
// minus that of 1000 is the cost of 1000 runs, without setup (deterministic, unlike time).
BENCHMARK(BM_run)->ArgNames({"mode", "batch"})->Args({0, 512})->Args({1, 512})->Iterations(1000);
BENCHMARK(BM_run)->ArgNames({"mode", "batch"})->Args({0, 512})->Args({1, 512})->Iterations(2000);
BENCHMARK(BM_run_streaming)->Apply(modes);
BENCHMARK_MAIN();
