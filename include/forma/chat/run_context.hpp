#pragma once

#include <forma/telemetry/trace_parent.hpp>

#include <optional>

namespace forma {

/** What one run hands down to everything it calls (agents, chat clients, tools) besides
    their requests: the trace the calls belong to. Never sent to a model and never part of a
    request's identity (a response cache ignores it).

    telemetry_agent sets it for the agents and chat clients below it; a server that received
    a W3C `traceparent` may set it to make a run a child span of the caller's.
*/
struct run_context {
    /** The span the next operation is a child of, and where its telemetry goes. A
        telemetry_chat_client makes each call below it a child span of it, a provider's client
        sends its W3C `traceparent` header, and the tool loop makes each tool call a child span.
        Unset: no telemetry.
    */
    std::optional<telemetry::trace_parent> trace{};

    friend bool operator==(const run_context&, const run_context&) = default;
};

} // namespace forma
