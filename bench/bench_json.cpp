// forma_bench_json: reading JSON into described structs with forma, Boost.JSON,
// nlohmann/json and simdjson. Benchmarks are named BM_read/<payload>/<library>.

#include "payloads.hpp"
#include "readers.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace forma_bench {
namespace {

template <class T>
using reader_function = T (*)(const std::string&);

template <class T>
struct library {
    const char* name;
    reader_function<T> read;
};

template <class T>
constexpr library<T> libraries[] = {{"forma", &read_forma<T>},
                                    {"boost_json", &read_boost_json<T>},
                                    {"nlohmann", &read_nlohmann<T>},
                                    {"simdjson", &read_simdjson<T>}};

[[noreturn]] void fail_verification(const char* payload_name, const char* library_name,
                                    const char* what) {
    std::fprintf(stderr, "forma_bench_json: %s reads the %s payload wrongly: %s\n", library_name,
                 payload_name, what);
    std::exit(EXIT_FAILURE);
}

/// A benchmark that times a wrong decoding is worthless: forma must give back the value the
/// payload was generated from, and every other library the same value as forma.
template <class T>
void verify(const char* payload_name, const payload<T>& p) {
    for (const library<T>& lib : libraries<T>) {
        T value;
        try {
            value = lib.read(p.json);
        } catch (const std::exception& e) {
            fail_verification(payload_name, lib.name, e.what());
        }
        if (!(value == p.value))
            fail_verification(payload_name, lib.name,
                              "the value differs from the one the payload was generated from");
    }
}

template <class T>
void register_reads(const char* payload_name, const payload<T>& p) {
    for (const library<T>& lib : libraries<T>) {
        auto run = [&json = p.json, read = lib.read](benchmark::State& state) {
            for (auto _ : state) {
                T value = read(json); // a fresh value each time, destroyed each time: same for all
                benchmark::DoNotOptimize(value);
            }
            state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                                    static_cast<std::int64_t>(json.size()));
        };
        const std::string name = std::string("BM_read/") + payload_name + "/" + lib.name;
        benchmark::RegisterBenchmark(name.c_str(), run);
    }
}

} // namespace
} // namespace forma_bench

int main(int argc, char** argv) {
    using namespace forma_bench;
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return EXIT_FAILURE;

    // Built once, never copied: the strings keep simdjson's padding as spare capacity.
    const payload<person> person_payload = make_person_payload();
    const payload<catalog> catalog_payload = make_catalog_payload();
    verify("person", person_payload);
    verify("catalog", catalog_payload);
    benchmark::AddCustomContext("person_bytes", std::to_string(person_payload.json.size()));
    benchmark::AddCustomContext("catalog_bytes", std::to_string(catalog_payload.json.size()));
    benchmark::AddCustomContext("catalog_products", std::to_string(catalog_payload.value.size()));

    register_reads("person", person_payload);
    register_reads("catalog", catalog_payload);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return EXIT_SUCCESS;
}
