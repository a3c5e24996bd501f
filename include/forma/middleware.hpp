#pragma once

/// Decorators over agents and the builder that stacks them.
#include <forma/middleware/agent_builder.hpp>
#include <forma/middleware/delegating_agent.hpp>
#include <forma/middleware/structured_output_agent.hpp>
#include <forma/middleware/telemetry_agent.hpp>
