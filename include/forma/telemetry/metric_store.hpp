#pragma once

#include <forma/telemetry/metric_data.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace forma::telemetry {

/** Cumulative histograms by instrument and attribute set. Thread-safe: runs on
    any thread may record while an exporter takes a snapshot.
*/
class metric_store {
public:
    metric_store();

    /// Adds `value` to the point of `attributes` (created on first use).
    void record(const histogram_instrument& instrument, double value, const attribute_list& attributes);
    /// The same with the attributes given by address: nothing is copied unless the point is new.
    void record(const histogram_instrument& instrument, double value, std::span<const attribute* const> attributes);

    /// Every histogram, points in the order they were first recorded, instruments by name.
    std::vector<histogram_data> snapshot() const;

    /// Grows with every record: an exporter sends only when it changed.
    std::uint64_t version() const;

private:
    struct series {
        histogram_data data;
        std::map<std::string, std::size_t, std::less<>> index; // attribute set (encoded) -> point
    };

    mutable std::mutex mutex_;
    std::chrono::system_clock::time_point start_;
    std::map<std::string, series, std::less<>> series_;
    std::uint64_t version_ = 0;
};

} // namespace forma::telemetry
