#include <forma/telemetry/metric_store.hpp>

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace forma::telemetry {

namespace {

// An attribute set as one string, so that equal sets (in any order) find one point. Written
// into a buffer of the thread's, so that recording allocates nothing once warm.
const std::string& encode(std::span<const attribute* const> attributes) {
    thread_local std::vector<const attribute*> sorted;
    thread_local std::string key;
    sorted.assign(attributes.begin(), attributes.end());
    std::sort(sorted.begin(), sorted.end(), [](const attribute* a, const attribute* b) { return a->key < b->key; });
    key.clear();
    for (const attribute* a : sorted) {
        key += a->key.view();
        key += '\x1f';
        key += static_cast<char>('0' + a->value.index());
        std::visit(
            [&out = key](const auto& v) {
                using V = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<V, std::string>) {
                    out += v;
                } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
                    for (const auto& s : v) out.append(s).push_back('\x1d');
                } else {
                    char bytes[sizeof(V)];
                    std::memcpy(bytes, &v, sizeof(V));
                    out.append(bytes, sizeof(V));
                }
            },
            a->value);
        key += '\x1e';
    }
    return key;
}

} // namespace

metric_store::metric_store() : start_(std::chrono::system_clock::now()) {}

void metric_store::record(const histogram_instrument& instrument, double value, const attribute_list& attributes) {
    std::vector<const attribute*> refs;
    refs.reserve(attributes.size());
    for (const auto& a : attributes) refs.push_back(&a);
    record(instrument, value, refs);
}

void metric_store::record(const histogram_instrument& instrument, double value,
                          std::span<const attribute* const> attributes) {
    const std::string& key = encode(attributes);
    const std::lock_guard lock(mutex_);
    auto found = series_.find(instrument.name);
    if (found == series_.end()) {
        series s;
        s.data.name = instrument.name;
        s.data.unit = instrument.unit;
        s.data.description = instrument.description;
        s.data.bounds.assign(instrument.bounds.begin(), instrument.bounds.end());
        s.data.start_time = start_;
        found = series_.emplace(std::string(instrument.name), std::move(s)).first;
    }
    series& s = found->second;
    auto at = s.index.find(key);
    if (at == s.index.end()) {
        at = s.index.emplace(key, s.data.points.size()).first;
        histogram_point point;
        for (const attribute* a : attributes) point.attributes.push_back(*a);
        point.bucket_counts.assign(s.data.bounds.size() + 1, 0);
        point.min = point.max = value;
        s.data.points.push_back(std::move(point));
    }
    histogram_point& point = s.data.points[at->second];
    // Bucket i holds (bounds[i-1], bounds[i]]: the first bound not below the value.
    const auto bucket = std::lower_bound(s.data.bounds.begin(), s.data.bounds.end(), value) - s.data.bounds.begin();
    ++point.bucket_counts[static_cast<std::size_t>(bucket)];
    ++point.count;
    point.sum += value;
    point.min = std::min(point.min, value);
    point.max = std::max(point.max, value);
    ++version_;
}

std::vector<histogram_data> metric_store::snapshot() const {
    const auto now = std::chrono::system_clock::now();
    const std::lock_guard lock(mutex_);
    std::vector<histogram_data> out;
    out.reserve(series_.size());
    for (const auto& [name, s] : series_) {
        out.push_back(s.data);
        out.back().time = now;
    }
    return out;
}

std::uint64_t metric_store::version() const {
    const std::lock_guard lock(mutex_);
    return version_;
}

} // namespace forma::telemetry
