#include <forma/telemetry/otlp_json.hpp>

#include "../json/json_text.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <type_traits>

namespace forma::telemetry {

namespace json = boost::json;

namespace {

// OTLP/JSON writes 64-bit integers as strings: JSON numbers lose precision past 2^53.
json::string int64_text(std::int64_t n) { return json::string(std::to_string(n)); }
json::string uint64_text(std::uint64_t n) { return json::string(std::to_string(n)); }

json::string unix_nanos(std::chrono::system_clock::time_point t) {
    return int64_text(std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
}

// Text from anywhere (a tool's arguments, an exception's message) made valid UTF-8: a collector
// rejects the whole body over one bad byte.
json::string text(std::string_view s) { return json::string(json_detail::valid_utf8(s)); }

json::object any_value(const attribute_value& value) {
    return std::visit(
        [](const auto& v) -> json::object {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, bool>) {
                return {{"boolValue", v}};
            } else if constexpr (std::is_same_v<V, std::int64_t>) {
                return {{"intValue", int64_text(v)}};
            } else if constexpr (std::is_same_v<V, double>) {
                return {{"doubleValue", v}};
            } else if constexpr (std::is_same_v<V, std::string>) {
                return {{"stringValue", text(v)}};
            } else {
                json::array values;
                for (const auto& s : v) values.push_back(json::object{{"stringValue", text(s)}});
                return {{"arrayValue", json::object{{"values", std::move(values)}}}};
            }
        },
        value);
}

json::array key_values(const attribute_list& attributes) {
    json::array out;
    out.reserve(attributes.size());
    for (const auto& a : attributes) out.push_back(json::object{{"key", text(a.key.view())}, {"value", any_value(a.value)}});
    return out;
}

json::object scope() { return {{"name", "forma"}, {"version", library_version()}}; }

json::object span_object(const span_data& span) {
    json::object out{{"traceId", to_hex(span.context.trace_id)},
                     {"spanId", to_hex(span.context.span_id)},
                     {"name", text(span.name)},
                     {"kind", static_cast<int>(span.kind)},
                     {"startTimeUnixNano", unix_nanos(span.start_time)},
                     {"endTimeUnixNano", unix_nanos(span.end_time)},
                     {"attributes", key_values(span.attributes)}};
    if (span.parent_span_id) out["parentSpanId"] = to_hex(*span.parent_span_id);
    out["flags"] = span.context.sampled ? 1 : 0;
    json::object status{{"code", static_cast<int>(span.status)}};
    if (!span.status_message.empty()) status["message"] = text(span.status_message);
    out["status"] = std::move(status);
    if (!span.events.empty()) {
        json::array events;
        for (const span_event& e : span.events)
            events.push_back(json::object{{"timeUnixNano", unix_nanos(e.time)},
                                          {"name", text(e.name)},
                                          {"attributes", key_values(e.attributes)}});
        out["events"] = std::move(events);
    }
    return out;
}

json::object histogram_point_object(const histogram_data& metric, const histogram_point& point) {
    json::array counts;
    counts.reserve(point.bucket_counts.size());
    for (auto c : point.bucket_counts) counts.push_back(uint64_text(c));
    json::array bounds(metric.bounds.begin(), metric.bounds.end());
    return {{"attributes", key_values(point.attributes)},
            {"startTimeUnixNano", unix_nanos(metric.start_time)},
            {"timeUnixNano", unix_nanos(metric.time)},
            {"count", uint64_text(point.count)},
            {"sum", point.sum},
            {"bucketCounts", std::move(counts)},
            {"explicitBounds", std::move(bounds)},
            {"min", point.min},
            {"max", point.max}};
}

constexpr int cumulative = 2; // AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE

} // namespace

std::string_view library_version() noexcept { return FORMA_VERSION; }

std::string otlp_traces_json(std::span<const span_data> spans, const attribute_list& resource) {
    json::array span_list;
    span_list.reserve(spans.size());
    for (const auto& s : spans) span_list.push_back(span_object(s));
    json::object scope_spans{{"scope", scope()}, {"spans", std::move(span_list)}};
    json::object resource_spans{{"resource", json::object{{"attributes", key_values(resource)}}},
                                {"scopeSpans", json::array{std::move(scope_spans)}}};
    return json::serialize(json::object{{"resourceSpans", json::array{std::move(resource_spans)}}});
}

std::string otlp_metrics_json(std::span<const histogram_data> metrics, const attribute_list& resource) {
    json::array metric_list;
    metric_list.reserve(metrics.size());
    for (const auto& m : metrics) {
        json::array points;
        for (const auto& p : m.points) points.push_back(histogram_point_object(m, p));
        json::object histogram{{"dataPoints", std::move(points)}, {"aggregationTemporality", cumulative}};
        metric_list.push_back(json::object{
            {"name", m.name}, {"unit", m.unit}, {"description", m.description}, {"histogram", std::move(histogram)}});
    }
    json::object scope_metrics{{"scope", scope()}, {"metrics", std::move(metric_list)}};
    json::object resource_metrics{{"resource", json::object{{"attributes", key_values(resource)}}},
                                  {"scopeMetrics", json::array{std::move(scope_metrics)}}};
    return json::serialize(json::object{{"resourceMetrics", json::array{std::move(resource_metrics)}}});
}

} // namespace forma::telemetry
