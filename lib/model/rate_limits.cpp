#include <forma/model/rate_limits.hpp>

#include "json_support.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace forma {

namespace {

void put(boost::json::object& out, std::string_view key, const std::optional<std::int64_t>& value) {
    if (value) out[key] = *value;
}
void put(boost::json::object& out, std::string_view key, const std::optional<std::chrono::milliseconds>& value) {
    if (value) out[key] = value->count();
}

std::optional<std::int64_t> count_member(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = o.if_contains(key);
    if (!v) return std::nullopt;
    if (v->is_int64() && v->get_int64() >= 0) return v->get_int64();
    return std::nullopt;
}

} // namespace

boost::json::object rate_limits::to_json() const {
    boost::json::object out;
    put(out, "limit_requests", limit_requests);
    put(out, "limit_tokens", limit_tokens);
    put(out, "remaining_requests", remaining_requests);
    put(out, "remaining_tokens", remaining_tokens);
    put(out, "reset_requests_ms", reset_requests);
    put(out, "reset_tokens_ms", reset_tokens);
    return out;
}

rate_limits rate_limits::from_json(const boost::json::object& o) {
    rate_limits r;
    r.limit_requests = count_member(o, "limit_requests");
    r.limit_tokens = count_member(o, "limit_tokens");
    r.remaining_requests = count_member(o, "remaining_requests");
    r.remaining_tokens = count_member(o, "remaining_tokens");
    if (auto ms = count_member(o, "reset_requests_ms")) r.reset_requests = std::chrono::milliseconds(*ms);
    if (auto ms = count_member(o, "reset_tokens_ms")) r.reset_tokens = std::chrono::milliseconds(*ms);
    return r;
}

std::optional<std::int64_t> rate_limits::parse_count(std::string_view value) {
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size() || n < 0) return std::nullopt;
    return n;
}

std::optional<std::chrono::milliseconds> rate_limits::parse_reset(std::string_view value) {
    if (value.empty() || value.size() > 64) return std::nullopt;
    if (value.size() > 10 && value[4] == '-' && value[10] == 'T') { // an RFC 3339 time (Anthropic's)
        const std::optional<model_detail::time_point> at = model_detail::parse_time(value);
        if (!at) return std::nullopt;
        const auto until = std::chrono::ceil<std::chrono::milliseconds>(*at - std::chrono::system_clock::now());
        if (until > std::chrono::hours(24 * 7)) return std::nullopt;
        return std::max(until, std::chrono::milliseconds(0));
    }
    double total_ms = 0;
    std::size_t i = 0;
    while (i < value.size()) {
        const std::size_t start = i;
        while (i < value.size() && ((value[i] >= '0' && value[i] <= '9') || value[i] == '.')) ++i;
        if (i == start) return std::nullopt;
        double number = 0;
        const auto [end, ec] = std::from_chars(value.data() + start, value.data() + i, number);
        if (ec != std::errc() || end != value.data() + i) return std::nullopt;
        double unit_ms = 0;
        if (value.substr(i, 2) == "ms") {
            unit_ms = 1, i += 2;
        } else if (value.substr(i, 1) == "h") {
            unit_ms = 3600000, i += 1;
        } else if (value.substr(i, 1) == "m") {
            unit_ms = 60000, i += 1;
        } else if (value.substr(i, 1) == "s") {
            unit_ms = 1000, i += 1;
        } else {
            return std::nullopt;
        }
        total_ms += number * unit_ms;
    }
    if (!std::isfinite(total_ms) || total_ms > 86400000.0 * 7) return std::nullopt;
    return std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(total_ms)));
}

} // namespace forma
