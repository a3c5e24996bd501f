#include "tls_server.hpp"
#include "tls_stream.hpp"

#include <forma/error.hpp>

#include <boost/asio/ssl/context.hpp>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>

namespace forma::net::detail {

namespace {

struct bio_free {
    void operator()(BIO* bio) const noexcept { BIO_free(bio); }
};

std::unique_ptr<BIO, bio_free> memory_bio(const std::string& pem) {
    return std::unique_ptr<BIO, bio_free>(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

void use_chain(SSL_CTX* context, const std::string& pem) {
    auto bio = memory_bio(pem);
    X509* leaf = bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr;
    if (!leaf) throw error("the TLS server's certificate_chain holds no PEM certificate");
    const int used = SSL_CTX_use_certificate(context, leaf);
    X509_free(leaf);
    if (used != 1) throw error("the TLS server's certificate was refused: " + openssl_reason());
    while (X509* next = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
        if (SSL_CTX_add_extra_chain_cert(context, next) != 1) { // takes ownership on success
            X509_free(next);
            throw error("the TLS server's certificate chain was refused: " + openssl_reason());
        }
    }
    ERR_clear_error(); // the end of the PEM text
}

void use_key(SSL_CTX* context, const std::string& pem) {
    auto bio = memory_bio(pem);
    EVP_PKEY* key = bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr;
    if (!key) throw error("the TLS server's private_key holds no PEM private key");
    const int used = SSL_CTX_use_PrivateKey(context, key);
    EVP_PKEY_free(key);
    if (used != 1 || SSL_CTX_check_private_key(context) != 1)
        throw error("the TLS server's private key does not match its certificate: " + openssl_reason());
}

} // namespace

std::shared_ptr<SSL_CTX> make_tls_server_context(const tls_identity& identity) {
    std::shared_ptr<SSL_CTX> context = tls_context_for(identity.context, TLS_server_method(), "TLS server");
    if (identity.context) return context;
    use_chain(context.get(), identity.certificate_chain);
    use_key(context.get(), identity.private_key);
    return context;
}

ssl_handle start_tls_server_session(SSL_CTX* context, int fd) {
    ssl_handle ssl(SSL_new(context));
    BIO* bio = ssl ? socket_bio::make(fd) : nullptr;
    if (!bio) throw error("cannot start TLS: " + openssl_reason());
    SSL_set_bio(ssl.get(), bio, bio); // the SSL owns the BIO
    SSL_set_accept_state(ssl.get());
    return ssl;
}

} // namespace forma::net::detail
