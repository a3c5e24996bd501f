#include "agent_span.hpp"

#include <forma/telemetry/gen_ai.hpp>

#include <string>

namespace forma::agent_detail {

telemetry::operation_span start_agent_span(const agent& agent, telemetry::trace_parent parent,
                                           std::string_view provider_name, const agent_run& run, bool streaming) {
    const chat_options request = agent.effective_chat_options(run.options);
    provider_metadata provider = agent.provider();
    if (provider.name.empty()) provider.name = provider_name;
    std::string span_name(telemetry::gen_ai::operation::invoke_agent);
    if (!agent.name().empty()) span_name.append(" ").append(agent.name());
    return telemetry::operation_span(std::move(parent),
                                     {.operation_name = telemetry::gen_ai::operation::invoke_agent,
                                      .span_name = std::move(span_name),
                                      .provider = std::move(provider),
                                      .request = &request,
                                      .streaming = streaming,
                                      .agent_id = agent.id(),
                                      .agent_name = agent.name(),
                                      .agent_description = agent.description(),
                                      .conversation_id = run.session->id.str(),
                                      .input_messages = &run.messages});
}

} // namespace forma::agent_detail
