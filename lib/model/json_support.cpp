#include "json_support.hpp"
#include "../text/decimal_digits.hpp"
#include "../json/json_text.hpp"

#include <forma/registered_secret.hpp>

#include <boost/json/serialize.hpp>

#include <array>
#include <cstdio>

namespace forma::model_detail {

using text_detail::digits;
using text_detail::number_at;

std::string format_time(time_point t) {
    using namespace std::chrono;
    const auto day = floor<days>(t);
    const year_month_day ymd{day};
    const auto since_midnight = t - day;
    const auto secs = floor<seconds>(since_midnight);
    const auto hms = hh_mm_ss<seconds>(secs);
    std::array<char, 64> buf{};
    int n = std::snprintf(buf.data(), buf.size(), "%04d-%02u-%02uT%02d:%02d:%02d",
                          static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                          static_cast<unsigned>(ymd.day()), static_cast<int>(hms.hours().count()),
                          static_cast<int>(hms.minutes().count()),
                          static_cast<int>(hms.seconds().count()));
    std::string out(buf.data(), static_cast<std::size_t>(n));
    const auto fraction = duration_cast<nanoseconds>(since_midnight - secs).count();
    if (fraction != 0) {
        n = std::snprintf(buf.data(), buf.size(), ".%09lld", static_cast<long long>(fraction));
        std::string_view digits_text(buf.data(), static_cast<std::size_t>(n));
        while (digits_text.back() == '0') digits_text.remove_suffix(1);
        out += digits_text;
    }
    out += 'Z';
    return out;
}

std::optional<time_point> parse_time(std::string_view s) {
    using namespace std::chrono;
    // YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)
    if (!digits(s, 0, 4) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2) || s[7] != '-' ||
        !digits(s, 8, 2) || (s[10] != 'T' && s[10] != 't') || !digits(s, 11, 2) || s[13] != ':' ||
        !digits(s, 14, 2) || s[16] != ':' || !digits(s, 17, 2))
        return std::nullopt;
    const year_month_day ymd{year(number_at(s, 0, 4)), month(static_cast<unsigned>(number_at(s, 5, 2))),
                             day(static_cast<unsigned>(number_at(s, 8, 2)))};
    const int hour = number_at(s, 11, 2), minute = number_at(s, 14, 2), second = number_at(s, 17, 2);
    if (!ymd.ok() || hour > 23 || minute > 59 || second > 60) return std::nullopt;

    std::size_t i = 19;
    std::int64_t fraction_ns = 0;
    if (i < s.size() && s[i] == '.') {
        const std::size_t start = ++i;
        std::int64_t scale = 100'000'000;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
            fraction_ns += (s[i] - '0') * scale; // digits past nanoseconds add 0
            scale /= 10;
            ++i;
        }
        if (i == start) return std::nullopt;
    }
    std::int64_t offset_seconds = 0;
    if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
        if (i + 1 != s.size()) return std::nullopt;
    } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        if (s.size() != i + 6 || !digits(s, i + 1, 2) || s[i + 3] != ':' || !digits(s, i + 4, 2))
            return std::nullopt;
        const int oh = number_at(s, i + 1, 2), om = number_at(s, i + 4, 2);
        if (oh > 23 || om > 59) return std::nullopt;
        offset_seconds = (s[i] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
    } else {
        return std::nullopt;
    }

    const std::int64_t seconds_since_epoch =
        std::int64_t{sys_days(ymd).time_since_epoch().count()} * 86400 + hour * 3600 +
        minute * 60 + second - offset_seconds;
    // The clock holds about +-292 years around 1970 in nanoseconds: check before converting.
    constexpr auto max_seconds = duration_cast<seconds>(system_clock::duration::max()).count() - 1;
    constexpr auto min_seconds = duration_cast<seconds>(system_clock::duration::min()).count() + 1;
    if (seconds_since_epoch > max_seconds || seconds_since_epoch < min_seconds) return std::nullopt;
    return time_point(duration_cast<system_clock::duration>(seconds(seconds_since_epoch) +
                                                            nanoseconds(fraction_ns)));
}

