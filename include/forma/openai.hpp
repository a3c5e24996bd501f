#pragma once

/// The OpenAI clients (Chat Completions and Responses) and the errors they report.
#include <forma/net/http_error.hpp>
#include <forma/net/stream_error.hpp>
#include <forma/net/transport_error.hpp>
#include <forma/openai/chat_client.hpp>
#include <forma/openai/client_options.hpp>
#include <forma/openai/responses_client.hpp>
#include <forma/openai/responses_client_options.hpp>
#include <forma/openai/responses_token.hpp>
