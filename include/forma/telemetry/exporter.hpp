#pragma once

#include <forma/telemetry/metric_data.hpp>
#include <forma/telemetry/metric_store.hpp>
#include <forma/telemetry/span_data.hpp>

#include <memory>
#include <span>
#include <vector>

namespace forma::telemetry {

/** Where finished spans and metric measurements go.

    export_span is called where a span ends (the run's executor, possibly
    several threads for an exporter shared by several io_contexts): it must
    return quickly and must not block. Exceptions it throws are swallowed by the
    caller: telemetry never changes a run's result.

    Measurements are aggregated here into cumulative histograms (metrics()).
*/
class exporter {
public:
    virtual ~exporter();

    /// Takes a finished span.
    virtual void export_span(span_data span) = 0;

    /// Adds a measurement to the histograms, then calls on_metrics_recorded().
    void record(const histogram_instrument& instrument, double value, const attribute_list& attributes);
    /// Several measurements sharing attributes (see metric_store::record).
    void record(std::span<const attribute* const> common, std::span<const measurement> measurements);

    /// Every histogram recorded so far.
    std::vector<histogram_data> metrics() const { return metrics_->snapshot(); }

protected:
    /// Called after each measurement (any thread), e.g. to schedule an export.
    virtual void on_metrics_recorded() {}

    /// The histograms, shared with work that may outlive the exporter.
    std::shared_ptr<const metric_store> store() const noexcept { return metrics_; }

private:
    std::shared_ptr<metric_store> metrics_ = std::make_shared<metric_store>();
};

} // namespace forma::telemetry
