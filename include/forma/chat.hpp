#pragma once
/// The chat floor: the chat client interface and its options, update streams, tool
/// declarations (function_tool, make_tool, tool_choice), the tool loop
/// (function_invoking_chat_client), the chat-client decorators (response cache, limiter), the
/// chat and execute_tool spans, and the token estimate.
#include <forma/chat/answer_tool.hpp>
#include <forma/chat/caching_chat_client.hpp>
#include <forma/chat/chat_client.hpp>
#include <forma/chat/chat_client_builder.hpp>
#include <forma/chat/chat_options.hpp>
#include <forma/chat/concurrency_limiter.hpp>
#include <forma/chat/delegating_chat_client.hpp>
#include <forma/chat/function_invoking_chat_client.hpp>
#include <forma/chat/function_tool.hpp>
#include <forma/chat/make_tool.hpp>
#include <forma/chat/operation_span.hpp>
#include <forma/chat/provider_exchange.hpp>
#include <forma/chat/provider_metadata.hpp>
#include <forma/chat/provider_transport.hpp>
#include <forma/chat/rate_limit_store.hpp>
#include <forma/chat/response_cache.hpp>
#include <forma/chat/structured_output_mode.hpp>
#include <forma/chat/telemetry_chat_client.hpp>
#include <forma/chat/token_estimator.hpp>
#include <forma/chat/tool_choice.hpp>
#include <forma/chat/tool_error.hpp>
#include <forma/chat/tool_span.hpp>
#include <forma/chat/update_stream.hpp>
