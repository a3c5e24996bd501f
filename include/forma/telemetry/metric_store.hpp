#pragma once

#include <forma/telemetry/metric_data.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
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
    /** Adds several measurements that share the attributes `common` (given by address:
        nothing is copied unless a point is new). The shared set is looked up once, so an
        operation's duration and token counts cost one lookup. A measurement's point is
        that of `common` plus its `extra`, however the set is split between the two.
    */
    void record(std::span<const attribute* const> common, std::span<const measurement> measurements);

    /// Every histogram, points in the order they were first recorded, instruments by name.
    std::vector<histogram_data> snapshot() const;

    /// Grows with every record: an exporter sends only when it changed.
    std::uint64_t version() const;

private:
    struct series {
        histogram_data data; // without its points, which are below
        std::deque<histogram_point> points; // a deque: entries of groups point into it
        std::vector<std::uint64_t> point_hashes; // of each point's whole attribute set
    };
    // A shared attribute set, and the points it was recorded into.
    struct group {
        attribute_list common;
        struct entry {
            series* instrument;
            std::optional<attribute> extra;
            histogram_point* point;
        };
        std::vector<entry> entries;
    };

    series& series_of(const histogram_instrument& instrument);
    const group::entry& entry_of(group& g, std::uint64_t common_hash, const measurement& m);

    mutable std::mutex mutex_;
    std::chrono::system_clock::time_point start_;
    std::map<std::string, series, std::less<>> series_;
    std::deque<group> groups_;
    std::unordered_multimap<std::uint64_t, group*> group_index_;
    std::uint64_t version_ = 0;
};

} // namespace forma::telemetry
