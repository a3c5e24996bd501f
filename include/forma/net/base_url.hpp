#pragma once

#include <forma/error.hpp>

#include <string>
#include <string_view>

namespace forma::net {

/// A client's base URL, taken apart: "https://api.openai.com/v1".
struct base_url {
    bool tls = true;
    /// The host as written, without brackets for IPv6 ("::1").
    std::string host{};
    /// The port, 443 or 80 when the URL names none.
    unsigned short port = 443;
    /// The path without a trailing slash ("/v1", or "" for none).
    std::string path{};
    /// Whether the port was written or differs from the scheme's default.
    bool explicit_port = false;

    /// The value of a `Host` header: host, in brackets for IPv6, and the port when not the default.
    std::string host_header() const;
    /// "host:port", for messages ("[::1]:8443").
    std::string authority() const;
};

/** Parses `https://host[:port][/path]` or `http://...`.
    @throws forma::error for another scheme, no host, a bad port, user
            information ("user:pass@"), a query or a fragment; the message
            quotes the URL.
*/
base_url parse_base_url(std::string_view url);

} // namespace forma::net
