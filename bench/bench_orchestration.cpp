// What an orchestration adds per step over the participants' own work: four chat agents over
// scripted models, run by the smallest loop a user would write by hand, against
// sequential_orchestration and handoff_orchestration doing the same.
#include <forma/agent/chat_client_agent.hpp>
#include <forma/orchestration.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include <benchmark/benchmark.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace asio = boost::asio;

constexpr std::size_t participants = 4;
// An answer of a realistic size: a paragraph, as a reviewer or an agent of a desk writes it.
const std::string paragraph =
    "Thanks for the details. I checked the order history and the payment records for this account: "
    "the card was charged twice on the same day for the same order, and the second charge is still "
    "pending with the bank. I have opened a refund for the duplicate, which usually clears in three to "
    "five business days. Is there anything else I can help you with today?";

template <class Operation>
void run_once(asio::io_context& io, Operation operation) {
    asio::co_spawn(io, std::move(operation), asio::detached);
    io.restart();
    io.run();
}

/// Four chat agents, each over its own scripted model.
struct team {
    explicit team(asio::io_context& io) {
        for (std::size_t i = 0; i < participants; ++i) {
            models.push_back(std::make_unique<forma::testing::scripted_chat_client>(io.get_executor()));
            agents.push_back(std::make_shared<forma::chat_client_agent>(
                *models.back(), forma::chat_client_agent_options{.name = "agent" + std::to_string(i),
                                                                 .description = "Answers questions",
                                                                 .instructions = "You are agent " + std::to_string(i)}));
        }
    }
    std::vector<std::shared_ptr<forma::agent>> all() const { return {agents.begin(), agents.end()}; }

    /// Every model answers once.
    void script_answers() {
        for (auto& m : models) {
            m->clear_requests();
            m->add_text_response(paragraph);
        }
    }
    /// Each model but the last hands off to the next; the last answers.
    void script_handoffs() {
        for (std::size_t i = 0; i < participants; ++i) {
            models[i]->clear_requests();
            if (i + 1 == participants) {
                models[i]->add_text_response(paragraph);
                continue;
            }
            forma::function_call_content call("call_" + std::to_string(i),
                                              forma::handoff_orchestration::tool_name("agent" + std::to_string(i + 1)),
                                              boost::json::object{{"reason", "it is theirs"}});
            forma::agent_response<> turn(forma::chat_message(forma::chat_role::assistant(), std::vector<forma::content>{call}));
            turn.finish_reason = forma::finish_reason::tool_calls();
            models[i]->add_response(std::move(turn));
        }
    }

    std::vector<std::unique_ptr<forma::testing::scripted_chat_client>> models;
    std::vector<std::shared_ptr<forma::chat_client_agent>> agents;
};

// The loop by hand: each agent gets the conversation so far, its answer joins it.
void by_hand_sequential_once(asio::io_context& io, team& t, std::size_t& messages) {
    t.script_answers();
    run_once(io, [&]() -> asio::awaitable<void> {
        std::vector<forma::chat_message> conversation;
        conversation.emplace_back(forma::chat_role::user(), "I was charged twice for order A-17.");
        for (const auto& a : t.agents) {
            forma::agent_response<> r = co_await a->run(conversation);
            conversation.insert(conversation.end(), r.messages.begin(), r.messages.end());
        }
        messages += conversation.size();
    });
}

void sequential_once(asio::io_context& io, team& t, forma::sequential_orchestration& line, std::size_t& messages) {
    t.script_answers();
    run_once(io, [&]() -> asio::awaitable<void> {
        forma::agent_response<> r = co_await line.run("I was charged twice for order A-17.");
        messages += r.messages.size();
    });
}

// Handoffs by hand: each agent has a tool that ends its loop; its call names the next agent.
struct by_hand_desk {
    by_hand_desk() {
        for (std::size_t i = 1; i < participants; ++i)
            tools.emplace_back(forma::handoff_orchestration::tool_name("agent" + std::to_string(i)), "Hands off",
                               boost::json::object{{"type", "object"}},
                               [](const forma::tool_invocation&) -> asio::awaitable<boost::json::value> {
                                   co_return "Handed off.";
                               },
                               forma::function_tool_options{.stop_after_call = true});
    }
    std::vector<forma::function_tool> tools;
};

