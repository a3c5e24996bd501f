// The tool loop's own cost, over a scripted model and a tool that does nothing: per run and
// per call, against the same model turns requested without the loop. Reading a call's
// arguments: forma's from_json against Boost.JSON parse + value_to. And 8 concurrent calls of
// a tool that waits 100 ms, in wall time.
#include <forma/json/from_json.hpp>
#include <forma/testing/scripted_chat_client.hpp>
#include <forma/tools.hpp>

#include <benchmark/benchmark.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/describe.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value_to.hpp>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

namespace {

namespace asio = boost::asio;

// Boost 1.81's value_to has no std::optional: the comparison uses members both libraries read.
struct search_arguments {
    std::string query;
    int limit = 0;
    std::vector<std::string> sites;
    bool safe = false;
    double min_score = 0;
};
BOOST_DESCRIBE_STRUCT(search_arguments, (), (query, limit, sites, safe, min_score))

const std::string arguments =
    R"({"query":"weather in Oslo next week","limit":10,"sites":["yr.no","met.no","bbc.com"],"safe":true,"min_score":0.25})";

forma::function_call_content call(int i) {
    const std::string id = "call_" + std::to_string(i);
    forma::function_call_content c(id, "search");
    c.raw_representation = boost::json::object{
        {"id", id}, {"type", "function"}, {"function", boost::json::object{{"name", "search"}, {"arguments", arguments}}}};
    return c;
}

forma::agent_response<> calls_turn(int calls) {
    std::vector<forma::content> contents;
    for (int i = 0; i < calls; ++i) contents.emplace_back(call(i));
    forma::agent_response<> r(forma::chat_message(forma::chat_role::assistant(), std::move(contents)));
    r.finish_reason = forma::finish_reason::tool_calls();
    return r;
}

forma::agent_response<> answer_turn() {
    forma::agent_response<> r(forma::chat_message(forma::chat_role::assistant(), "Done."));
    r.finish_reason = forma::finish_reason::stop();
    return r;
}

template <class Operation>
void run_once(asio::io_context& io, Operation operation) {
    asio::co_spawn(io, std::move(operation), asio::detached);
    io.restart();
    io.run();
}

// A tool whose body does nothing but read its arguments: what the loop adds is all there is.
const forma::function_tool search = forma::make_tool("search", "Searches", [](const search_arguments& a) {
    return a.limit;
});

// One request through the loop: the model calls `calls` tools, then answers.
void loop_once(asio::io_context& io, forma::testing::scripted_chat_client& model,
               forma::function_invoking_chat_client& loop, int calls, std::size_t& messages) {
    model.add_response(calls_turn(calls));
    model.add_response(answer_turn());
    model.clear_requests();
    run_once(io, [&]() -> asio::awaitable<void> {
        std::vector<forma::chat_message> ask{forma::chat_message(forma::chat_role::user(), "Search")};
        forma::chat_options options;
        options.tools = {search};
        auto response = co_await loop.get_response(std::move(ask), std::move(options));
        messages += response.messages.size();
    });
}

// The same two model turns requested without the loop, the conversation kept as the loop keeps it.
void turns_alone_once(asio::io_context& io, forma::testing::scripted_chat_client& model, int calls,
                      std::size_t& messages) {
    model.add_response(calls_turn(calls));
    model.add_response(answer_turn());
    model.clear_requests();
    run_once(io, [&]() -> asio::awaitable<void> {
        std::vector<forma::chat_message> conversation{forma::chat_message(forma::chat_role::user(), "Search")};
        forma::chat_options options;
        options.tools = {search};
        auto first = co_await model.get_response(conversation, options);
        conversation.insert(conversation.end(), first.messages.begin(), first.messages.end());
        auto second = co_await model.get_response(conversation, options);
        messages += first.messages.size() + second.messages.size();
    });
}

void BM_tool_loop(benchmark::State& state) {
    asio::io_context io;
    forma::testing::scripted_chat_client model(io.get_executor());
    forma::function_invoking_chat_client loop(model);
    std::size_t messages = 0;
    for (auto _ : state) loop_once(io, model, loop, static_cast<int>(state.range(0)), messages);
    benchmark::DoNotOptimize(messages);
}
BENCHMARK(BM_tool_loop)->ArgName("calls")->Arg(1)->Arg(8);

void BM_model_turns_alone(benchmark::State& state) {
    asio::io_context io;
    forma::testing::scripted_chat_client model(io.get_executor());
    std::size_t messages = 0;
    for (auto _ : state) turns_alone_once(io, model, static_cast<int>(state.range(0)), messages);
    benchmark::DoNotOptimize(messages);
}
BENCHMARK(BM_model_turns_alone)->ArgName("calls")->Arg(1)->Arg(8);

/* The loop's cost per call, measured in one place: each iteration times the request through
   the loop and the same turns without it, and reports the difference divided by the calls
   (manual time), so that both sides see the same load. */
void BM_loop_cost_per_call(benchmark::State& state) {
    asio::io_context io;
    forma::testing::scripted_chat_client model(io.get_executor());
    forma::function_invoking_chat_client loop(model);
    const int calls = static_cast<int>(state.range(0));
    std::size_t messages = 0;
    double total = 0;
    using clock = std::chrono::steady_clock;
    for (auto _ : state) {
        const auto start = clock::now();
        loop_once(io, model, loop, calls, messages);
        const auto middle = clock::now();
        turns_alone_once(io, model, calls, messages);
        const auto end = clock::now();
        const double extra = std::max(std::chrono::duration<double>((middle - start) - (end - middle)).count(), 0.0);
        state.SetIterationTime(extra / calls);
        total += extra;
    }
    state.counters["ns_per_call"] = total * 1e9 / (static_cast<double>(state.iterations()) * calls);
    benchmark::DoNotOptimize(messages);
}
BENCHMARK(BM_loop_cost_per_call)->ArgName("calls")->Arg(1)->Arg(8)->UseManualTime();

void BM_read_arguments_forma(benchmark::State& state) {
    int limits = 0;
    for (auto _ : state) limits += forma::from_json<search_arguments>(arguments).limit;
    benchmark::DoNotOptimize(limits);
}
BENCHMARK(BM_read_arguments_forma);

void BM_read_arguments_boost_json(benchmark::State& state) {
    int limits = 0;
    for (auto _ : state) {
        boost::json::monotonic_resource resource;
        const boost::json::value document = boost::json::parse(arguments, &resource);
        limits += boost::json::value_to<search_arguments>(document).limit;
    }
    benchmark::DoNotOptimize(limits);
}
BENCHMARK(BM_read_arguments_boost_json);

/// 8 calls of a tool that waits 100 ms, in one turn: wall time of the whole request.
void BM_eight_waiting_calls(benchmark::State& state) {
    asio::io_context io;
    forma::testing::scripted_chat_client model(io.get_executor());
    forma::function_invoking_chat_client loop(model);
    const forma::function_tool wait = forma::make_tool("search", "", [](const search_arguments&) -> asio::awaitable<int> {
        asio::steady_timer timer(co_await asio::this_coro::executor, std::chrono::milliseconds(100));
        co_await timer.async_wait(asio::use_awaitable);
        co_return 1;
    });
    std::size_t results = 0;
    const auto started = std::chrono::steady_clock::now();
    for (auto _ : state) {
        model.add_response(calls_turn(8));
        model.add_response(answer_turn());
        model.clear_requests();
        run_once(io, [&]() -> asio::awaitable<void> {
            std::vector<forma::chat_message> ask{forma::chat_message(forma::chat_role::user(), "Search")};
            forma::chat_options options;
            options.tools = {wait};
            auto response = co_await loop.get_response(std::move(ask), std::move(options));
            for (const forma::chat_message& m : response.messages)
                results += static_cast<std::size_t>(std::count_if(m.contents.begin(), m.contents.end(), [](const auto& c) {
                    return std::holds_alternative<forma::function_result_content>(c);
                }));
        });
    }
    state.counters["ms_per_request"] =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count() /
        static_cast<double>(state.iterations());
    if (results != 8 * static_cast<std::size_t>(state.iterations())) state.SkipWithError("not every call answered");
}
BENCHMARK(BM_eight_waiting_calls)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

} // namespace

BENCHMARK_MAIN();
