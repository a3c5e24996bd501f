#include <forma/chat/telemetry_chat_client.hpp>

#include <forma/chat/operation_span.hpp>
#include <forma/telemetry/gen_ai.hpp>

#include <exception>

namespace forma {

namespace asio = boost::asio;

namespace {

// The span of one call, a child of the request's trace; the request then carries the span as its trace.
telemetry::operation_span start_span(const chat_client& client, chat_request& request, bool stream) {
    provider_metadata provider = client.provider();
    std::string name(telemetry::gen_ai::operation::chat);
    const std::string& model = request.options.model.empty() ? provider.default_model : request.options.model;
    if (!model.empty()) name.append(" ").append(model);
    telemetry::operation_span span(*request.context.trace,
                                   {.operation_name = telemetry::gen_ai::operation::chat,
                                    .span_name = std::move(name),
                                    .provider = std::move(provider),
                                    .request = &request.options,
                                    .streaming = stream,
                                    .input_messages = &request.messages});
    if (span.recording()) request.context.trace = span.child();
    return span;
}

} // namespace

asio::awaitable<agent_response<>> telemetry_chat_client::get_response_core(chat_request request) {
    if (!request.context.trace) co_return co_await inner().get_response(std::move(request));
    telemetry::operation_span span = start_span(inner(), request, false);
    try {
        agent_response<> response = co_await inner().get_response(std::move(request));
        span.end(response);
        co_return response;
    } catch (...) {
        span.fail(std::current_exception());
        throw;
    }
}

// The inner stream, each update added to the span, which ends with the stream.
class telemetry_chat_client::recorded_stream final : public update_source {
public:
    recorded_stream(telemetry::operation_span span, update_stream inner)
        : span_(std::move(span)), inner_(std::move(inner)) {}

    asio::awaitable<std::optional<agent_response_update>> next() override {
        try {
            std::optional<agent_response_update> update = co_await inner_.next();
            if (update)
                span_.add_update(*update);
            else
                span_.end();
            co_return update;
        } catch (...) {
            span_.fail(std::current_exception());
            throw;
        }
    }

private:
    telemetry::operation_span span_;
    update_stream inner_;
};

update_stream telemetry_chat_client::get_streaming_response_core(chat_request request) {
    if (!request.context.trace) return inner().get_streaming_response(std::move(request));
    telemetry::operation_span span = start_span(inner(), request, true);
    const auto executor = get_executor();
    update_stream inner_stream = inner().get_streaming_response(std::move(request));
    return update_stream(executor, std::make_unique<recorded_stream>(std::move(span), std::move(inner_stream)));
}

} // namespace forma
