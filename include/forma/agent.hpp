#pragma once
/// Agents: the agent base with run / run_streaming / run<T>, run options, sessions and their
/// stores, history limits, the agent over a chat client, and as_tool; with the chat floor
/// headers an agent user needs (chat client, options, update streams).
#include <forma/agent/agent.hpp>
#include <forma/agent/agent_input.hpp>
#include <forma/agent/agent_run.hpp>
#include <forma/agent/agent_run_options.hpp>
#include <forma/agent/agent_session.hpp>
#include <forma/agent/as_tool.hpp>
#include <forma/agent/chat_client_agent.hpp>
#include <forma/agent/delegating_agent.hpp>
#include <forma/agent/history_limit.hpp>
#include <forma/agent/in_memory_session_store.hpp>
#include <forma/agent/in_memory_task_store.hpp>
#include <forma/agent/served_agent.hpp>
#include <forma/agent/agent_task.hpp>
#include <forma/agent/task_store.hpp>
#include <forma/agent/session_id.hpp>
#include <forma/agent/session_ref.hpp>
#include <forma/agent/session_store.hpp>
#include <forma/agent/stored_agent.hpp>
#include <forma/chat/chat_client.hpp>
#include <forma/chat/chat_options.hpp>
#include <forma/chat/provider_metadata.hpp>
#include <forma/chat/structured_output_mode.hpp>
#include <forma/chat/update_stream.hpp>
