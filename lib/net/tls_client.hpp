#pragma once
// TLS client contexts and sessions, shared by forma's HTTP connections and its Redis client.

#include <forma/net/tls_trust.hpp>

#include <boost/system/error_code.hpp>

#include <memory>
#include <string>

struct ssl_ctx_st; // OpenSSL's SSL_CTX
struct ssl_st;     // OpenSSL's SSL

namespace forma::net::detail {

/** TLS 1.2 or 1.3, the system's trust store plus the extra anchors, peer verification as asked;
    or the caller's own context, shared.
    @throws forma::error when ca_file or ca_certificates cannot be read.
*/
std::shared_ptr<ssl_ctx_st> make_tls_client_context(const tls_trust& trust);

struct ssl_free {
    void operator()(ssl_st* ssl) const noexcept;
};
using ssl_handle = std::unique_ptr<ssl_st, ssl_free>;

/** A TLS session over the connected socket `fd` (written with MSG_NOSIGNAL), asking OpenSSL
    to check the certificate's name, or IP address, against `host` and sending SNI for names.
    @throws forma::error when OpenSSL fails.
*/
ssl_handle start_tls_session(ssl_ctx_st* context, int fd, const std::string& host);

/** "TLS handshake with <where> failed: <cause>", with the verification result and a hint on
    trusting a private server when the certificate was refused.
*/
std::string tls_handshake_failure(const ssl_st* ssl, const std::string& where, const boost::system::error_code& ec);

} // namespace forma::net::detail
