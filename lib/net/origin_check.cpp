// origin_policy applied to a request's Host and Origin.
#include "origin_check.hpp"

#include "../text/ascii.hpp"
#include "url_authority.hpp"

#include <boost/asio/ip/address.hpp>

#include <algorithm>
#include <cctype>

namespace forma::net::detail {

namespace {

namespace ip = boost::asio::ip;

bool loopback_address(std::string_view host) {
    boost::system::error_code ec;
    const ip::address address = ip::make_address(host, ec);
    if (ec) return false;
    if (address.is_v6() && address.to_v6().is_v4_mapped())
        return ip::make_address_v4(ip::v4_mapped, address.to_v6()).is_loopback();
    return address.is_loopback();
}

bool loopback_name(std::string_view host) {
    return text_detail::iequals(host, "localhost") ||
           (host.size() > 10 && text_detail::iequals(host.substr(host.size() - 10), ".localhost")) || loopback_address(host);
}

// Whether the request reached this server on a loopback address ("127.0.0.1:8080", "[::1]:8080").
bool reached_on_loopback(const server_request& request) {
    std::string problem;
    const std::optional<url_authority> local = split_authority(request.local_address, problem);
    return local && loopback_address(local->host);
}

// What is quoted of a peer's text in a message: printable ASCII (a host or an origin is; any
// other byte shows as '?', so the message stays valid UTF-8), not longer than a line.
std::string quoted(std::string_view text) {
    constexpr std::size_t longest = 120;
    std::string shown(text.substr(0, longest));
    for (char& c : shown)
        if (c < 0x20 || c > 0x7e) c = '?';
    if (text.size() > longest) shown += "...";
    return "\"" + shown + "\"";
}

struct origin {
    std::string scheme; // lower case
    url_authority authority;
};

std::optional<origin> parse_origin(std::string_view text) {
    const std::size_t separator = text.find("://");
    if (separator == std::string_view::npos || separator == 0) return std::nullopt;
    std::string_view rest = text.substr(separator + 3);
    if (const std::size_t slash = rest.find('/'); slash != std::string_view::npos) {
        if (slash + 1 != rest.size()) return std::nullopt; // an origin has no path
        rest = rest.substr(0, slash);
    }
    std::string problem;
    std::optional<url_authority> authority = split_authority(rest, problem);
    if (!authority) return std::nullopt;
    return origin{text_detail::to_lower(std::string(text.substr(0, separator))), std::move(*authority)};
}

unsigned short port_of(const origin& o) {
    if (o.authority.port) return *o.authority.port;
    return o.scheme == "https" ? 443 : o.scheme == "http" ? 80 : 0;
}

bool same_origin(const origin& a, const origin& b) {
    return a.scheme == b.scheme && text_detail::iequals(a.authority.host, b.authority.host) && port_of(a) == port_of(b);
}

// Whether `from` is the page origin of a server reached by `host` (the Host field). The scheme
// is left aside: a proxy that ends TLS forwards https pages' requests over plain HTTP.
bool origin_of_host(const origin& from, const url_authority& host) {
    if (!text_detail::iequals(from.authority.host, host.host)) return false;
    return host.port ? port_of(from) == *host.port : !from.authority.port || port_of(from) == (from.scheme == "https" ? 443 : 80);
}

// A host name as the Host field may carry it: a registered name (letters, digits, '-', '.') or
// an IP literal; nothing else (no user information, no percent-encoding). A final dot is dropped.
std::optional<std::string> host_name(std::string_view host) {
    if (!host.empty() && host.back() == '.') host.remove_suffix(1);
    if (host.empty()) return std::nullopt;
    boost::system::error_code ec;
    (void)ip::make_address(host, ec);
    if (!ec) return std::string(host);
    for (const char c : host)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.')) return std::nullopt;
    return std::string(host);
}

// Whether `host` (with its port, if the field named one) is the name `entry` of allowed_hosts
// ("agents.example.com", "[::1]", "agents.example.com:8443": then the port must be the same).
bool listed(std::string_view entry, const std::string& host, const std::optional<unsigned short>& port) {
    std::string problem;
    const std::optional<url_authority> allowed = split_authority(entry, problem);
    if (!allowed) return false;
    const std::optional<std::string> name = host_name(allowed->host);
    return name && text_detail::iequals(*name, host) && (!allowed->port || allowed->port == port);
}

// The fields the policy reads: the Host field (and whether there is more than one), the first Origin field.
struct policy_fields {
    const std::string* host = nullptr;
    bool more_than_one_host = false;
    const std::string* origin = nullptr;
};

policy_fields fields_of(const server_request& request) {
    policy_fields fields;
    for (const auto& [name, value] : request.headers) {
        if (text_detail::iequals(name, "Host")) {
            fields.more_than_one_host = fields.host != nullptr;
            fields.host = &value;
        } else if (!fields.origin && text_detail::iequals(name, "Origin")) {
            fields.origin = &value;
        }
    }
    return fields;
}

} // namespace

std::optional<std::string> origin_refusal(const server_request& request, const origin_policy& policy) {
    const auto any = [](const std::vector<std::string>& list) { return std::ranges::find(list, "*") != list.end(); };
    const bool loopback = reached_on_loopback(request);
    const policy_fields fields = fields_of(request);
    if (fields.more_than_one_host) return std::string("the request has more than one Host field");
    const std::string* host_field = fields.host;
    std::optional<url_authority> host;
    // Whether the Host was held to a list (the loopback names or allowed_hosts): only then does
    // a page of the Host's own origin pass, since a rebound name is its own origin too.
    bool host_checked = false;
    if (host_field && !host_field->empty()) { // an empty Host is allowed where the target has no authority
        std::string problem;
        host = split_authority(*host_field, problem);
        std::optional<std::string> name = host ? host_name(host->host) : std::nullopt;
        if (!name) return "the Host " + quoted(*host_field) + " names no host" + (problem.empty() ? std::string() : ": " + problem);
        host->host = std::move(*name);
        bool allowed = true;
        if (!policy.allowed_hosts.empty()) {
            host_checked = !any(policy.allowed_hosts);
            allowed = !host_checked || std::ranges::any_of(policy.allowed_hosts, [&](const std::string& entry) { return listed(entry, host->host, host->port); });
        } else if (loopback) {
            host_checked = true;
            allowed = loopback_name(host->host);
        }
        if (!allowed) {
            if (policy.allowed_hosts.empty())
                return "the Host " + quoted(*host_field) +
                       " is not a name of this server: reached on a loopback address, it answers localhost, 127.0.0.1 and [::1] "
                       "(a guard against DNS rebinding); name the host in origin_policy::allowed_hosts (server_options::origins) to serve it";
            return "the Host " + quoted(*host_field) + " is not one of origin_policy::allowed_hosts (server_options::origins)";
        }
    }
    const std::string* origin_field = fields.origin;
    if (!origin_field || any(policy.allowed_origins)) return std::nullopt;
    const std::optional<origin> from = parse_origin(*origin_field);
    if (from) {
        if (host && host_checked && origin_of_host(*from, *host)) return std::nullopt;
        if (policy.allowed_origins.empty() ? loopback && loopback_name(from->authority.host)
                                           : std::ranges::any_of(policy.allowed_origins, [&](const std::string& allowed) {
                                                 const std::optional<origin> o = parse_origin(allowed);
                                                 return o && same_origin(*o, *from);
                                             }))
            return std::nullopt;
    }
    return "pages of the Origin " + quoted(*origin_field) + " may not call this server (only its own origin, once its Host is " +
           "a listed or loopback name" + (loopback ? ", and loopback ones" : std::string()) +
           "); name the origin in origin_policy::allowed_origins (server_options::origins) to let them";
}

std::optional<std::string> origin_memo::refusal(const server_request& request, const origin_policy& policy) {
    const policy_fields fields = fields_of(request);
    const bool one_host = fields.host && !fields.more_than_one_host;
    if (passed_ && one_host && *fields.host == host_ && (fields.origin ? origin_ && *fields.origin == *origin_ : !origin_))
        return std::nullopt;
    std::optional<std::string> refused = origin_refusal(request, policy);
    passed_ = !refused && one_host;
    if (passed_) {
        host_ = *fields.host;
        origin_ = fields.origin ? std::optional<std::string>(*fields.origin) : std::nullopt;
    }
    return refused;
}

} // namespace forma::net::detail
