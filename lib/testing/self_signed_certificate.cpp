#include <forma/testing/self_signed_certificate.hpp>

#include <forma/error.hpp>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>

#include <functional>
#include <memory>

namespace forma::testing {
namespace {

template <class T, void (*Free)(T*)>
struct openssl_deleter {
    void operator()(T* p) const noexcept { Free(p); }
};
template <class T, void (*Free)(T*)>
using openssl_ptr = std::unique_ptr<T, openssl_deleter<T, Free>>;

using pkey_ptr = openssl_ptr<EVP_PKEY, EVP_PKEY_free>;
using x509_ptr = openssl_ptr<X509, X509_free>;
using bio_ptr = openssl_ptr<BIO, BIO_free_all>;

[[noreturn]] void fail(const char* what) {
    const unsigned long code = ERR_get_error();
    char detail[256] = "no OpenSSL error queued";
    if (code) ERR_error_string_n(code, detail, sizeof detail);
    throw error(std::string("making a self-signed certificate: ") + what + ": " + detail);
}

void check(int ok, const char* what) {
    if (ok != 1) fail(what);
}

std::string to_pem(const std::function<int(BIO*)>& write) {
    bio_ptr bio(BIO_new(BIO_s_mem()));
    if (!bio || write(bio.get()) != 1) fail("writing PEM");
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(size));
}

} // namespace

certificate_pem make_self_signed_certificate(const std::vector<std::string>& dns_names,
                                             const std::vector<std::string>& ip_addresses,
                                             std::chrono::hours validity) {
    pkey_ptr key(EVP_EC_gen("P-256"));
    if (!key) fail("generating the key");

    x509_ptr cert(X509_new());
    if (!cert) fail("allocating the certificate");
    check(X509_set_version(cert.get(), 2), "setting the version"); // X.509 v3
    unsigned char serial[16];
    check(RAND_bytes(serial, sizeof serial), "drawing the serial number");
    serial[0] &= 0x7F; // a positive serial number
    openssl_ptr<BIGNUM, BN_free> serial_number(BN_bin2bn(serial, sizeof serial, nullptr));
    if (!serial_number || !BN_to_ASN1_INTEGER(serial_number.get(), X509_get_serialNumber(cert.get())))
        fail("setting the serial number");
    if (!X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) ||
        !X509_gmtime_adj(X509_getm_notAfter(cert.get()),
                         static_cast<long>(std::chrono::seconds(validity).count())))
        fail("setting the validity");
    check(X509_set_pubkey(cert.get(), key.get()), "setting the public key");

    const std::string common_name = dns_names.empty() ? std::string("forma test server") : dns_names.front();
    X509_NAME* name = X509_get_subject_name(cert.get());
    check(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                     reinterpret_cast<const unsigned char*>(common_name.c_str()), -1, -1, 0),
          "setting the common name");
    check(X509_set_issuer_name(cert.get(), name), "setting the issuer");

    std::string alt_names;
    for (const auto& dns : dns_names) alt_names += (alt_names.empty() ? "DNS:" : ",DNS:") + dns;
    for (const auto& ip : ip_addresses) alt_names += (alt_names.empty() ? "IP:" : ",IP:") + ip;
    X509V3_CTX context;
    X509V3_set_ctx(&context, cert.get(), cert.get(), nullptr, nullptr, 0);
    const auto add_extension = [&](int nid, const std::string& value) {
        openssl_ptr<X509_EXTENSION, X509_EXTENSION_free> extension(
            X509V3_EXT_conf_nid(nullptr, &context, nid, value.c_str()));
        if (!extension || X509_add_ext(cert.get(), extension.get(), -1) != 1) fail("adding an extension");
    };
    if (!alt_names.empty()) add_extension(NID_subject_alt_name, alt_names);
    add_extension(NID_basic_constraints, "critical,CA:TRUE"); // its own authority, for ca_file
    add_extension(NID_key_usage, "critical,digitalSignature,keyCertSign");
    add_extension(NID_ext_key_usage, "serverAuth");
    if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) fail("signing");

    return {to_pem([&](BIO* b) { return PEM_write_bio_X509(b, cert.get()); }),
            to_pem([&](BIO* b) {
                return PEM_write_bio_PrivateKey(b, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
            })};
}

} // namespace forma::testing
