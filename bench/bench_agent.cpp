// What run<T> through two decorators adds per run, over calling the chat client
// directly and parsing its answer by hand (both over forma's scripted client).
#include <forma/agent/chat_client_agent.hpp>
#include <forma/json/from_json.hpp>
#include <forma/middleware/agent_builder.hpp>
#include <forma/agent/delegating_agent.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include <benchmark/benchmark.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp>

#include <optional>
#include <string>

namespace {

struct person {
    std::string name;
    int age = 0;
    std::optional<std::string> occupation;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age, occupation))

constexpr const char* answer = R"({"name":"John Smith","age":35,"occupation":"software engineer"})";

/// A decorator that does nothing but pass the run on: the cost of a layer.
class pass_through : public forma::delegating_agent {
public:
    using delegating_agent::delegating_agent;
};

template <class Operation>
void run_once(boost::asio::io_context& io, Operation operation) {
    boost::asio::co_spawn(io, std::move(operation), boost::asio::detached);
    io.restart();
    io.run();
}

void BM_run_typed(benchmark::State& state) {
    boost::asio::io_context io;
    forma::testing::scripted_chat_client client(io.get_executor());
    forma::chat_client_agent inner(client, {.name = "extractor"});
    auto agent = forma::agent_builder(inner)
                     .use([](auto a) { return std::make_shared<pass_through>(a); })
                     .use([](auto a) { return std::make_shared<pass_through>(a); })
                     .build();
    int ages = 0;
    for (auto _ : state) {
        client.add_text_response(answer);
        client.clear_requests();
        run_once(io, [&]() -> boost::asio::awaitable<void> {
            auto response = co_await agent->run<person>("John Smith is 35.");
            ages += response.result().age;
        });
    }
    benchmark::DoNotOptimize(ages);
}

void BM_client_directly(benchmark::State& state) {
    boost::asio::io_context io;
    forma::testing::scripted_chat_client client(io.get_executor());
    int ages = 0;
    for (auto _ : state) {
        client.add_text_response(answer);
        client.clear_requests();
        run_once(io, [&]() -> boost::asio::awaitable<void> {
            std::vector<forma::chat_message> messages;
            messages.emplace_back(forma::chat_role::user(), "John Smith is 35.");
            // A named value, not `{}`: GCC 12 destroys a braced temporary in a co_await twice.
            forma::chat_options options;
            auto response = co_await client.get_response(std::move(messages), std::move(options));
            ages += forma::from_json<person>(response.text()).age;
        });
    }
    benchmark::DoNotOptimize(ages);
}

} // namespace

BENCHMARK(BM_client_directly);
BENCHMARK(BM_run_typed);
BENCHMARK_MAIN();
