#pragma once

/// Anthropic's Messages API client and the errors it reports.
#include <forma/anthropic/client_options.hpp>
#include <forma/anthropic/messages_client.hpp>
#include <forma/net/http_error.hpp>
#include <forma/net/stream_error.hpp>
#include <forma/net/transport_error.hpp>
