// Running behind many servers: two instances of an agent server (here in one process, each with
// its own Redis connection, limiter, cache and agent, as separate processes would have) share
// their conversations in Redis. Turns of one conversation go to either instance; two turns at
// once end in a conflict that loses nothing and is retried; a question another instance has
// answered comes from the shared cache.
//
//   many_servers [redis://host:port]     (default: REDIS_URL, else redis://127.0.0.1:6379)
//
// Runs against the OpenAI service when OPENAI_API_KEY is set, else against forma's local model
// server. Its keys start with "forma-example:".
#include "example_support.hpp"

#include <forma/forma.hpp>

#include <iostream>
#include <memory>
#include <string>

namespace asio = boost::asio;
using namespace std::chrono_literals;

namespace {

// One server instance: what it owns itself, and the Redis it shares with the others.
struct instance {
    instance(std::string name, forma::chat_client& model, const forma::redis::client_options& redis_options)
        : name(std::move(name)),
          redis(std::make_shared<forma::redis::client>(model.get_executor(), redis_options)),
          limited(model, {.max_in_flight = 8, .requests_per_minute = 500,
                          .shared_store = std::make_shared<forma::redis::rate_limit_store>(
                              redis, "forma-example:rate-limit")}),
          cached(limited, std::make_shared<forma::redis::response_cache>(redis, "forma-example:cache:"),
                 {.ttl = 10min}),
          agent(std::make_shared<forma::chat_client_agent>(
              cached, forma::chat_client_agent_options{.name = "support",
                                                       .instructions = "You help customers with their orders.",
                                                       .chat_options = {.temperature = 0.0},
                                                       .history_limit = forma::history_limit{.max_messages = 20}})),
          conversations(agent, std::make_shared<forma::redis::session_store>(
                                   redis, forma::redis::session_store_options{.key_prefix = "forma-example:session:",
                                                                              .ttl = 24h})) {}

    std::string name;
    std::shared_ptr<forma::redis::client> redis;
    forma::concurrency_limiter limited;
    forma::caching_chat_client cached;
    std::shared_ptr<forma::chat_client_agent> agent;
    forma::stored_agent conversations;
};

asio::awaitable<std::string> drain(forma::update_stream& stream) {
    std::string text;
    while (auto update = co_await stream.next()) text += update->text();
    co_return text;
}

asio::awaitable<void> show_stored(instance& on, const forma::session_id& id) {
    const std::optional<forma::agent_session> stored = co_await on.conversations.store()->load(id);
    std::cout << "stored: " << stored->history.size() << " messages, version " << stored->version << '\n';
}

} // namespace

int main(int argc, char** argv) {
    asio::io_context io;
    example::model model(io, {.chunk_delay = 5ms}); // streamed answers take a moment: turns overlap
    const std::string url = argc > 1 ? argv[1] : example::environment("REDIS_URL", "redis://127.0.0.1:6379");
    try {
        const auto redis_options = forma::redis::client_options::from_url(url);
        instance a("a", model.client(), redis_options);
        instance b("b", model.client(), redis_options);
        example::run(io, [&]() -> asio::awaitable<void> {
            co_await a.redis->connect(); // a Redis that is down shows here, at start
            std::cout << "connected to " << a.redis->name() << '\n';
            const forma::session_id id("support-42");
            co_await a.conversations.store()->erase(id); // a clean start for the example
            co_await a.conversations.store()->erase(forma::session_id("support-43"));

            // Turns of one conversation, each on either instance.
            const std::vector<std::pair<instance*, std::string>> turns{
                {&a, "My name is Ada and my order 1234 has not arrived."},
                {&b, "It was due on Monday."},
                {&a, "Can you check where it is?"}};
            for (const auto& [on, question] : turns) {
                const forma::agent_response<> answer = co_await on->conversations.run(question, id);
                std::cout << "instance " << on->name << ": " << answer.text() << '\n';
            }
            co_await show_stored(a, id);

            // Two turns at once: both instances load the conversation before either saves.
            forma::update_stream on_a = a.conversations.run_streaming("Please send a new one.", id);
            forma::update_stream on_b = b.conversations.run_streaming("Or refund me instead.", id);
            std::optional<forma::agent_response_update> first_a = co_await on_a.next();
            std::optional<forma::agent_response_update> first_b = co_await on_b.next();
            std::string text_a = first_a ? first_a->text() : "";
            std::string text_b = first_b ? first_b->text() : "";
            text_a += co_await drain(on_a);
            std::cout << "instance a: " << text_a << '\n';
            try {
                text_b += co_await drain(on_b);
                std::cout << "instance b: " << text_b << " (no conflict)\n";
            } catch (const forma::stored_run_conflict_error& e) {
                std::cout << "instance b was refused: another instance saved first (version " << e.stored_version()
                          << "); its unsaved answer was kept: " << e.response().text() << '\n';
            }
            // The clean retry, on the conversation as it is now.
            const forma::agent_response<> retried = co_await b.conversations.run("Or refund me instead.", id);
            std::cout << "instance b, retried: " << retried.text() << '\n';
            co_await show_stored(b, id);

            // Another conversation opening with the same question: b's model is not asked again.
            const forma::agent_response<> same = co_await b.conversations.run(turns[0].second, forma::session_id("support-43"));
            std::cout << "a new conversation, the same first question: " << same.text() << " ("
                      << (b.cached.hits() > 0 ? "from the shared cache" : "asked the model") << ")\n";
        }());
    } catch (const std::exception& e) {
        std::cerr << "many_servers failed: " << e.what() << '\n';
        return 1;
    }
}
