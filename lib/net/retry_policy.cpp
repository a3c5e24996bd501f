#include <forma/net/retry_policy.hpp>

#include "../text/decimal_digits.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace forma::net {
namespace {

using text_detail::digits;
using text_detail::number_at;
using std::chrono::milliseconds;

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// IMF-fixdate (RFC 9110): "Sun, 06 Nov 1994 08:49:37 GMT".
std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view s) {
    static constexpr std::array<std::string_view, 12> months = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    if (s.size() != 29 || s[3] != ',' || s[4] != ' ' || !digits(s, 5, 2) || s[7] != ' ' ||
        s[11] != ' ' || !digits(s, 12, 4) || s[16] != ' ' || !digits(s, 17, 2) || s[19] != ':' ||
        !digits(s, 20, 2) || s[22] != ':' || !digits(s, 23, 2) || s.substr(25) != " GMT")
        return std::nullopt;
    const auto month = std::find(months.begin(), months.end(), s.substr(8, 3));
    if (month == months.end()) return std::nullopt;
    using namespace std::chrono;
    const year_month_day date{year(number_at(s, 12, 4)),
                              std::chrono::month(static_cast<unsigned>(month - months.begin() + 1)),
                              day(static_cast<unsigned>(number_at(s, 5, 2)))};
    const int h = number_at(s, 17, 2), m = number_at(s, 20, 2), sec = number_at(s, 23, 2);
    if (!date.ok() || h > 23 || m > 59 || sec > 60) return std::nullopt;
    return sys_days(date) + hours(h) + minutes(m) + seconds(sec);
}

} // namespace

bool is_retryable_status(unsigned status) noexcept {
    return status == 408 || status == 409 || status == 429 || (status >= 500 && status <= 599);
}

std::optional<milliseconds> parse_retry_after(std::string_view value,
                                              std::chrono::system_clock::time_point now) {
    value = trim(value);
    if (!value.empty() && digits(value, 0, value.size())) {
        std::uint64_t seconds = 0;
        const auto r = std::from_chars(value.data(), value.data() + value.size(), seconds);
        if (r.ec != std::errc() || seconds > 365ull * 24 * 3600) return std::nullopt;
        return milliseconds(seconds * 1000);
    }
    const auto date = parse_http_date(value);
    if (!date) return std::nullopt;
    return std::max(milliseconds(0), std::chrono::duration_cast<milliseconds>(*date - now));
}

std::optional<milliseconds> parse_retry_after_ms(std::string_view value) {
    value = trim(value);
    double ms = 0;
    const auto r = std::from_chars(value.data(), value.data() + value.size(), ms);
    if (value.empty() || r.ec != std::errc() || r.ptr != value.data() + value.size() || !(ms >= 0) ||
        ms > 365.0 * 24 * 3600 * 1000)
        return std::nullopt;
    return milliseconds(static_cast<std::int64_t>(std::ceil(ms)));
}

milliseconds retry_delay(const retry_policy& policy, int retry, std::optional<milliseconds> server_hint,
                         double unit_random) {
    if (server_hint) return *server_hint;
    const double base = static_cast<double>(policy.initial_backoff.count()) *
                        std::pow(policy.multiplier, std::max(0, retry - 1));
    const double capped = std::min(base, static_cast<double>(policy.max_backoff.count()));
    const double factor = 1.0 - policy.jitter + 2.0 * policy.jitter * unit_random;
    return milliseconds(static_cast<std::int64_t>(std::max(0.0, capped * factor)));
}

} // namespace forma::net
