#pragma once

#include <forma/telemetry/attribute.hpp>

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace forma::telemetry {

/// A histogram instrument: its name, unit and explicit bucket boundaries (ascending).
struct histogram_instrument {
    std::string_view name;
    std::string_view unit;
    std::string_view description;
    std::span<const double> bounds;
};

/// One value for one instrument, for metric_store::record of several at once.
struct measurement {
    const histogram_instrument* instrument = nullptr;
    double value = 0;
    /// An attribute of this measurement only, added to the shared ones (e.g. gen_ai.token.type).
    const attribute* extra = nullptr;
};

/** One attribute set's cumulative histogram. Bucket i counts values in
    (bounds[i-1], bounds[i]] (the first from minus infinity, the last to plus
    infinity), as OTLP's explicit-bucket histograms do.
*/
struct histogram_point {
    attribute_list attributes{};
    std::uint64_t count = 0;
    double sum = 0;
    double min = 0;
    double max = 0;
    /// bounds.size() + 1 counts.
    std::vector<std::uint64_t> bucket_counts{};
};

/// A histogram with every attribute set recorded so far, cumulative since `start_time`.
struct histogram_data {
    std::string name;
    std::string unit;
    std::string description;
    std::vector<double> bounds;
    std::chrono::system_clock::time_point start_time{};
    std::chrono::system_clock::time_point time{};
    std::vector<histogram_point> points;
};

} // namespace forma::telemetry
