#pragma once

#include <forma/chat/structured_output_mode.hpp>
#include <forma/net/retry_policy.hpp>
#include <forma/net/timeouts.hpp>
#include <forma/net/tls_trust.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace forma::anthropic {

/// Where a request marks prompt-cache breakpoints (`cache_control`), and for how long.
enum class prompt_cache {
    /// No breakpoints: the server caches nothing.
    none,
    /// The tools, the system prompt and the conversation so far, kept 5 minutes.
    five_minutes,
    /// The same, kept an hour (priced higher by Anthropic).
    one_hour,
};

/** How an anthropic::messages_client reaches its server.

        forma::anthropic::messages_client client(io.get_executor(), {
            .api_key = key, .model = "claude-sonnet-4-5"});
*/
struct client_options {
    /// "https://api.anthropic.com/v1", or a server that speaks the Messages API
    /// ("http://localhost:8080/v1" for llama.cpp's llama-server).
    std::string base_url = "https://api.anthropic.com/v1";
    /// Sent as `x-api-key`; empty sends none (local servers).
    std::string api_key{};
    /// `anthropic-version`.
    std::string version = "2023-06-01";
    /// `anthropic-beta`, comma-joined, when not empty.
    std::vector<std::string> betas{};
    /// The model used when a request's chat_options name none.
    std::string model{};
    /// The output token limit sent when a request's chat_options set none (the API requires one).
    std::int64_t max_tokens = 4096;
    /// Further headers on every request (e.g. a gateway's own).
    std::vector<std::pair<std::string, std::string>> headers{};

    /// Which servers are trusted over TLS (extra anchors, verification, or a context of your own).
    net::tls_trust trust{};
    net::timeouts timeouts{};
    net::retry_policy retry{};
    /// The largest non-streamed response body; past it the request fails (transport_error body_too_large).
    std::size_t max_response_body = 32 * 1024 * 1024;
    /// The largest single server-sent event of a stream; past it the stream fails (stream_error event_too_large).
    std::size_t max_stream_event = 1024 * 1024;
    /// The most bytes one streamed response body may carry; past it the stream fails (stream_error stream_too_large).
    std::size_t max_stream_bytes = 64 * 1024 * 1024;
    /// Idle connections kept for reuse by later requests.
    std::size_t max_idle_connections = 8;

    /** How requests ask for a JSON Schema answer when their chat options do not say: `native`
        sends `output_config.format` (Claude models that take structured outputs); `tool` forces a
        call of the tool final_result whose input is the answer (every model that calls tools,
        and llama-server, which ignores `output_config`).
    */
    forma::structured_output_mode structured_output_mode = forma::structured_output_mode::native;
    /// Prompt-cache breakpoints on every request.
    prompt_cache cache = prompt_cache::none;
    /** Extended thinking: `thinking: {"type": "enabled", "budget_tokens": N}` when N > 0 (at
        least 1024 and below the output token limit, as the API requires). Thinking comes back as
        text_reasoning_content whose protected_data is its signature; keep it in the session so
        that it goes back unchanged with the next turn, as the API requires for tool use.
    */
    std::int64_t thinking_budget_tokens = 0;
};

} // namespace forma::anthropic
