#pragma once

#include <forma/agent/agent.hpp>
#include <forma/chat/operation_span.hpp>

#include <string_view>

namespace forma::agent_detail {

/// Starts the `invoke_agent {name}` span of one run of `agent` under `parent` (telemetry_agent's
/// span of its run, an orchestration's of a participant's step).
telemetry::operation_span start_agent_span(const agent& agent, telemetry::trace_parent parent,
                                           std::string_view provider_name, const agent_run& run, bool streaming);

} // namespace forma::agent_detail
