#pragma once
// Reading recorded spans and histograms in tests.

#include <forma/telemetry/metric_data.hpp>
#include <forma/telemetry/span_data.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace span_reading {

/// The attribute `key` of `span` as a T, or nullopt when absent or of another type.
template <class T>
std::optional<T> attribute(const forma::telemetry::span_data& span, std::string_view key) {
    const auto* value = forma::telemetry::find(span.attributes, key);
    if (!value || !std::holds_alternative<T>(*value)) return std::nullopt;
    return std::get<T>(*value);
}

inline std::optional<std::string> text(const forma::telemetry::span_data& span, std::string_view key) {
    return attribute<std::string>(span, key);
}

inline bool has(const forma::telemetry::span_data& span, std::string_view key) {
    return forma::telemetry::find(span.attributes, key) != nullptr;
}

/// The histogram named `name`; fails the test when there is none.
inline forma::telemetry::histogram_data histogram(const std::vector<forma::telemetry::histogram_data>& metrics,
                                                  std::string_view name) {
    for (const auto& m : metrics)
        if (m.name == name) return m;
    ADD_FAILURE() << "no histogram " << name;
    return {};
}

/// The point whose attribute `key` is the string `value`, or null.
inline const forma::telemetry::histogram_point* point_with(const forma::telemetry::histogram_data& metric,
                                                           std::string_view key, std::string_view value) {
    for (const auto& p : metric.points)
        if (const auto* v = forma::telemetry::find(p.attributes, key);
            v && std::holds_alternative<std::string>(*v) && std::get<std::string>(*v) == value)
            return &p;
    return nullptr;
}

} // namespace span_reading
