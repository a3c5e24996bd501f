// Merging a stream of small text updates into one response: the cost per update
// must not grow with the length of the stream.

#include <forma/model.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <ranges>
#include <string>
#include <vector>

namespace {

// Updates as an OpenAI-compatible provider streams them: every chunk carries the
// response id, the message id and the created time; the role comes first.
// Streams are merged as they arrive, so each update is hot in cache when it is
// added: the benchmarks cycle through this pool instead of reading N updates
// from memory, which would measure memory bandwidth rather than merging.
std::vector<forma::agent_response_update> token_pool(std::int64_t count) {
    static const char* const tokens[] = {"The", " quick", " brown", " fox", " jumps",
                                         " over", " the", " lazy", " dog", "."};
    const auto created = std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));
    std::vector<forma::agent_response_update> updates;
    updates.reserve(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i) {
        forma::agent_response_update& u =
            updates.emplace_back(std::nullopt, std::string(tokens[i % 10]));
        if (i == 0) u.role = forma::chat_role::assistant();
        u.response_id = "chatcmpl-9a8b7c6d5e4f3a2b1c0d";
        u.message_id = "msg_0123456789abcdef";
        u.created_at = created;
    }
    return updates;
}

constexpr std::int64_t pool_size = 1024;

// The i-th update of a stream built from the pool.
const forma::agent_response_update& nth(const std::vector<forma::agent_response_update>& pool,
                                        std::int64_t i) {
    // The pool's first update has the role; later cycles must not repeat it.
    return pool[static_cast<std::size_t>(i < pool_size ? i : 1 + (i - 1) % (pool_size - 1))];
}

std::size_t text_length(const std::vector<forma::agent_response_update>& pool, std::int64_t count) {
    std::size_t n = 0;
    for (std::int64_t i = 0; i < count; ++i) n += nth(pool, i).text().size();
    return n;
}

void report(benchmark::State& state, std::int64_t updates) {
    state.SetItemsProcessed(state.iterations() * updates);
    // Seconds per update: the time of an iteration divided by its updates.
    state.counters["per_update"] = benchmark::Counter(
        static_cast<double>(updates),
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// One update at a time, as a stream consumer does.
void merge_with_builder(benchmark::State& state) {
    const std::int64_t count = state.range(0);
    const auto pool = token_pool(pool_size);
    const std::size_t expected = text_length(pool, count);
    for (auto _ : state) {
        forma::agent_response_builder builder;
        for (std::int64_t i = 0; i < count; ++i) builder.add(nth(pool, i));
        forma::agent_response<> r = builder.take();
        if (r.messages.size() != 1 || r.messages[0].contents.size() != 1 ||
            r.messages[0].text().size() != expected) {
            state.SkipWithError("the updates did not merge into one text content");
            break;
        }
        benchmark::DoNotOptimize(r);
    }
    report(state, count);
}

// The whole stream at once, as a range.
void merge_with_to_agent_response(benchmark::State& state) {
    const std::int64_t count = state.range(0);
    const auto pool = token_pool(pool_size);
    const auto stream =
        std::views::iota(std::int64_t{0}, count) |
        std::views::transform([&](std::int64_t i) -> const forma::agent_response_update& {
            return nth(pool, i);
        });
    for (auto _ : state) {
        forma::agent_response<> r = forma::to_agent_response(stream);
        benchmark::DoNotOptimize(r);
    }
    report(state, count);
}

} // namespace

BENCHMARK(merge_with_builder)->Arg(1'000)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(merge_with_to_agent_response)
    ->Arg(1'000)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
