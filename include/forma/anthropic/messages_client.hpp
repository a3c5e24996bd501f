#pragma once

#include <forma/anthropic/client_options.hpp>
#include <forma/chat/chat_client.hpp>

#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <memory>
#include <span>

namespace forma::anthropic {

namespace detail {
struct messages_client_state;
}

/// Anthropic's rate-limit headers (`anthropic-ratelimit-requests-*`, `-tokens-*`; resets as RFC 3339 times).
inline constexpr rate_limit_headers ratelimit_headers{
    .limit_requests = "anthropic-ratelimit-requests-limit",
    .limit_tokens = "anthropic-ratelimit-tokens-limit",
    .remaining_requests = "anthropic-ratelimit-requests-remaining",
    .remaining_tokens = "anthropic-ratelimit-tokens-remaining",
    .reset_requests = "anthropic-ratelimit-requests-reset",
    .reset_tokens = "anthropic-ratelimit-tokens-reset",
};

/** A chat_client for Anthropic's Messages API (`POST /v1/messages`) and the servers that speak
    it (llama.cpp's llama-server), over HTTPS or HTTP, whole and streamed.

    Built on the provider kit as openai::chat_client is: the same pooled connections, retries
    (429, 5xx, 529 overloaded) after `retry-after`, deadlines, size limits and redaction of the
    key (sent as `x-api-key`, with `anthropic-version` and `anthropic-beta`). Requests are built
    by build_request, answers read by parse_message and stream_parser, errors by parse_error
    (http_error with the error's type: overloaded_error, rate_limit_error, ...). Rate limits
    come on the response (and a stream's first update) from `anthropic-ratelimit-*`.

    Errors, cancellation, telemetry and threading are as openai::chat_client's.
*/
class messages_client final : public forma::chat_client {
public:
    /// @throws forma::error for a base_url that does not parse, or a trust anchor that cannot be read.
    messages_client(executor_type executor, client_options options);
    ~messages_client() override;

    messages_client(const messages_client&) = delete;
    messages_client& operator=(const messages_client&) = delete;

    executor_type get_executor() const override;

    /// "anthropic", the server's host and port, the client's model, both structured-output
    /// modes (client_options::structured_output_mode first), the strict dialect.
    provider_metadata provider() const override;

    const client_options& options() const noexcept;

    /// The input tokens `messages` would cost under `options` (`POST /v1/messages/count_tokens`).
    /// @throws as get_response.
    boost::asio::awaitable<std::int64_t> count_tokens(std::span<const chat_message> messages, chat_options options = {});

protected:
    boost::asio::awaitable<agent_response<>> get_response_core(chat_request request) override;
    update_stream get_streaming_response_core(chat_request request) override;

private:
    std::shared_ptr<detail::messages_client_state> state_;
};

} // namespace forma::anthropic
