#pragma once

/// Agents: the chat client interface, the agent base with run / run_streaming / run<T>,
/// options, sessions, update streams, and the agent over a chat client.
#include <forma/agent/agent.hpp>
#include <forma/agent/agent_run_options.hpp>
#include <forma/agent/agent_session.hpp>
#include <forma/agent/in_memory_session_store.hpp>
#include <forma/agent/session_store.hpp>
#include <forma/agent/stored_agent.hpp>
#include <forma/agent/chat_client.hpp>
#include <forma/agent/chat_client_agent.hpp>
#include <forma/agent/chat_options.hpp>
#include <forma/agent/history_limit.hpp>
#include <forma/agent/provider_metadata.hpp>
#include <forma/agent/structured_format.hpp>
#include <forma/agent/structured_output_mode.hpp>
#include <forma/agent/update_stream.hpp>
