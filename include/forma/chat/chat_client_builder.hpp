#pragma once

#include <forma/chat/caching_chat_client.hpp>
#include <forma/chat/chat_client.hpp>
#include <forma/chat/concurrency_limiter.hpp>
#include <forma/chat/function_invoking_chat_client.hpp>
#include <forma/chat/telemetry_chat_client.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace forma {

/** Stacks decorators on a chat client, as agent_builder does on an agent:

        auto client = forma::chat_client_builder(provider)
                          .use_function_invocation()            // outermost: the tool loop
                          .use_telemetry()                      // a chat span per model call
                          .use_cache(cache)                     // then the response cache
                          .use_concurrency_limit({.max_in_flight = 8}) // innermost, next to the provider
                          .build();

    The first `use` is the outermost decorator: it sees a request first. The built client owns
    its decorators and, when given as a shared_ptr, the inner client.
*/
class chat_client_builder {
public:
    using factory = std::function<std::shared_ptr<chat_client>(std::shared_ptr<chat_client> inner)>;

    /// @throws error for a null client.
    explicit chat_client_builder(std::shared_ptr<chat_client> inner);
    /// Decorates a client the caller owns; it must outlive what build() returns.
    explicit chat_client_builder(chat_client& inner);

    chat_client_builder& use(factory decorator) &;
    chat_client_builder&& use(factory decorator) &&;

    /// Adds the tool loop (function_invoking_chat_client).
    chat_client_builder& use_function_invocation(function_invocation_options options = {}) &;
    chat_client_builder&& use_function_invocation(function_invocation_options options = {}) &&;

    /// Adds a caching_chat_client over `cache`.
    chat_client_builder& use_cache(std::shared_ptr<response_cache> cache, caching_chat_client_options options = {}) &;
    chat_client_builder&& use_cache(std::shared_ptr<response_cache> cache, caching_chat_client_options options = {}) &&;

    /// Adds a concurrency_limiter.
    chat_client_builder& use_concurrency_limit(concurrency_limiter_options options = {}) &;
    chat_client_builder&& use_concurrency_limit(concurrency_limiter_options options = {}) &&;

    /// Adds a telemetry_chat_client: each call below it is a `chat` span of the run's trace.
    chat_client_builder& use_telemetry() &;
    chat_client_builder&& use_telemetry() &&;

    /// The decorated client (the inner one when nothing was added).
    /// @throws error when a factory returns no client.
    std::shared_ptr<chat_client> build() const;

private:
    std::shared_ptr<chat_client> inner_;
    std::vector<factory> factories_;
};

} // namespace forma
