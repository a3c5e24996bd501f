// How often run<T> ends with a valid value when the model makes the mistakes real models make,
// with max_output_retries 0, 1 and 2: scripted runs against the local model server (TLS on
// loopback) with its answer faults. A report, not a timed benchmark: it prints success rates.
//
//   forma_output_retry_report [--runs=N]   (default 1000 runs per fault and retry count)
#include <forma/forma.hpp>
#include <forma/testing/model_server.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/describe.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct lead {
    std::string name;
    int age = 0;
    std::string email;
    std::string company;
};
BOOST_DESCRIBE_STRUCT(lead, (), (name, age, email, company))
FORMA_DESCRIBE_FIELDS(lead, (name, .min_length = 2), (age, .minimum = 18, .maximum = 99), (email, .format = "email"),
                      (company, .min_length = 1));

using forma::testing::answer_fault;

struct scenario {
    std::string_view name;
    answer_fault fault;
    double rate;           // share of answers that carry the fault
    std::size_t attempts;  // answers after this many corrections are right
};

constexpr std::size_t always = static_cast<std::size_t>(-1);

const scenario scenarios[] = {
    {"wrong type (half the answers)", answer_fault::wrong_type, 0.5, always},
    {"missing member (half)", answer_fault::missing_member, 0.5, always},
    {"string too short (half)", answer_fault::short_string, 0.5, always},
    {"JSON cut short (half)", answer_fault::cut_json, 0.5, always},
    {"prose around the JSON (half)", answer_fault::prose_around, 0.5, always},
    {"wrong type, obeys on the 2nd try", answer_fault::wrong_type, 1.0, 1},
    {"wrong type, never obeys", answer_fault::wrong_type, 1.0, always},
};

struct tally {
    std::size_t valid = 0;
    std::size_t requests = 0;
};

tally measure(const scenario& s, std::uint64_t seed, std::size_t retries, std::size_t runs) {
    boost::asio::io_context io;
    forma::testing::model_server server(io.get_executor(), {.seed = seed,
                                                            .answer_fault = s.fault,
                                                            .answer_fault_rate = s.rate,
                                                            .answer_fault_attempts = s.attempts});
    forma::openai::chat_client client(io.get_executor(), {.base_url = server.base_url(),
                                                          .model = "forma-local",
                                                          .trust = {.ca_certificates = server.certificate_pem()}});
    forma::chat_client_agent agent(client, {.name = "extractor", .max_output_retries = retries});
    tally out;
    auto all_runs = [&]() -> boost::asio::awaitable<void> {
        for (std::size_t i = 0; i < runs; ++i) {
            const auto response =
                co_await agent.run<lead>("Grace Hopper, 45, grace@navy.example, works at Remington Rand.");
            out.valid += response.try_result().has_value();
        }
        out.requests = server.requests().size();
        server.stop(); // io.run() returns once nothing listens
    };
    auto done = boost::asio::co_spawn(io, all_runs(), boost::asio::use_future);
    io.run();
    done.get();
    return out;
}

} // namespace

int main(int argc, char** argv) {
    std::size_t runs = 1000;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg.starts_with("--runs=")) runs = std::strtoul(argv[i] + 7, nullptr, 10);
        else {
            std::cerr << "usage: forma_output_retry_report [--runs=N]\n";
            return 2;
        }
    }
    if (runs == 0) runs = 1;
    try {
        std::printf("Runs of agent.run<T> that end with a valid T, of %zu per cell; in brackets, model calls per run.\n\n",
                    runs);
        std::printf("| model fault | max_output_retries 0 | 1 | 2 |\n|---|---|---|---|\n");
        std::uint64_t seed = 1;
        for (const scenario& s : scenarios) {
            seed += 7919; // each fault draws its own faulty answers
            std::printf("| %.*s |", static_cast<int>(s.name.size()), s.name.data());
            for (std::size_t retries = 0; retries <= 2; ++retries) {
                const tally t = measure(s, seed, retries, runs);
                std::printf(" %.1f%% (%.2f) |", 100.0 * static_cast<double>(t.valid) / static_cast<double>(runs),
                            static_cast<double>(t.requests) / static_cast<double>(runs));
            }
            std::printf("\n");
        }
        std::printf("\nreport complete\n");
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "forma_output_retry_report failed: " << e.what() << '\n';
        return 1;
    }
}
