#include "tls_client.hpp"
#include "tls_stream.hpp"

#include <forma/error.hpp>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl/context.hpp>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

namespace forma::net::detail {

namespace {

void add_pem_anchors(SSL_CTX* context, const std::string& pem) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free);
    int added = 0;
    while (X509* certificate = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
        const int ok = X509_STORE_add_cert(SSL_CTX_get_cert_store(context), certificate);
        X509_free(certificate);
        if (!ok) throw error("cannot add a certificate of ca_certificates: " + openssl_reason());
        ++added;
    }
    ERR_clear_error(); // the end of the PEM text
    if (added == 0) throw error("ca_certificates holds no PEM certificate");
}

} // namespace

std::shared_ptr<SSL_CTX> make_tls_client_context(const tls_trust& trust) {
    std::shared_ptr<SSL_CTX> context = tls_context_for(trust.context, TLS_client_method(), "TLS");
    if (trust.context) return context;
    SSL_CTX* native = context.get();
    if (!trust.verify_peer) {
        SSL_CTX_set_verify(native, SSL_VERIFY_NONE, nullptr);
        return context;
    }
    SSL_CTX_set_verify(native, SSL_VERIFY_PEER, nullptr);
    SSL_CTX_set_default_verify_paths(native); // no system store is not an error: ca_file may be enough
    ERR_clear_error();
    if (!trust.ca_file.empty() && SSL_CTX_load_verify_locations(native, trust.ca_file.c_str(), nullptr) != 1)
        throw error("cannot read the trust anchors in ca_file \"" + trust.ca_file + "\": " + openssl_reason());
    if (!trust.ca_certificates.empty()) add_pem_anchors(native, trust.ca_certificates);
    return context;
}

void ssl_free::operator()(SSL* ssl) const noexcept { SSL_free(ssl); }

ssl_handle start_tls_session(SSL_CTX* context, int fd, const std::string& host) {
    ssl_handle ssl(SSL_new(context));
    BIO* bio = ssl ? socket_bio::make(fd) : nullptr;
    if (!bio) throw error("cannot start TLS: " + openssl_reason());
    SSL* native = ssl.get();
    SSL_set_bio(native, bio, bio); // the SSL owns the BIO
    boost::system::error_code not_an_address;
    boost::asio::ip::make_address(host, not_an_address);
    const bool verify = (SSL_get_verify_mode(native) & SSL_VERIFY_PEER) != 0;
    if (not_an_address) {
        if (!SSL_set_tlsext_host_name(native, host.c_str()) || (verify && !SSL_set1_host(native, host.c_str())))
            throw error("cannot set the TLS host name " + host);
    } else if (verify && !X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(native), host.c_str())) {
        throw error("cannot set the TLS peer address " + host);
    }
    return ssl;
}

std::string tls_handshake_failure(const SSL* ssl, const std::string& where, const boost::system::error_code& ec) {
    std::string message = "TLS handshake with " + where + " failed: " + ec.message();
    const long verify_result = ssl ? SSL_get_verify_result(ssl) : X509_V_OK;
    if (verify_result != X509_V_OK) {
        message += " (";
        message += X509_verify_cert_error_string(verify_result);
        message += "; to trust a private server, give its certificate as trust.ca_file or trust.ca_certificates)";
    }
    return message;
}

} // namespace forma::net::detail
