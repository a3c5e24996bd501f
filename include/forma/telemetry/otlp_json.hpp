#pragma once

#include <forma/telemetry/attribute.hpp>
#include <forma/telemetry/metric_data.hpp>
#include <forma/telemetry/span_data.hpp>

#include <span>
#include <string>

namespace forma::telemetry {

/** Spans as an OTLP `ExportTraceServiceRequest` in the OTLP/JSON encoding: ids in
    lowercase hex, 64-bit integers (times, intValue) as decimal strings, enums as
    integers, one resource with `resource` as its attributes and one scope "forma".
*/
std::string otlp_traces_json(std::span<const span_data> spans, const attribute_list& resource);

/// Histograms as an OTLP `ExportMetricsServiceRequest` (cumulative temporality), encoded as otlp_traces_json.
std::string otlp_metrics_json(std::span<const histogram_data> metrics, const attribute_list& resource);

/// forma's version, the scope version of everything it exports.
std::string_view library_version() noexcept;

} // namespace forma::telemetry
