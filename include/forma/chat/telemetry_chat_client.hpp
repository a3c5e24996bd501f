#pragma once

#include <forma/chat/delegating_chat_client.hpp>

#include <memory>

namespace forma {

/** Records each call of the client below it as an OpenTelemetry GenAI `chat` span (and the
    client metrics: duration, token usage, time to first chunk), a child of the trace the
    request's run_context carries, as Microsoft.Extensions.AI's OpenTelemetryChatClient does.
    The span reports the provider, server and default model of the client below
    (chat_client::provider()); the client below gets the span as its run's trace, so that a
    provider's client sends it as the W3C `traceparent`. A request without a trace passes
    through unrecorded. chat_client_builder::use_telemetry() adds one; under a tool loop each
    model call is a span of its own.
*/
class telemetry_chat_client : public delegating_chat_client {
public:
    using delegating_chat_client::delegating_chat_client;

protected:
    boost::asio::awaitable<agent_response<>> get_response_core(chat_request request) override;
    update_stream get_streaming_response_core(chat_request request) override;

private:
    class recorded_stream;
};

} // namespace forma
