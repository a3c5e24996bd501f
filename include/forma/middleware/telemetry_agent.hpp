#pragma once

#include <forma/agent/delegating_agent.hpp>
#include <forma/telemetry/exporter.hpp>
#include <forma/telemetry/trace_parent.hpp>

#include <memory>
#include <optional>
#include <string>

namespace forma {

/// What a telemetry_agent records and where it sends it (agent_builder::use_telemetry takes it too).
struct telemetry_options {
    /// Where spans and metrics go (telemetry::in_memory_exporter, telemetry::otlp_http_exporter, your own).
    std::shared_ptr<telemetry::exporter> exporter{};
    /** Records message contents: gen_ai.input.messages, gen_ai.output.messages and
        gen_ai.system_instructions. Unset: on when the environment variable
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is "true", else off.
    */
    std::optional<bool> sensitive_data{};
    /// gen_ai.provider.name when the agent's provider() does not name one.
    std::string provider_name{};
};

/** Records every run of the inner agent as an OpenTelemetry span named
    `invoke_agent {agent name}` (kind CLIENT) with the GenAI semantic conventions'
    attributes, and as the GenAI client metrics (operation duration, token usage,
    time to first chunk for streams).

    The run's context carries the span down (agent_run_options::context), so a
    chat client that records telemetry, as openai::chat_client does, adds its
    `chat {model}` span as a child and sends a W3C `traceparent` header. A run
    whose context already carries a trace (an outer telemetry_agent's, or a tool
    call's) becomes its child.

    Telemetry never changes a run: its answer, its updates and its errors pass
    through unchanged, and a failing exporter fails no run. As with every agent,
    a stream must not outlive the agent that made it.
*/
class telemetry_agent : public delegating_agent {
public:
    /// @throws error without an exporter.
    telemetry_agent(std::shared_ptr<agent> inner, telemetry_options options);

    /// Whether message contents are recorded.
    bool sensitive_data() const noexcept { return sensitive_data_; }
    const std::shared_ptr<telemetry::exporter>& exporter() const noexcept { return exporter_; }

protected:
    boost::asio::awaitable<agent_response<>> run_core(agent_run run) override;
    update_stream run_streaming_core(agent_run run) override;

private:
    /// The parent of a run's span: the one its options carry, else none (a new trace).
    telemetry::trace_parent parent_of(const agent_run_options& options) const;

    std::shared_ptr<telemetry::exporter> exporter_;
    bool sensitive_data_;
    std::string provider_name_;

    class streaming_run;
};

} // namespace forma
