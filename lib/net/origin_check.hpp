#pragma once
// The origin_policy check of a request's head, shared by http_server and beast_routes.

#include <forma/net/origin_policy.hpp>
#include <forma/net/server_request.hpp>

#include <optional>
#include <string>

namespace forma::net::detail {

/// Why `request` breaks `policy` (a sentence for its 403), or nothing when it keeps it.
std::optional<std::string> origin_refusal(const server_request& request, const origin_policy& policy);

/** origin_refusal for the requests of one connection: a head whose one Host field and Origin
    field (or its absence) are those of the last head that passed, passes again unchecked. The
    verdict depends on nothing else that could change: the policy is the server's, the local
    address the connection's.
*/
class origin_memo {
public:
    std::optional<std::string> refusal(const server_request& request, const origin_policy& policy);

private:
    bool passed_ = false;
    std::string host_;
    std::optional<std::string> origin_;
};

} // namespace forma::net::detail
