#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace forma::telemetry {

/// 16 bytes naming a trace; all zero is invalid.
using trace_id = std::array<std::uint8_t, 16>;
/// 8 bytes naming a span within a trace; all zero is invalid.
using span_id = std::array<std::uint8_t, 8>;

/** Where a span sits: its trace and its own id, as W3C Trace Context carries them.
    forma records every span (sampled).
*/
struct span_context {
    telemetry::trace_id trace_id{};
    telemetry::span_id span_id{};
    bool sampled = true;

    /// Both ids are non-zero.
    bool valid() const noexcept;

    friend bool operator==(const span_context&, const span_context&) = default;
};

/// A random, valid id (from the kernel's cryptographic generator, never all zero).
trace_id make_trace_id();
span_id make_span_id();

/// Lowercase hex, two digits a byte: the OTLP JSON and W3C spelling.
std::string to_hex(const trace_id& id);
std::string to_hex(const span_id& id);

/// The W3C `traceparent` header value: "00-<trace id>-<span id>-<flags>".
std::string to_traceparent(const span_context& context);

/// Reads a `traceparent` header value; nullopt when it is not a valid version-00 value.
std::optional<span_context> parse_traceparent(std::string_view header) noexcept;

} // namespace forma::telemetry
