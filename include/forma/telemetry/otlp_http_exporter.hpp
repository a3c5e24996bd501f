#pragma once

#include <forma/net/timeouts.hpp>
#include <forma/net/tls_trust.hpp>
#include <forma/telemetry/attribute.hpp>
#include <forma/telemetry/exporter.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/async_result.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace forma::telemetry {

struct otlp_http_exporter_options {
    /// The collector's base URL; `/v1/traces` and `/v1/metrics` are added. Empty: the
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` environment variable, else "http://localhost:4318".
    std::string base_url{};
    /// Sent with every export (e.g. an authorization header of the collector).
    std::vector<std::pair<std::string, std::string>> headers{};
    /// The resource's attributes. `service.name` defaults to `OTEL_SERVICE_NAME`, else
    /// "unknown_service"; telemetry.sdk.* are added.
    attribute_list resource{};
    /// How long finished spans wait to be sent with the ones that follow.
    std::chrono::milliseconds schedule_delay{1000};
    /// Spans waiting beyond this many are dropped (and counted), never blocking a run.
    std::size_t max_queue_size = 2048;
    /// Spans per request.
    std::size_t max_batch_size = 512;
    /// Per export request; no retries: a failed export is counted and its spans dropped.
    net::timeouts timeouts{.connect = std::chrono::seconds(5), .idle = std::chrono::seconds(10),
                           .total = std::chrono::seconds(10)};
    /// For an https collector: which collectors are trusted (extra anchors, verification, or a context of your own).
    net::tls_trust trust{};
};

/** Sends spans and metrics to an OpenTelemetry collector over OTLP/HTTP with the
    JSON encoding (`POST {base_url}/v1/traces`, `/v1/metrics`).

    Batched and asynchronous on the executor given: export_span only queues (from
    any thread) and schedules a send; sends run on the executor, one at a time.
    Metrics go with each batch when they changed since the last one. Nothing
    stays pending when there is nothing to send, so an io_context's run()
    returns once the last batch is out. A failed export is counted, never
    thrown into a run. Destroying the exporter sends what is queued at once (as
    long as the executor runs); flush() sends now and waits.

    Sends use the executor like an Asio I/O object: run it on one thread, or give a strand.
*/
class otlp_http_exporter final : public exporter {
public:
    using executor_type = boost::asio::any_io_executor;

    /// @throws forma::error for a base_url that does not parse, or a ca_file that cannot be read.
    otlp_http_exporter(executor_type executor, otlp_http_exporter_options options = {});
    ~otlp_http_exporter() override;

    otlp_http_exporter(const otlp_http_exporter&) = delete;
    otlp_http_exporter& operator=(const otlp_http_exporter&) = delete;

    void export_span(span_data span) override;

    /// Sends every queued span, and the metrics when they changed, now; completes when sent (or failed).
    boost::asio::awaitable<void> flush();

    /// flush() for any completion token; the handler gets (std::exception_ptr).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_flush(CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), flush(), std::forward<CompletionToken>(token));
    }

    executor_type get_executor() const;

    /// Spans accepted by the collector (a 2xx answer).
    std::uint64_t exported_spans() const;
    /// Spans dropped: the queue was full, or their export failed.
    std::uint64_t dropped_spans() const;
    /// Export requests that failed (no connection, timeout, a status other than 2xx).
    std::uint64_t failed_exports() const;
    /// What the last failed export said; empty when none failed.
    std::string last_error() const;

protected:
    void on_metrics_recorded() override;

private:
    struct state;
    std::shared_ptr<state> state_;
};

} // namespace forma::telemetry
