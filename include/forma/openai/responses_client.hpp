#pragma once

#include <forma/chat/chat_client.hpp>
#include <forma/openai/client_options.hpp>
#include <forma/openai/responses_client_options.hpp>
#include <forma/openai/responses_token.hpp>

#include <memory>

namespace forma::openai {

namespace detail {
struct responses_client_state;
}

/** A chat_client for OpenAI's Responses API (`POST /v1/responses`), with
    background runs that are polled, resumed and cancelled by continuation token.

    It shares openai::chat_client's transport: connections, TLS, retries
    (a stream is never repeated once its body has begun), timeouts, limits, Azure
    mode (`{base_url}/responses?api-version=...`, api_version 2025-03-01-preview
    or later, the deployment as the model of requests that name none), key
    redaction, and its errors (http_error, transport_error, stream_error,
    json_error, forma::error for a request that cannot be built). Requests are
    built by build_responses_request, answers read by parse_responses_response and
    responses_stream_parser. function_invoking_chat_client (and so an agent with
    tools) works over it as over chat_client.

    Long-running runs:
    - `chat_options::allow_background_responses` sends `background: true`: the
      server answers at once, and get_response returns no messages and a
      continuation_token while the response is queued or in progress.
    - A request whose chat_options carry that token polls `GET /v1/responses/{id}`
      instead of creating a response: a finished response comes back whole (no
      token), an unfinished one with a fresh token. Its messages are ignored.
    - A background stream's updates each carry a token (the response id and the
      last event's sequence number), the final one none. After a dropped
      connection, get_streaming_response with the last token resumes with
      `GET /v1/responses/{id}?stream=true&starting_after=N`: no event is lost or
      repeated (events the server sends again are skipped; a server that answers a
      resumption with a whole response is a stream_error).
    - cancel(token) stops a background response.
    Tokens are responses_token values as JSON: serialize them with
    continuation_token::to_string, and any responses_client that reaches the same
    server (another process) can finish the run. A token another client issued
    is refused with an error that says so; a response the server does not know
    is an http_error with status 404.

    Telemetry: every call (a creation, a poll, a resumption, a cancellation) whose
    run context carries a trace sends the W3C `traceparent` header of that trace's
    span; a telemetry_chat_client above it (chat_client_builder::use_telemetry)
    records creations, polls and resumptions as spans `chat {model}`.

    Used from one thread at a time, like an Asio I/O object; operations and
    streams keep what they need alive.
*/
class responses_client final : public forma::chat_client {
public:
    /// @throws forma::error for a base_url that does not parse, a ca_file that cannot be read,
    ///         or Azure options whose api_version has no Responses API.
    responses_client(executor_type executor, client_options options, responses_client_options settings = {});
    ~responses_client() override;

    responses_client(const responses_client&) = delete;
    responses_client& operator=(const responses_client&) = delete;

    executor_type get_executor() const override;

    /// "openai" ("azure.ai.openai" in Azure mode), the server's host and port, the client's model,
    /// both structured-output modes (client_options::structured_output_mode first), the strict dialect.
    provider_metadata provider() const override;

    /** Cancels the background response `token` names (`POST /v1/responses/{id}/cancel`);
        `context` may carry the trace the call belongs to.
        @returns the response as it stands after the cancellation.
        @throws error for a token this client cannot read; http_error as get_response.
    */
    boost::asio::awaitable<agent_response<>> cancel(const continuation_token& token, run_context context);
    boost::asio::awaitable<agent_response<>> cancel(const continuation_token& token) { return cancel(token, run_context()); }
    /// cancel() for any completion token; the handler gets (std::exception_ptr, agent_response<>).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_cancel(continuation_token token, CompletionToken&& completion = {}) {
        return boost::asio::co_spawn(
            get_executor(),
            [](responses_client& self, continuation_token t) -> boost::asio::awaitable<agent_response<>> {
                co_return co_await self.cancel(t);
            }(*this, std::move(token)),
            std::forward<CompletionToken>(completion));
    }

    const client_options& options() const noexcept;
    const responses_client_options& settings() const noexcept;

    /// Idle connections held for reuse now.
    std::size_t idle_connections() const noexcept;

protected:
    boost::asio::awaitable<agent_response<>> get_response_core(chat_request request) override;
    update_stream get_streaming_response_core(chat_request request) override;

private:
    std::shared_ptr<detail::responses_client_state> state_;
};

} // namespace forma::openai
