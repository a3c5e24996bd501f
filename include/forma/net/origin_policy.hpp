#pragma once

#include <string>
#include <vector>

namespace forma::net {

/** Which `Host` and `Origin` a server answers: the guard against DNS rebinding (a web page
    whose name is made to resolve to 127.0.0.1 reaches a server on this machine) and against
    pages of other sites calling it from a browser. A request that breaks it is answered 403 in
    its route's error shape (by http_server after authentication, before the body is read).
    It decides which requests are answered; it does not answer CORS preflights (OPTIONS): a
    page of another origin that sends JSON needs a CORS layer in front.

        options.origins.allowed_hosts = {"agents.example.com"};       // behind a proxy, say
        options.origins.allowed_origins = {"https://app.example.com"}; // a page elsewhere

    The MCP Streamable HTTP transport requires the Origin check of every server.
*/
struct origin_policy {
    /// Host names (any ASCII case; "name:port" for that port only) a request's `Host` may name;
    /// "*" any name. Empty: the loopback names (localhost, *.localhost, 127.0.0.0/8, [::1]) when
    /// the request reached a loopback address, any name when it reached another one. A request
    /// without `Host`, or with an empty one, passes; two Host fields, or one that is no host
    /// name (user information, percent-encoding), do not.
    std::vector<std::string> allowed_hosts{};
    /// Origins ("https://app.example.com", scheme://host[:port]) whose pages may call the server,
    /// besides its own (the request's `Host`, once that is a loopback name or one of a list of
    /// allowed_hosts: a rebound name is its own origin too); "*" any. Empty: only its own, and
    /// any loopback origin when the request reached a loopback address. So a server reached on
    /// another address answers its own pages once allowed_hosts names it. A request without
    /// `Origin` (not from a browser) passes.
    std::vector<std::string> allowed_origins{};
};

} // namespace forma::net
