#include <forma/middleware/telemetry_agent.hpp>

#include <forma/error.hpp>

#include "../agent/agent_span.hpp"

#include <cstdlib>
#include <string_view>

namespace forma {

namespace {

bool capture_from_environment() {
    const char* value = std::getenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT");
    return value && std::string_view(value) == "true";
}

// Hands the run's span down to the agents and chat clients below through the run's context.
void carry(agent_run_options& options, const telemetry::operation_span& span) {
    if (span.recording()) options.context.trace = span.child();
}

} // namespace

telemetry_agent::telemetry_agent(std::shared_ptr<agent> inner, telemetry_options options)
    : delegating_agent(std::move(inner)), exporter_(std::move(options.exporter)),
      sensitive_data_(options.sensitive_data.value_or(capture_from_environment())),
      provider_name_(std::move(options.provider_name)) {
    if (!exporter_) throw error("telemetry_agent needs an exporter");
}

telemetry::trace_parent telemetry_agent::parent_of(const agent_run_options& options) const {
    telemetry::trace_parent parent{.exporter = exporter_, .context = {}, .sensitive_data = sensitive_data_};
    if (options.context.trace) parent.context = options.context.trace->context;
    return parent;
}

boost::asio::awaitable<agent_response<>> telemetry_agent::run_core(agent_run run) {
    telemetry::operation_span span = agent_detail::start_agent_span(*this, parent_of(run.options), provider_name_, run, false);
    carry(run.options, span);
    try {
        agent_response<> response = co_await delegating_agent::run_core(std::move(run));
        span.end(response);
        co_return response;
    } catch (...) {
        span.fail(std::current_exception());
        throw;
    }
}

/// Starts the span and the inner stream at the first next(), and ends the span with the stream.
class telemetry_agent::streaming_run final : public update_source {
public:
    streaming_run(telemetry_agent& agent, agent_run run) : agent_(agent), run_(std::move(run)) {}

    boost::asio::awaitable<std::optional<agent_response_update>> next() override {
        try {
            if (!inner_) start();
            auto update = co_await inner_->next();
            if (update)
                span_->add_update(*update);
            else
                span_->end();
            co_return update;
        } catch (...) {
            if (span_) span_->fail(std::current_exception());
            throw;
        }
    }

private:
    void start() {
        span_.emplace(agent_detail::start_agent_span(agent_, agent_.parent_of(run_.options), agent_.provider_name_, run_, true));
        carry(run_.options, *span_);
        inner_.emplace(agent_.delegating_agent::run_streaming_core(std::move(run_)));
    }

    telemetry_agent& agent_;
    agent_run run_;
    std::optional<telemetry::operation_span> span_;
    std::optional<update_stream> inner_;
};

update_stream telemetry_agent::run_streaming_core(agent_run run) {
    return update_stream(get_executor(), std::make_unique<streaming_run>(*this, std::move(run)));
}

} // namespace forma
