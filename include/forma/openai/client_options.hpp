#pragma once

#include <forma/chat/structured_output_mode.hpp>
#include <forma/net/retry_policy.hpp>
#include <forma/net/timeouts.hpp>
#include <forma/net/tls_trust.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace forma::openai {

/** Azure OpenAI: requests go to `{base_url}/deployments/{deployment}/chat/completions?api-version={api_version}`
    with the key in an `api-key` header; base_url is "https://{resource}.openai.azure.com/openai".
*/
struct azure_options {
    std::string deployment{};
    std::string api_version = "2024-10-21";
};

/** How an openai::chat_client reaches its server.

        forma::openai::chat_client client(io.get_executor(), {
            .base_url = "https://api.openai.com/v1", .api_key = key, .model = "gpt-4o-mini"});
*/
struct client_options {
    /// "https://api.openai.com/v1", or any OpenAI-compatible server ("http://localhost:11434/v1").
    std::string base_url = "https://api.openai.com/v1";
    /// Sent as `Authorization: Bearer ...` (`api-key` for Azure); empty sends none (local servers).
    std::string api_key{};
    /// The model used when a request's chat_options name none.
    std::string model{};
    /// `OpenAI-Organization` and `OpenAI-Project`, when not empty.
    std::string organization{};
    std::string project{};
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
    /// The most bytes one streamed response body may carry; past it the stream fails
    /// (stream_error stream_too_large). A 128k-token answer streams about 32 MiB.
    std::size_t max_stream_bytes = 64 * 1024 * 1024;
    /// Idle connections kept for reuse by later requests.
    std::size_t max_idle_connections = 8;

    std::optional<azure_options> azure{};
    /** How requests ask for a JSON Schema answer when their chat options do not say:
        `tool` for servers that call functions but ignore or refuse JSON Schema
        response formats (see forma::structured_output_mode).
    */
    forma::structured_output_mode structured_output_mode = forma::structured_output_mode::native;
};

} // namespace forma::openai
