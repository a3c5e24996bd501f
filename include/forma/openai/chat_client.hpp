#pragma once

#include <forma/chat/chat_client.hpp>
#include <forma/openai/client_options.hpp>

#include <memory>

namespace forma::openai {

namespace detail {
struct chat_client_state;
}

/** A chat_client for OpenAI's Chat Completions API and the servers that speak it
    (Azure OpenAI, Ollama, vLLM, llama.cpp server, LM Studio), over HTTPS or HTTP.

    Every operation runs on the executor given at construction; nothing runs on
    threads of its own. Sequential requests reuse one connection; concurrent
    requests open their own, and return them for reuse when their response ends.

    Requests are built by build_request, responses read by parse_response and
    stream_parser. A request that fails before any response byte (a connection
    failure) or with a retryable status (408, 409, 429, 5xx) is repeated by the
    retry policy, honouring `Retry-After`; a stream is never repeated once its
    body has begun.

    Errors: http_error (a status other than 2xx, or an error inside a stream;
    any copy of the API key in the provider's message is replaced by
    "[redacted]"), transport_error (unreachable, untrusted, timed out, closed),
    stream_error (a stream that ended without completing), json_error (a body
    that is not the API's JSON), forma::error (a request that cannot be built).
    Cancellation through the awaiting coroutine's cancellation slot, or
    destroying a stream, closes the connection at once and throws
    `boost::system::system_error` (`operation_aborted`) for a cancelled wait.

    Telemetry: a call whose run context carries a trace sends the W3C `traceparent`
    header of that trace's span; a telemetry_chat_client above it
    (chat_client_builder::use_telemetry) records the call as a span `chat {model}`.

    Like an Asio I/O object, a client is used from one thread at a time: run its
    io_context on one thread, or give it a strand. Operations and streams keep
    what they need alive, so the client may be destroyed before them.
*/
class chat_client final : public forma::chat_client {
public:
    /// @throws forma::error for a base_url that does not parse, or a ca_file that cannot be read.
    chat_client(executor_type executor, client_options options);
    ~chat_client() override;

    chat_client(const chat_client&) = delete;
    chat_client& operator=(const chat_client&) = delete;

    executor_type get_executor() const override;

    /// "openai" ("azure.ai.openai" in Azure mode), the server's host and port, the client's model,
    /// both structured-output modes (client_options::structured_output_mode first), the strict dialect.
    provider_metadata provider() const override;

    const client_options& options() const noexcept;

    /// Idle connections held for reuse now.
    std::size_t idle_connections() const noexcept;

protected:
    boost::asio::awaitable<agent_response<>> get_response_core(chat_request request) override;
    update_stream get_streaming_response_core(chat_request request) override;

private:
    std::shared_ptr<detail::chat_client_state> state_;
};

} // namespace forma::openai
