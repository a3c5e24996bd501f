// forma_bench_json: reading JSON into described structs with forma, Boost.JSON,
// nlohmann/json and simdjson, and writing them back with forma, Boost.JSON and nlohmann/json.
// Benchmarks are named BM_read/<payload>/<library> and BM_write/<payload>/<library>. The
// payloads: person and catalog, generated (payloads.hpp), and the standard corpus twitter,
// citm_catalog and canada, read unchanged from bench/data (FORMA_BENCH_DATA).

#include "payloads.hpp"
#include "readers.hpp"
#include "writers.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

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

template <class T>
using writer_function = std::string (*)(const T&);

template <class T>
struct writer {
    const char* name;
    writer_function<T> write;
};

template <class T>
constexpr writer<T> writers[] = {{"forma", &write_forma<T>},
                                 {"boost_json", &write_boost_json<T>},
                                 {"nlohmann", &write_nlohmann<T>}};

[[noreturn]] void fail_verification(const char* payload_name, const char* library_name,
                                    const char* what) {
    std::fprintf(stderr, "forma_bench_json: %s reads the %s payload wrongly: %s\n", library_name,
                 payload_name, what);
    std::exit(EXIT_FAILURE);
}

[[noreturn]] void fail_writing(const char* payload_name, const char* library_name,
                               const char* what) {
    std::fprintf(stderr, "forma_bench_json: %s writes the %s payload wrongly: %s\n", library_name,
                 payload_name, what);
    std::exit(EXIT_FAILURE);
}

/// The number of canada.json coordinates in which `value` differs from `expected` by one ULP
/// (the next double up or down); nullopt when anything else differs.
std::optional<std::size_t> coordinates_one_ulp_apart(const canada::document& value,
                                                     const canada::document& expected) {
    if (value.type != expected.type || value.features.size() != expected.features.size())
        return std::nullopt;
    std::size_t count = 0;
    for (std::size_t f = 0; f < value.features.size(); ++f) {
        const canada::feature& a = value.features[f];
        const canada::feature& b = expected.features[f];
        if (a.type != b.type || a.properties != b.properties ||
            a.geometry.type != b.geometry.type ||
            a.geometry.coordinates.size() != b.geometry.coordinates.size())
            return std::nullopt;
        for (std::size_t r = 0; r < a.geometry.coordinates.size(); ++r) {
            const auto& ring_a = a.geometry.coordinates[r];
            const auto& ring_b = b.geometry.coordinates[r];
            if (ring_a.size() != ring_b.size()) return std::nullopt;
            for (std::size_t p = 0; p < ring_a.size(); ++p)
                for (std::size_t i = 0; i < 2; ++i) {
                    const double x = ring_a[p][i], y = ring_b[p][i];
                    if (x == y) continue;
                    if (x != std::nextafter(y, HUGE_VAL) && x != std::nextafter(y, -HUGE_VAL))
                        return std::nullopt;
                    ++count;
                }
        }
    }
    return count;
}

/// A benchmark that times a wrong decoding is worthless: forma must give back the value the
/// payload was generated from (for the corpus, its value is forma's reading), and every
/// other library the same value as forma.
///
/// One exception: Boost.JSON 1.81 has no exact conversion of decimals to double; some of
/// canada.json's coordinates come out one ULP off. That reading is accepted (and the count
/// reported in the context) when nothing else differs.
template <class T>
void verify(const char* payload_name, const payload<T>& p) {
    for (const library<T>& lib : libraries<T>) {
        T value;
        try {
            value = lib.read(p.json);
        } catch (const std::exception& e) {
            fail_verification(payload_name, lib.name, e.what());
        }
        if (value == p.value) continue;
        if constexpr (std::is_same_v<T, canada::document>) {
            if (std::string_view(lib.name) == "boost_json") {
                if (const auto off = coordinates_one_ulp_apart(value, p.value)) {
                    benchmark::AddCustomContext("canada_boost_json_numbers_one_ulp_off",
                                                std::to_string(*off));
                    continue;
                }
            }
        }
        fail_verification(payload_name, lib.name,
                          "the value differs from the payload's (generated, or forma's reading)");
    }
}

/// Every writer's text must read back, with forma, to the value written.
template <class T>
void verify_writes(const char* payload_name, const payload<T>& p) {
    for (const writer<T>& w : writers<T>) {
        T value;
        try {
            value = read_forma<T>(w.write(p.value));
        } catch (const std::exception& e) {
            fail_writing(payload_name, w.name, e.what());
        }
        if (!(value == p.value))
            fail_writing(payload_name, w.name, "forma reads its text back to a different value");
    }
}

/// A document of the standard corpus, its text read unchanged from FORMA_BENCH_DATA (with
/// simdjson's padding as spare capacity) and its value read by forma.
template <class T>
payload<T> load_document(const char* payload_name) {
    const std::string path = std::string(FORMA_BENCH_DATA) + "/" + payload_name + ".json";
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) {
        std::fprintf(stderr, "forma_bench_json: cannot open %s\n", path.c_str());
        std::exit(EXIT_FAILURE);
    }
    const auto size = static_cast<std::size_t>(in.tellg());
    payload<T> p;
    p.json.reserve(size + input_padding);
    p.json.resize(size);
    in.seekg(0);
    if (!in.read(p.json.data(), static_cast<std::streamsize>(size))) {
        std::fprintf(stderr, "forma_bench_json: cannot read %s\n", path.c_str());
        std::exit(EXIT_FAILURE);
    }
    try {
        p.value = read_forma<T>(p.json);
    } catch (const std::exception& e) {
        fail_verification(payload_name, "forma", e.what());
    }
    benchmark::AddCustomContext(std::string(payload_name) + "_bytes", std::to_string(size));
    return p;
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

template <class T>
void register_writes(const char* payload_name, const payload<T>& p) {
    for (const writer<T>& w : writers<T>) {
        const std::size_t written = w.write(p.value).size();
        auto run = [&value = p.value, write = w.write, written](benchmark::State& state) {
            for (auto _ : state) {
                std::string json = write(value); // a fresh string each time, destroyed each time
                benchmark::DoNotOptimize(json);
            }
            state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                                    static_cast<std::int64_t>(written));
        };
        const std::string name = std::string("BM_write/") + payload_name + "/" + w.name;
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
    const payload<twitter::document> twitter_payload = load_document<twitter::document>("twitter");
    const payload<citm::document> citm_payload = load_document<citm::document>("citm_catalog");
    const payload<canada::document> canada_payload = load_document<canada::document>("canada");
    verify("person", person_payload);
    verify("catalog", catalog_payload);
    verify("twitter", twitter_payload);
    verify("citm_catalog", citm_payload);
    verify("canada", canada_payload);
    verify_writes("catalog", catalog_payload);
    verify_writes("twitter", twitter_payload);
    verify_writes("citm_catalog", citm_payload);
    verify_writes("canada", canada_payload);
    benchmark::AddCustomContext("person_bytes", std::to_string(person_payload.json.size()));
    benchmark::AddCustomContext("catalog_bytes", std::to_string(catalog_payload.json.size()));
    benchmark::AddCustomContext("catalog_products", std::to_string(catalog_payload.value.size()));

    register_reads("person", person_payload);
    register_reads("catalog", catalog_payload);
    register_reads("twitter", twitter_payload);
    register_reads("citm_catalog", citm_payload);
    register_reads("canada", canada_payload);
    register_writes("catalog", catalog_payload);
    register_writes("twitter", twitter_payload);
    register_writes("citm_catalog", citm_payload);
    register_writes("canada", canada_payload);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return EXIT_SUCCESS;
}
