#include <forma/telemetry/exporter.hpp>

namespace forma::telemetry {

exporter::~exporter() = default;

void exporter::record(const histogram_instrument& instrument, double value, const attribute_list& attributes) {
    metrics_->record(instrument, value, attributes);
    on_metrics_recorded();
}

void exporter::record(std::span<const attribute* const> common, std::span<const measurement> measurements) {
    metrics_->record(common, measurements);
    on_metrics_recorded();
}

} // namespace forma::telemetry
