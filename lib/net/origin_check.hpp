#pragma once
// The origin_policy check of a request's head, shared by http_server and beast_routes.

#include <forma/net/origin_policy.hpp>
#include <forma/net/server_request.hpp>

#include <optional>
#include <string>

namespace forma::net::detail {

/// Why `request` breaks `policy` (a sentence for its 403), or nothing when it keeps it.
std::optional<std::string> origin_refusal(const server_request& request, const origin_policy& policy);

} // namespace forma::net::detail
