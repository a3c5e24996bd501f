#include <forma/json/detail/constraints.hpp>
#include <forma/json/detail/reader.hpp>
#include <forma/json/schema_error.hpp>
#include "../text/decimal_digits.hpp"
#include "constraint_sentences.hpp"
#include "ecma_pattern.hpp"

#include <arpa/inet.h>

#include <array>
#include <charconv>
#include <cmath>
#include <unordered_map>

namespace forma::json_detail {

using text_detail::digits;
using text_detail::number_at;

namespace {

std::string format_number(double v) {
    std::array<char, 32> buf{};
    auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
    return std::string(buf.data(), r.ptr);
}

bool is_date(std::string_view s) {
    if (s.size() != 10 || !digits(s, 0, 4) || s[4] != '-' || !digits(s, 5, 2) || s[7] != '-' ||
        !digits(s, 8, 2))
        return false;
    const int year = number_at(s, 0, 4), month = number_at(s, 5, 2), day = number_at(s, 8, 2);
    static constexpr int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12 || day < 1 || day > days[month - 1]) return false;
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return !(month == 2 && day == 29 && !leap);
}

// RFC 3339 full-time: HH:MM:SS[.frac](Z|+HH:MM|-HH:MM)
bool is_time(std::string_view s) {
    if (!digits(s, 0, 2) || s.size() < 9 || s[2] != ':' || !digits(s, 3, 2) || s[5] != ':' ||
        !digits(s, 6, 2))
        return false;
    if (number_at(s, 0, 2) > 23 || number_at(s, 3, 2) > 59 || number_at(s, 6, 2) > 60) return false;
    std::size_t i = 8;
    if (i < s.size() && s[i] == '.') {
        const std::size_t start = ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        if (i == start) return false;
    }
    if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) return i + 1 == s.size();
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        return s.size() == i + 6 && digits(s, i + 1, 2) && s[i + 3] == ':' && digits(s, i + 4, 2) &&
               number_at(s, i + 1, 2) <= 23 && number_at(s, i + 4, 2) <= 59;
    return false;
}

bool is_date_time(std::string_view s) {
    return s.size() > 11 && (s[10] == 'T' || s[10] == 't' || s[10] == ' ') &&
           is_date(s.substr(0, 10)) && is_time(s.substr(11));
}

// ISO 8601 duration as JSON Schema uses it: P[nY][nM][nW][nD][T[nH][nM][nS]].
bool is_duration(std::string_view s) {
    if (s.size() < 2 || s[0] != 'P') return false;
    bool in_time = false, any = false, time_any = false;
    std::size_t i = 1;
    while (i < s.size()) {
        if (s[i] == 'T') {
            if (in_time) return false;
            in_time = true;
            ++i;
            continue;
        }
        const std::size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        if (i == start || i == s.size()) return false;
        const char unit = s[i++];
        const std::string_view units = in_time ? "HMS" : "YMWD";
        if (units.find(unit) == std::string_view::npos) return false;
        any = true;
        time_any = time_any || in_time;
    }
    return any && (!in_time || time_any);
}

bool is_hostname(std::string_view s) {
    if (s.empty() || s.size() > 253) return false;
    std::size_t label = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '.') {
            if (label == 0 || s[i - 1] == '-') return false;
            label = 0;
            continue;
        }
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                        (c == '-' && label > 0);
        if (!ok || ++label > 63) return false;
    }
    return label > 0 && s.back() != '-';
}

bool is_ip(std::string_view s, int family);

// RFC 5321 mailbox, loosely: a local part without specials, then a host name (a dot is
// not required) or an address literal such as [127.0.0.1] or [IPv6:::1].
bool is_email(std::string_view s) {
    const auto at = s.rfind('@');
    if (at == std::string_view::npos || at == 0 || at > 64) return false;
    for (char c : s.substr(0, at))
        if (static_cast<unsigned char>(c) <= 0x20 || c == '@' || c == '"' || c == '(' || c == ')' ||
            c == ',' || c == ':' || c == ';' || c == '<' || c == '>' || c == '[' || c == ']' ||
            c == '\\')
            return false;
    const std::string_view domain = s.substr(at + 1);
    if (domain.size() > 2 && domain.front() == '[' && domain.back() == ']') {
        const std::string_view literal = domain.substr(1, domain.size() - 2);
        if (literal.starts_with("IPv6:")) return is_ip(literal.substr(5), AF_INET6);
        return is_ip(literal, AF_INET);
    }
    return is_hostname(domain);
}

