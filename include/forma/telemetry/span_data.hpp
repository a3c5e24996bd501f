#pragma once

#include <forma/telemetry/attribute.hpp>
#include <forma/telemetry/span_context.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace forma::telemetry {

/// What a span stands for; the values are OTLP's `Span.SpanKind` numbers.
enum class span_kind : int { internal = 1, server = 2, client = 3, producer = 4, consumer = 5 };

/// How a span ended; the values are OTLP's `Status.StatusCode` numbers.
enum class status_code : int { unset = 0, ok = 1, error = 2 };

/// Something that happened at a point of a span (OTLP's `Span.Event`).
struct span_event {
    std::string name;
    std::chrono::system_clock::time_point time{};
    attribute_list attributes{};

    friend bool operator==(const span_event&, const span_event&) = default;
};

/// A finished span, as exporters receive it.
struct span_data {
    std::string name;
    span_kind kind = span_kind::internal;
    span_context context{};
    /// The parent's id; nullopt for the root of a trace.
    std::optional<span_id> parent_span_id{};
    std::chrono::system_clock::time_point start_time{};
    std::chrono::system_clock::time_point end_time{};
    attribute_list attributes{};
    status_code status = status_code::unset;
    /// Set with status error: what went wrong.
    std::string status_message{};
    /// In the order they happened; e.g. `forma.output.retry`, one per validation retry.
    std::vector<span_event> events{};

    friend bool operator==(const span_data&, const span_data&) = default;
};

} // namespace forma::telemetry
