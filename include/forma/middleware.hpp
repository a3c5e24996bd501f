#pragma once
/// Decorators over agents, and the builder that stacks agents. (The chat-client decorators,
/// response cache and limiter, are on the chat floor: <forma/chat.hpp>, included here for one
/// release.)
#include <forma/chat/caching_chat_client.hpp>
#include <forma/chat/concurrency_limiter.hpp>
#include <forma/chat/response_cache.hpp>
#include <forma/middleware/agent_builder.hpp>
#include <forma/agent/delegating_agent.hpp>
#include <forma/middleware/structured_output_agent.hpp>
#include <forma/middleware/telemetry_agent.hpp>