bool is_uuid(std::string_view s) {
    if (s.size() != 36) return false;
    for (std::size_t i = 0; i < 36; ++i) {
        const char c = s[i];
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (c != '-') return false;
        } else if (!std::isxdigit(static_cast<unsigned char>(c))) {
            return false;
        }
    }
    return true;
}

bool is_ip(std::string_view s, int family) {
    if (s.size() > 45) return false;
    std::array<unsigned char, 16> buf{};
    const std::string text(s);
    return inet_pton(family, text.c_str(), buf.data()) == 1;
}

// RFC 3986 absolute URI, loosely: scheme ":" then printable characters without spaces.
bool is_uri(std::string_view s) {
    const auto colon = s.find(':');
    if (colon == std::string_view::npos || colon == 0 || !std::isalpha(static_cast<unsigned char>(s[0])))
        return false;
    for (char c : s.substr(0, colon))
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.')
            return false;
    for (char c : s)
        if (static_cast<unsigned char>(c) <= 0x20 || c == '"' || c == '<' || c == '>' || c == '\\')
            return false;
    return true;
}

} // namespace

std::size_t count_code_points(std::string_view utf8) noexcept {
    std::size_t n = 0;
    for (char c : utf8) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

bool matches_pattern(std::string_view pattern, std::string_view text) {
    // Patterns come from declarations (few) or from runtime schemas (any number): the
    // cache is bounded so that a stream of distinct patterns cannot grow it forever.
    constexpr std::size_t max_cached_patterns = 256;
    struct text_hash : std::hash<std::string_view> {
        using is_transparent = void;
    };
    thread_local std::unordered_map<std::string, compiled_pattern, text_hash, std::equal_to<>> compiled;
    auto it = compiled.find(pattern);
    if (it == compiled.end()) {
        if (compiled.size() >= max_cached_patterns) compiled.clear();
        try {
            it = compiled.emplace(std::string(pattern), compile_pattern(pattern)).first;
        } catch (const boost::regex_error& e) {
            throw schema_error("invalid pattern " + quoted_excerpt(pattern, 64) + ": " + e.what());
        }
    }
    // A match too complex to finish is not a match.
    return search(it->second, text) == match_result::yes;
}

bool is_checked_format(std::string_view f) noexcept {
    return f == "date-time" || f == "date" || f == "time" || f == "duration" || f == "email" ||
           f == "hostname" || f == "ipv4" || f == "ipv6" || f == "uuid" || f == "uri";
}

bool matches_format(std::string_view f, std::string_view s) {
    if (f == "date-time") return is_date_time(s);
    if (f == "date") return is_date(s);
    if (f == "time") return is_time(s);
    if (f == "duration") return is_duration(s);
    if (f == "email") return is_email(s);
    if (f == "hostname") return is_hostname(s);
    if (f == "ipv4") return is_ip(s, AF_INET);
    if (f == "ipv6") return is_ip(s, AF_INET6);
    if (f == "uuid") return is_uuid(s);
    if (f == "uri") return is_uri(s);
    return true;
}

std::string check_string(const field_info& info, std::string_view value) {
    if (info.min_length || info.max_length) {
        const std::size_t n = count_code_points(value);
        if (info.min_length && n < *info.min_length) return sentence::shorter_than(quoted_excerpt(value), *info.min_length);
        if (info.max_length && n > *info.max_length) return sentence::longer_than(quoted_excerpt(value), *info.max_length);
    }
    if (!info.pattern.empty() && !matches_pattern(info.pattern, value))
        return sentence::no_pattern_match(quoted_excerpt(value), quoted_excerpt(info.pattern, 64));
    if (!info.format.empty() && !matches_format(info.format, value))
        return sentence::not_a_valid(quoted_excerpt(value), info.format);
    return {};
}

std::string check_number(const field_info& info, double v) {
    if (info.minimum && v < *info.minimum) return sentence::less_than_minimum(format_number(v), format_number(*info.minimum));
    if (info.maximum && v > *info.maximum)
        return sentence::greater_than_maximum(format_number(v), format_number(*info.maximum));
    if (info.exclusive_minimum && v <= *info.exclusive_minimum)
        return sentence::not_above_exclusive_minimum(format_number(v), format_number(*info.exclusive_minimum));
    if (info.exclusive_maximum && v >= *info.exclusive_maximum)
        return sentence::not_below_exclusive_maximum(format_number(v), format_number(*info.exclusive_maximum));
    return {};
}

std::string check_item_count(const field_info& info, std::size_t n) {
    if (info.min_items && n < *info.min_items) return sentence::fewer_items(n, *info.min_items);
    if (info.max_items && n > *info.max_items) return sentence::more_items(n, *info.max_items);
    return {};
}

} // namespace forma::json_detail
