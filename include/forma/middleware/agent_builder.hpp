#pragma once

#include <forma/agent/agent.hpp>
#include <forma/agent/session_store.hpp>
#include <forma/chat/chat_client.hpp>
#include <forma/middleware/telemetry_agent.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace forma {

/** Stacks decorators on an agent:

        auto agent = forma::agent_builder(inner)
                         .use_telemetry({.exporter = exporter}) // outermost
                         .use_session_store(store)
                         .use(my_decorator_factory)
                         .use_structured_output(chat_client) // innermost decorator
                         .build();

    The first `use` is the outermost decorator: it sees a run first.
*/
class agent_builder {
public:
    using factory = std::function<std::shared_ptr<agent>(std::shared_ptr<agent> inner)>;

    explicit agent_builder(std::shared_ptr<agent> inner);
    /// Decorates an agent the caller owns; it must outlive what build() returns.
    explicit agent_builder(agent& inner);

    agent_builder& use(factory decorator) &;
    agent_builder&& use(factory decorator) &&;

    /// Adds a structured_output_agent that asks `client` to turn the inner answer into
    /// the requested format. The client must outlive the built agent.
    agent_builder& use_structured_output(chat_client& client) &;
    agent_builder&& use_structured_output(chat_client& client) &&;

    /// Adds a telemetry_agent recording each run (spans and metrics) to `options.exporter`.
    agent_builder& use_telemetry(telemetry_options options) &;
    agent_builder&& use_telemetry(telemetry_options options) &&;

    /** Adds a stored_agent: runs by session_id load the session from `store`, and every run's
        session is saved there after it.
    */
    agent_builder& use_session_store(std::shared_ptr<session_store> store) &;
    agent_builder&& use_session_store(std::shared_ptr<session_store> store) &&;

    /// The decorated agent (the inner one when nothing was added).
    std::shared_ptr<agent> build() const;

private:
    std::shared_ptr<agent> inner_;
    std::vector<factory> factories_;
};

} // namespace forma
