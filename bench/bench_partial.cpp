// Streaming a structured answer: the total cost of partial_reader over an answer cut into
// deltas of 1, 16 and 256 bytes, against one from_json of the whole text, for answers of
// 10 KB, 100 KB and 1 MB (the catalog payload of bench_json). "final" adds finish(), the
// complete value with its constraints checked, as run_streaming<T> gives it at the end.
#include "catalog_types.hpp"
#include "payloads.hpp"

#include <forma/json/from_json.hpp>
#include <forma/json/partial_reader.hpp>

#include <benchmark/benchmark.h>

#include <map>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <string_view>

namespace {

const forma_bench::payload<forma_bench::catalog>& payload_of(std::size_t kilobytes) {
    static std::map<std::size_t, forma_bench::payload<forma_bench::catalog>> cache;
    auto it = cache.find(kilobytes);
    if (it == cache.end()) it = cache.emplace(kilobytes, forma_bench::make_catalog_payload(kilobytes * 1024)).first;
    return it->second;
}

void BM_from_json(benchmark::State& state) {
    const auto& p = payload_of(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        auto value = forma::from_json<forma_bench::catalog>(p.json);
        benchmark::DoNotOptimize(value);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * p.json.size()));
}

void BM_partial_reader(benchmark::State& state) {
    const auto& p = payload_of(static_cast<std::size_t>(state.range(0)));
    const auto delta = static_cast<std::size_t>(state.range(1));
    const bool with_final = state.range(2) != 0;
    const std::string_view text = p.json;
    auto read = [&](forma::partial_reader<forma_bench::catalog>& reader) {
        for (std::size_t i = 0; i < text.size(); i += delta) reader.feed(text.substr(i, delta));
    };
    { // checked once, outside the timing: comparing catalogs is not part of reading them
        forma::partial_reader<forma_bench::catalog> reader;
        read(reader);
        const auto value = reader.finish();
        if (!reader.get().complete() || !value || *value != p.value)
            state.SkipWithError("the partial reader does not give the payload's value");
    }
    for (auto _ : state) {
        forma::partial_reader<forma_bench::catalog> reader;
        read(reader);
        if (with_final) {
            auto value = reader.finish();
            benchmark::DoNotOptimize(value);
        }
        benchmark::DoNotOptimize(reader.get());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * p.json.size()));
}

} // namespace

BENCHMARK(BM_from_json)->ArgName("kb")->Arg(10)->Arg(100)->Arg(1000);
BENCHMARK(BM_partial_reader)
    ->ArgNames({"kb", "delta", "final"})
    ->ArgsProduct({{10, 100, 1000}, {1, 16, 256}, {0, 1}});
// glibc gives the freed blocks at the top of the heap back to the kernel (and unmaps large
// ones), so the next read faults their pages in again, and which reads pay for that changes
// from run to run: a partial read's time swung 2.5x between runs of one binary. The heap is
// kept, as a long-running server's is, so both sides measure reading, not page faults.
int main(int argc, char** argv) {
#if defined(__GLIBC__)
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 32 << 20); // glibc's largest
#endif
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
