#include <forma/net/base_url.hpp>
#include "../text/ascii.hpp"
#include "url_authority.hpp"

#include <charconv>

namespace forma::net {

using text_detail::iequals;

namespace {

// The URL as a message may quote it: without user information or a query, where a
// credential could hide.
std::string quotable(std::string_view url) {
    std::string text(url.substr(0, url.find_first_of("?#")));
    const auto authority = text.find("://");
    const auto at = text.find('@', authority == std::string::npos ? 0 : authority);
    if (authority != std::string::npos && at != std::string::npos && at < text.find('/', authority + 3))
        text.replace(authority + 3, at - authority - 3, "...");
    return text;
}

[[noreturn]] void fail(std::string_view url, std::string_view why) {
    throw error("invalid base URL \"" + quotable(url) + "\": " + std::string(why));
}

} // namespace

base_url parse_base_url(std::string_view url) {
    base_url result;
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string_view::npos) fail(url, "expected https:// or http://");
    const std::string_view scheme = url.substr(0, scheme_end);
    if (iequals(scheme, "https")) {
        result.tls = true;
        result.port = 443;
    } else if (iequals(scheme, "http")) {
        result.tls = false;
        result.port = 80;
    } else {
        fail(url, "the scheme must be https or http");
    }
    std::string_view rest = url.substr(scheme_end + 3);
    if (rest.find_first_of("?#") != std::string_view::npos) fail(url, "a base URL has no query or fragment");
    const auto path_start = rest.find('/');
    std::string_view authority = rest.substr(0, path_start);
    std::string_view path = path_start == std::string_view::npos ? std::string_view{} : rest.substr(path_start);
    if (authority.find('@') != std::string_view::npos)
        fail(url, "user information is not allowed (pass the API key in the options)");

    std::string problem;
    const std::optional<net::detail::url_authority> split = net::detail::split_authority(authority, problem);
    if (!split) fail(url, problem);
    result.host = split->host;
    if (split->port) {
        result.port = *split->port;
        result.explicit_port = result.port != (result.tls ? 443 : 80);
    }
    while (!path.empty() && path.back() == '/') path.remove_suffix(1);
    result.path = std::string(path);
    return result;
}

namespace {

// IPv6 addresses are written in brackets next to a port.
std::string bracketed(const std::string& host) {
    if (host.find(':') == std::string::npos) return host;
    std::string text;
    text.reserve(host.size() + 2);
    text += '[';
    text += host;
    text += ']';
    return text;
}

} // namespace

std::string base_url::host_header() const {
    std::string header = bracketed(host);
    if (explicit_port) header.append(":").append(std::to_string(port));
    return header;
}

std::string base_url::authority() const { return bracketed(host).append(":").append(std::to_string(port)); }

} // namespace forma::net
