#pragma once
// A message digest in lowercase hex, by OpenSSL: Redis script names (SHA-1), cache keys (SHA-256).

#include <forma/error.hpp>

#include <openssl/evp.h>

#include <string>
#include <string_view>

namespace forma::net::detail {

inline std::string hex_digest(const EVP_MD* algorithm, std::string_view data) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_Digest(data.data(), data.size(), digest, &size, algorithm, nullptr) != 1)
        throw error("OpenSSL cannot compute a digest");
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(2 * size);
    for (unsigned int i = 0; i < size; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 15];
    }
    return out;
}

} // namespace forma::net::detail