void by_hand_handoffs_once(asio::io_context& io, team& t, const by_hand_desk& desk, std::size_t& messages) {
    t.script_handoffs();
    run_once(io, [&]() -> asio::awaitable<void> {
        std::vector<forma::chat_message> conversation;
        conversation.emplace_back(forma::chat_role::user(), "I was charged twice for order A-17.");
        for (std::size_t speaker = 0;; ++speaker) {
            forma::agent_run_options options;
            options.chat_options.emplace();
            if (speaker + 1 < participants) options.chat_options->tools = {desk.tools[speaker]};
            forma::agent_response<> r = co_await t.agents[speaker]->run(conversation, nullptr, std::move(options));
            conversation.insert(conversation.end(), r.messages.begin(), r.messages.end());
            if (r.messages.back().role != forma::chat_role::tool()) break;
        }
        messages += conversation.size();
    });
}

// Each agent may hand off to the next only, as by hand, and reads everything, as by hand.
forma::handoff_options chain() {
    forma::handoff_options options{.history = forma::handoff_history::full};
    for (std::size_t i = 0; i < participants; ++i)
        options.routes["agent" + std::to_string(i)] =
            i + 1 < participants ? std::vector<std::string>{"agent" + std::to_string(i + 1)} : std::vector<std::string>{};
    return options;
}

void handoff_once(asio::io_context& io, team& t, forma::handoff_orchestration& desk, std::size_t& messages) {
    t.script_handoffs();
    run_once(io, [&]() -> asio::awaitable<void> {
        forma::agent_response<> r = co_await desk.run("I was charged twice for order A-17.");
        messages += r.messages.size();
    });
}

void BM_by_hand_sequential(benchmark::State& state) {
    asio::io_context io;
    team t(io);
    std::size_t messages = 0;
    for (auto _ : state) by_hand_sequential_once(io, t, messages);
    benchmark::DoNotOptimize(messages);
}

void BM_sequential_orchestration(benchmark::State& state) {
    asio::io_context io;
    team t(io);
    forma::sequential_orchestration line(t.all());
    std::size_t messages = 0;
    for (auto _ : state) sequential_once(io, t, line, messages);
    benchmark::DoNotOptimize(messages);
}

void BM_by_hand_handoffs(benchmark::State& state) {
    asio::io_context io;
    team t(io);
    const by_hand_desk desk;
    std::size_t messages = 0;
    for (auto _ : state) by_hand_handoffs_once(io, t, desk, messages);
    benchmark::DoNotOptimize(messages);
}

void BM_handoff_orchestration(benchmark::State& state) {
    asio::io_context io;
    team t(io);
    forma::handoff_orchestration desk(t.all(), chain());
    std::size_t messages = 0;
    for (auto _ : state) handoff_once(io, t, desk, messages);
    benchmark::DoNotOptimize(messages);
}

/* The orchestration's own time per step, measured in one place: each iteration times the run
   through the orchestration and the same steps by hand, and reports the difference divided by
   the steps (manual time), so that both sides see the same load. Arg 0: sequential, 1: handoffs. */
void BM_cost_per_step(benchmark::State& state) {
    asio::io_context io;
    team t(io);
    forma::sequential_orchestration line(t.all());
    forma::handoff_orchestration desk(t.all(), chain());
    const by_hand_desk by_hand;
    const bool handoffs = state.range(0) == 1;
    std::size_t messages = 0;
    double total = 0;
    using clock = std::chrono::steady_clock;
    for (auto _ : state) {
        const auto start = clock::now();
        if (handoffs)
            handoff_once(io, t, desk, messages);
        else
            sequential_once(io, t, line, messages);
        const auto middle = clock::now();
        if (handoffs)
            by_hand_handoffs_once(io, t, by_hand, messages);
        else
            by_hand_sequential_once(io, t, messages);
        const auto end = clock::now();
        const double extra = std::max(std::chrono::duration<double>((middle - start) - (end - middle)).count(), 0.0);
        state.SetIterationTime(extra / participants);
        total += extra;
    }
    state.counters["ns_per_step"] = total * 1e9 / (static_cast<double>(state.iterations()) * participants);
    benchmark::DoNotOptimize(messages);
}

} // namespace

BENCHMARK(BM_by_hand_sequential);
BENCHMARK(BM_sequential_orchestration);
BENCHMARK(BM_by_hand_handoffs);
BENCHMARK(BM_handoff_orchestration);
BENCHMARK(BM_cost_per_step)->ArgName("handoffs")->Arg(0)->Arg(1)->UseManualTime();
BENCHMARK_MAIN();
