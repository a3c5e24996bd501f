#pragma once

#include <string>
#include <vector>

namespace forma::net {

/** Which `Host` and `Origin` a server answers: the guard against DNS rebinding (a web page
    whose name is made to resolve to 127.0.0.1 reaches a server on this machine) and against
    pages of other sites calling it from a browser. A request that breaks it is answered 403 in
    its route's error shape, before authentication and before its body is read.

        options.origins.allowed_hosts = {"agents.example.com"};       // behind a proxy, say
        options.origins.allowed_origins = {"https://app.example.com"}; // a page elsewhere

    The MCP Streamable HTTP transport requires the Origin check of every server.
*/
struct origin_policy {
    /// Host names (no port, any ASCII case) a request's `Host` may name; "*" any name. Empty:
    /// the loopback names (localhost, *.localhost, 127.0.0.0/8, [::1]) when the request reached
    /// a loopback address, any name when it reached another one. A request without `Host` passes.
    std::vector<std::string> allowed_hosts{};
    /// Origins ("https://app.example.com", scheme://host[:port]) whose pages may call the server,
    /// besides its own (the scheme it is served on with the request's `Host`); "*" any. Empty:
    /// only its own, and any loopback origin when the request reached a loopback address. A
    /// request without `Origin` (not from a browser) passes.
    std::vector<std::string> allowed_origins{};
};

} // namespace forma::net
