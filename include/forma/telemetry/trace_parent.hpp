#pragma once

#include <forma/telemetry/span_context.hpp>

#include <memory>

namespace forma::telemetry {

class exporter;

/** The span an operation is part of, and where its telemetry goes: what a
    telemetry_agent hands down in chat_options so that a chat client records
    its call as a child span and sends the W3C `traceparent` of that call.
*/
struct trace_parent {
    std::shared_ptr<telemetry::exporter> exporter{};
    /// The parent span; an invalid context makes the next span the root of a new trace.
    span_context context{};
    /// Whether message contents may be recorded (gen_ai.input.messages and the like).
    bool sensitive_data = false;

    friend bool operator==(const trace_parent&, const trace_parent&) = default;
};

} // namespace forma::telemetry
