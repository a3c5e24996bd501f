#pragma once

/// The OpenAI-compatible chat client and the errors it reports.
#include <forma/net/http_error.hpp>
#include <forma/net/stream_error.hpp>
#include <forma/net/transport_error.hpp>
#include <forma/openai/chat_client.hpp>
#include <forma/openai/client_options.hpp>
