#include <forma/telemetry/in_memory_exporter.hpp>

#include <algorithm>
#include <utility>

namespace forma::telemetry {

void in_memory_exporter::export_span(span_data span) {
    const std::lock_guard lock(mutex_);
    if (spans_.size() >= capacity_) {
        ++dropped_;
        return;
    }
    spans_.push_back(std::move(span));
}

std::vector<span_data> in_memory_exporter::spans() const {
    const std::lock_guard lock(mutex_);
    return {spans_.begin(), spans_.end()};
}

std::vector<span_data> in_memory_exporter::take_spans() {
    const std::lock_guard lock(mutex_);
    std::vector<span_data> out(std::make_move_iterator(spans_.begin()), std::make_move_iterator(spans_.end()));
    spans_.clear();
    return out;
}

std::optional<span_data> in_memory_exporter::find_span(std::string_view name) const {
    const std::lock_guard lock(mutex_);
    auto it = std::find_if(spans_.rbegin(), spans_.rend(), [&](const span_data& s) { return s.name == name; });
    if (it == spans_.rend()) return std::nullopt;
    return *it;
}

std::size_t in_memory_exporter::dropped_spans() const {
    const std::lock_guard lock(mutex_);
    return dropped_;
}

void in_memory_exporter::clear() {
    const std::lock_guard lock(mutex_);
    spans_.clear();
    dropped_ = 0;
}

} // namespace forma::telemetry
