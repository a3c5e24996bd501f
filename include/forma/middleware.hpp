#pragma once

/// Decorators over agents and chat clients, and the builder that stacks agents.
#include <forma/middleware/agent_builder.hpp>
#include <forma/middleware/caching_chat_client.hpp>
#include <forma/middleware/concurrency_limiter.hpp>
#include <forma/middleware/delegating_agent.hpp>
#include <forma/middleware/response_cache.hpp>
#include <forma/middleware/structured_output_agent.hpp>
#include <forma/middleware/telemetry_agent.hpp>
#include <forma/net/rate_limits.hpp>
