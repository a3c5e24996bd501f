#pragma once
// A URL's authority ("host", "host:port", "[::1]:port") split into host and port, for the parsers
// of base URLs and Redis URLs.

#include <charconv>
#include <optional>
#include <string>
#include <string_view>

namespace forma::net::detail {

struct url_authority {
    std::string host;
    /// Set when the authority names a port: 1 to 65535.
    std::optional<unsigned short> port;
};

/// The host and port of `authority` (without user information), or the reason it has none that works.
inline std::optional<url_authority> split_authority(std::string_view authority, std::string& problem) {
    url_authority out;
    std::string_view port_text;
    bool has_port = false;
    if (!authority.empty() && authority.front() == '[') {
        const auto close = authority.find(']');
        if (close == std::string_view::npos) {
            problem = "unclosed '[' in the host";
            return std::nullopt;
        }
        out.host = std::string(authority.substr(1, close - 1));
        const std::string_view after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') {
                problem = "unexpected characters after the IPv6 address";
                return std::nullopt;
            }
            port_text = after.substr(1);
            has_port = true;
        }
    } else {
        const auto colon = authority.rfind(':');
        if (colon != std::string_view::npos) {
            port_text = authority.substr(colon + 1);
            authority = authority.substr(0, colon);
            has_port = true;
        }
        out.host = std::string(authority);
    }
    if (out.host.empty()) {
        problem = "no host";
        return std::nullopt;
    }
    if (has_port) {
        unsigned value = 0;
        const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), value);
        if (port_text.empty() || ec != std::errc{} || end != port_text.data() + port_text.size() || value == 0 ||
            value > 65535) {
            problem = "the port must be a number from 1 to 65535";
            return std::nullopt;
        }
        out.port = static_cast<unsigned short>(value);
    }
    return out;
}

} // namespace forma::net::detail
