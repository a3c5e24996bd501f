// forma::telemetry alone: a span kept in memory and written as OTLP JSON.
#include <forma/telemetry/in_memory_exporter.hpp>
#include <forma/telemetry/otlp_json.hpp>

#include <iostream>

int main() {
    forma::telemetry::in_memory_exporter exporter;
    forma::telemetry::span_data span;
    span.name = "consumer";
    exporter.export_span(span);
    const std::vector<forma::telemetry::span_data> spans = exporter.spans();
    std::cout << spans.size() << " span, " << forma::telemetry::otlp_traces_json(spans, {}).size() << " bytes of OTLP\n";
}
