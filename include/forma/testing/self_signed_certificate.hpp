#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace forma::testing {

/// A certificate and its private key, PEM-encoded.
struct certificate_pem {
    std::string certificate;
    std::string private_key;
};

/** Makes a self-signed certificate (ECDSA P-256, SHA-256) for a local TLS server,
    valid from an hour ago for `validity`, for the given DNS names and IP addresses
    (subject alternative names; the first DNS name is also the common name).

    The local model server makes one at start; a client trusts it through
    `ca_file` (a self-signed certificate is its own authority).
    @throws forma::error when OpenSSL fails.
*/
certificate_pem make_self_signed_certificate(
    const std::vector<std::string>& dns_names = {"localhost"},
    const std::vector<std::string>& ip_addresses = {"127.0.0.1", "::1"},
    std::chrono::hours validity = std::chrono::hours(24));

} // namespace forma::testing
