#include <forma/telemetry/metric_store.hpp>

#include <algorithm>
#include <bit>

namespace forma::telemetry {

namespace {

std::uint64_t mix(std::uint64_t x) noexcept { // splitmix64's finalizer
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::uint64_t hash_of(const attribute_value& value) noexcept {
    if (const auto* text = std::get_if<std::string>(&value)) return hash_text(*text);
    if (const auto* number = std::get_if<std::int64_t>(&value)) return static_cast<std::uint64_t>(*number);
    if (const auto* real = std::get_if<double>(&value)) return *real == 0 ? 0 : std::bit_cast<std::uint64_t>(*real);
    if (const auto* flag = std::get_if<bool>(&value)) return *flag;
    std::uint64_t h = 0;
    for (const auto& text : std::get<std::vector<std::string>>(value)) h = mix(h ^ hash_text(text));
    return h;
}

// Sets hash to the sum of their attributes' mixed hashes: independent of order, and the
// hash of a set plus one attribute is the set's hash plus that attribute's.
std::uint64_t hash_of(const attribute& a) noexcept {
    return mix(a.key.hash() ^ mix(hash_of(a.value) + a.value.index()));
}

std::uint64_t hash_of(std::span<const attribute* const> attributes) noexcept {
    std::uint64_t h = 0;
    for (const attribute* a : attributes) h += hash_of(*a);
    return h;
}

bool contains(std::span<const attribute> stored, const attribute& a) noexcept {
    return std::find(stored.begin(), stored.end(), a) != stored.end();
}

bool same_set(std::span<const attribute> stored, std::span<const attribute* const> attributes) noexcept {
    if (stored.size() != attributes.size()) return false;
    // Callers usually list a set in the same order each time: compare in place first.
    if (std::equal(stored.begin(), stored.end(), attributes.begin(),
                   [](const attribute& a, const attribute* b) { return a == *b; }))
        return true;
    return std::all_of(attributes.begin(), attributes.end(), [&](const attribute* a) { return contains(stored, *a); });
}

// `stored` is `common` plus `extra` (which may be null), in any order.
bool same_set(std::span<const attribute> stored, std::span<const attribute* const> common, const attribute* extra) {
    if (stored.size() != common.size() + (extra ? 1 : 0)) return false;
    return std::all_of(common.begin(), common.end(), [&](const attribute* a) { return contains(stored, *a); }) &&
           (!extra || contains(stored, *extra));
}

} // namespace

metric_store::metric_store() : start_(std::chrono::system_clock::now()) {}

void metric_store::record(const histogram_instrument& instrument, double value, const attribute_list& attributes) {
    std::vector<const attribute*> refs;
    refs.reserve(attributes.size());
    for (const auto& a : attributes) refs.push_back(&a);
    const measurement m{.instrument = &instrument, .value = value};
    record(refs, {&m, 1});
}

void metric_store::record(std::span<const attribute* const> common, std::span<const measurement> measurements) {
    const std::uint64_t hash = hash_of(common);
    const std::lock_guard lock(mutex_);
    group* g = nullptr;
    for (auto [at, end] = group_index_.equal_range(hash); at != end && !g; ++at)
        if (same_set(at->second->common, common)) g = at->second;
    if (!g) {
        g = &groups_.emplace_back();
        g->common.reserve(common.size());
        for (const attribute* a : common) g->common.push_back(*a);
        group_index_.emplace(hash, g);
    }
    for (const measurement& m : measurements) {
        const group::entry& e = entry_of(*g, hash, m);
        histogram_point& point = *e.point;
        const auto& bounds = e.instrument->data.bounds;
        // Bucket i holds (bounds[i-1], bounds[i]]: the first bound not below the value.
        const auto bucket = std::lower_bound(bounds.begin(), bounds.end(), m.value) - bounds.begin();
        ++point.bucket_counts[static_cast<std::size_t>(bucket)];
        point.min = point.count == 0 ? m.value : std::min(point.min, m.value);
        point.max = point.count == 0 ? m.value : std::max(point.max, m.value);
        ++point.count;
        point.sum += m.value;
        ++version_;
    }
}

metric_store::series& metric_store::series_of(const histogram_instrument& instrument) {
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
    return found->second;
}

const metric_store::group::entry& metric_store::entry_of(group& g, std::uint64_t common_hash, const measurement& m) {
    for (const auto& e : g.entries)
        if (e.instrument->data.name == m.instrument->name && (e.extra ? m.extra && *e.extra == *m.extra : !m.extra))
            return e;
    // New to this group: the same whole set may have a point already, split differently.
    series& s = series_of(*m.instrument);
    std::vector<const attribute*> common;
    for (const auto& a : g.common) common.push_back(&a);
    const std::uint64_t hash = common_hash + (m.extra ? hash_of(*m.extra) : 0);
    histogram_point* point = nullptr;
    for (std::size_t i = 0; i < s.points.size() && !point; ++i)
        if (s.point_hashes[i] == hash && same_set(s.points[i].attributes, common, m.extra)) point = &s.points[i];
    if (!point) {
        point = &s.points.emplace_back();
        point->attributes = g.common;
        if (m.extra) point->attributes.push_back(*m.extra);
        point->bucket_counts.assign(s.data.bounds.size() + 1, 0);
        s.point_hashes.push_back(hash);
    }
    return g.entries.emplace_back(
        group::entry{.instrument = &s, .extra = m.extra ? std::optional(*m.extra) : std::nullopt, .point = point});
}

std::vector<histogram_data> metric_store::snapshot() const {
    const auto now = std::chrono::system_clock::now();
    const std::lock_guard lock(mutex_);
    std::vector<histogram_data> out;
    out.reserve(series_.size());
    for (const auto& [name, s] : series_) {
        out.push_back(s.data);
        out.back().points.assign(s.points.begin(), s.points.end());
        out.back().time = now;
    }
    return out;
}

std::uint64_t metric_store::version() const {
    const std::lock_guard lock(mutex_);
    return version_;
}

} // namespace forma::telemetry
