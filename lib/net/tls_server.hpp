#pragma once
// TLS server contexts and sessions for http_server.

#include <forma/net/server_options.hpp>

#include "tls_client.hpp"

#include <memory>

namespace forma::net::detail {

/** TLS 1.2 or newer with the identity's certificate chain and key; or the caller's context, shared.
    @throws forma::error when the PEM text does not hold a certificate and its matching key.
*/
std::shared_ptr<ssl_ctx_st> make_tls_server_context(const tls_identity& identity);

/// A server's TLS session over the accepted socket `fd` (written with MSG_NOSIGNAL).
ssl_handle start_tls_server_session(ssl_ctx_st* context, int fd);

} // namespace forma::net::detail