std::string describe(const boost::json::value& v) {
    switch (v.kind()) {
    case boost::json::kind::null: return "null";
    case boost::json::kind::bool_: return v.get_bool() ? "true" : "false";
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
    case boost::json::kind::double_: return "number " + boost::json::serialize(v);
    case boost::json::kind::string: {
        const std::string redacted = redact_secrets(v.get_string()); // before the cut
        const std::string_view s = redacted;
        constexpr std::size_t limit = 40;
        if (s.size() <= limit) return "string " + boost::json::serialize(boost::json::value(s));
        std::size_t cut = limit;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
        return "string " + boost::json::serialize(boost::json::value(s.substr(0, cut))) + "...";
    }
    case boost::json::kind::array: return "array";
    case boost::json::kind::object: return "object";
    }
    return "value";
}

std::string member_path(std::string_view key) {
    std::string path = "/"; // appended, not "/" + token: GCC 12 warns falsely on that operator+
    path += json_detail::pointer_token(key);
    return path;
}

void fail(std::string path, std::string reason) { throw json_error(std::move(path), std::move(reason)); }

void fail_type(std::string path, std::string_view expected, const boost::json::value& got) {
    fail(std::move(path), "expected " + std::string(expected) + ", got " + describe(got));
}

const boost::json::object& expect_object(const boost::json::value& json, std::string_view what) {
    if (!json.is_object()) fail_type("", std::string(what) + " object", json);
    return json.get_object();
}

const boost::json::value* find(const boost::json::object& o, std::string_view key) {
    return o.if_contains(key);
}

std::string read_string(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = find(o, key);
    if (!v || v->is_null()) return {};
    if (!v->is_string()) fail_type(member_path(key), "string", *v);
    return std::string(v->get_string());
}

std::string read_required_string(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = find(o, key);
    if (!v) fail("", "missing required member \"" + std::string(key) + "\"");
    if (!v->is_string()) fail_type(member_path(key), "string", *v);
    return std::string(v->get_string());
}

std::optional<std::string> read_optional_string(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = find(o, key);
    if (!v || v->is_null()) return std::nullopt;
    if (!v->is_string()) fail_type(member_path(key), "string or null", *v);
    return std::string(v->get_string());
}

std::optional<std::int64_t> read_optional_int(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = find(o, key);
    if (!v || v->is_null()) return std::nullopt;
    if (v->is_int64()) return v->get_int64();
    if (v->is_uint64() && v->get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
        return static_cast<std::int64_t>(v->get_uint64());
    fail_type(member_path(key), "64-bit integer or null", *v);
}

std::optional<bool> read_optional_bool(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = find(o, key);
    if (!v || v->is_null()) return std::nullopt;
    if (!v->is_bool()) fail_type(member_path(key), "boolean or null", *v);
    return v->get_bool();
}

boost::json::value read_value(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = find(o, key);
    return v ? *v : boost::json::value();
}

boost::json::object read_object(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = find(o, key);
    if (!v || v->is_null()) return {};
    if (!v->is_object()) fail_type(member_path(key), "object or null", *v);
    return v->get_object();
}

std::optional<rate_limits> read_rate_limits(const boost::json::object& o) {
    constexpr std::string_view key = "rate_limits";
    const boost::json::value* v = find(o, key);
    if (!v || v->is_null()) return std::nullopt;
    if (!v->is_object()) fail_type(member_path(key), "object or null", *v);
    return rate_limits::from_json(v->get_object());
}

void write_rate_limits(boost::json::object& o, const std::optional<rate_limits>& limits) {
    if (limits) o["rate_limits"] = limits->to_json();
}

std::optional<time_point> read_time(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = find(o, key);
    if (!v || v->is_null()) return std::nullopt;
    if (!v->is_string()) fail_type(member_path(key), "RFC 3339 date-time string or null", *v);
    auto t = parse_time(v->get_string());
    if (!t)
        fail_type(member_path(key),
                  "RFC 3339 date-time between 1677 and 2262 (e.g. \"2024-05-01T12:00:00Z\")", *v);
    return t;
}

void write_time(boost::json::object& o, std::string_view key, const std::optional<time_point>& t) {
    if (t) o[key] = format_time(*t);
}

void write_metadata(boost::json::object& o, const boost::json::value& raw,
                    const boost::json::object& properties) {
    if (!raw.is_null()) o["raw_representation"] = raw;
    if (!properties.empty()) o["additional_properties"] = properties;
}

} // namespace forma::model_detail
