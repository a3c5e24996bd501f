#include <forma/testing/self_signed_certificate.hpp>

#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <ctime>
#include <memory>

namespace {

struct x509_free_t {
    void operator()(X509* x) const { X509_free(x); }
};
struct pkey_free_t {
    void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};

std::unique_ptr<X509, x509_free_t> read_certificate(const std::string& pem) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())),
                                                  &BIO_free);
    return std::unique_ptr<X509, x509_free_t>(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
}

std::unique_ptr<EVP_PKEY, pkey_free_t> read_key(const std::string& pem) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())),
                                                  &BIO_free);
    return std::unique_ptr<EVP_PKEY, pkey_free_t>(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
}

} // namespace

TEST(self_signed_certificate, names_the_local_server_and_signs_itself) {
    const auto pem = forma::testing::make_self_signed_certificate();
    auto cert = read_certificate(pem.certificate);
    auto key = read_key(pem.private_key);
    ASSERT_TRUE(cert);
    ASSERT_TRUE(key);
    EXPECT_EQ(X509_check_private_key(cert.get(), key.get()), 1) << "the key belongs to the certificate";
    EXPECT_EQ(X509_verify(cert.get(), key.get()), 1) << "self-signed";
    EXPECT_EQ(X509_check_host(cert.get(), "localhost", 0, 0, nullptr), 1);
    EXPECT_EQ(X509_check_ip_asc(cert.get(), "127.0.0.1", 0), 1);
    EXPECT_EQ(X509_check_ip_asc(cert.get(), "::1", 0), 1);
    EXPECT_NE(X509_check_host(cert.get(), "example.com", 0, 0, nullptr), 1);
    EXPECT_EQ(X509_check_ca(cert.get()), 1) << "usable as its own trust anchor";
}

TEST(self_signed_certificate, is_valid_now_and_for_the_requested_time) {
    const auto pem = forma::testing::make_self_signed_certificate({"model.test"}, {}, std::chrono::hours(2));
    auto cert = read_certificate(pem.certificate);
    ASSERT_TRUE(cert);
    const std::time_t now = std::time(nullptr);
    std::time_t in_one_hour = now + 3600, in_three_hours = now + 3 * 3600;
    EXPECT_LT(X509_cmp_time(X509_get0_notBefore(cert.get()), &in_one_hour), 0);
    EXPECT_GT(X509_cmp_time(X509_get0_notAfter(cert.get()), &in_one_hour), 0);
    EXPECT_LT(X509_cmp_time(X509_get0_notAfter(cert.get()), &in_three_hours), 0);
    EXPECT_EQ(X509_check_host(cert.get(), "model.test", 0, 0, nullptr), 1);
    EXPECT_NE(X509_check_ip_asc(cert.get(), "127.0.0.1", 0), 1) << "no IP asked for, none given";
}

TEST(self_signed_certificate, each_certificate_has_its_own_key) {
    EXPECT_NE(forma::testing::make_self_signed_certificate().private_key,
              forma::testing::make_self_signed_certificate().private_key);
}
