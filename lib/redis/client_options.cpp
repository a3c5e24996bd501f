#include <forma/error.hpp>
#include <forma/redis/client_options.hpp>

#include "../text/ascii.hpp"
#include "../json/json_text.hpp"
#include "../net/url_authority.hpp"

#include <charconv>

namespace forma::redis {

namespace {

// The URL as a message may quote it: without the user information, where the password is.
std::string quotable(std::string_view url) {
    std::string text(url);
    const auto authority = text.find("://");
    const auto at = text.rfind('@');
    if (authority != std::string::npos && at != std::string::npos && at > authority)
        text.replace(authority + 3, at - authority - 3, "...");
    return json_detail::valid_utf8(text);
}

[[noreturn]] void fail(std::string_view url, std::string_view why) {
    throw error("invalid Redis URL \"" + quotable(url) + "\": " + std::string(why));
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percent_decoded(std::string_view url, std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
            continue;
        }
        const int high = i + 2 < text.size() ? hex_value(text[i + 1]) : -1;
        const int low = high < 0 ? -1 : hex_value(text[i + 2]);
        if (low < 0) fail(url, "a '%' in the user information is not followed by two hex digits");
        out += static_cast<char>(high * 16 + low);
        i += 2;
    }
    return out;
}

template <class Number>
Number parse_number(std::string_view url, std::string_view text, Number max, std::string_view what) {
    unsigned long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value > static_cast<unsigned long long>(max))
        fail(url, std::string("the ") + std::string(what) + " \"" + json_detail::valid_utf8(text) + "\" is not a number up to " +
                      std::to_string(max));
    return static_cast<Number>(value);
}

} // namespace

client_options client_options::from_url(std::string_view url) {
    client_options options;
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string_view::npos) fail(url, "expected redis:// or rediss://");
    const std::string_view scheme = url.substr(0, scheme_end);
    if (text_detail::iequals(scheme, "rediss")) {
        options.tls = true;
    } else if (!text_detail::iequals(scheme, "redis")) {
        fail(url, "the scheme must be redis or rediss");
    }
    std::string_view rest = url.substr(scheme_end + 3);
    if (rest.find_first_of("?#") != std::string_view::npos) fail(url, "query parameters are not supported");
    const auto path_start = rest.find('/');
    std::string_view authority = rest.substr(0, path_start);
    if (path_start != std::string_view::npos && path_start + 1 < rest.size()) {
        options.database = parse_number<int>(url, rest.substr(path_start + 1), 65535, "database");
    }
    if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
        const std::string_view user_info = authority.substr(0, at);
        authority = authority.substr(at + 1);
        const auto colon = user_info.find(':');
        if (colon == std::string_view::npos) {
            options.password = percent_decoded(url, user_info); // redis://secret@host, as redis-cli reads it
        } else {
            options.username = percent_decoded(url, user_info.substr(0, colon));
            options.password = percent_decoded(url, user_info.substr(colon + 1));
        }
    }
    std::string problem;
    const std::optional<net::detail::url_authority> split = net::detail::split_authority(authority, problem);
    if (!split) fail(url, problem);
    options.host = split->host;
    if (split->port) options.port = *split->port;
    return options;
}

} // namespace forma::redis
