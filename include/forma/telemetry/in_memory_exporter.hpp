#pragma once

#include <forma/telemetry/exporter.hpp>

#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

namespace forma::telemetry {

/** Keeps finished spans in memory: for tests, and for programs that read
    their own telemetry. Thread-safe.
*/
class in_memory_exporter final : public exporter {
public:
    /// Keeps at most `capacity` spans; spans beyond it are dropped and counted.
    explicit in_memory_exporter(std::size_t capacity = 100'000) : capacity_(capacity) {}

    void export_span(span_data span) override;

    /// The spans kept, in the order they ended.
    std::vector<span_data> spans() const;
    /// The spans kept, removed from the exporter.
    std::vector<span_data> take_spans();
    /// The last span that ended with this name, if any.
    std::optional<span_data> find_span(std::string_view name) const;
    /// Spans dropped because the capacity was reached.
    std::size_t dropped_spans() const;
    void clear();

private:
    mutable std::mutex mutex_;
    std::size_t capacity_;
    std::deque<span_data> spans_; // grows without moving what it holds
    std::size_t dropped_ = 0;
};

} // namespace forma::telemetry
