#include <forma/redis/redis_error.hpp>
#include <forma/redis/reply.hpp>
#include <forma/redis/script.hpp>

#include <openssl/evp.h>

#include <stdexcept>

namespace forma::redis {

redis_error::redis_error(redis_error_kind kind, const std::string& message, bool may_have_run,
                         boost::system::error_code code)
    : error(message), kind_(kind), may_have_run_(may_have_run), code_(code) {}

redis_error::~redis_error() = default;

std::string_view to_string(reply_kind kind) noexcept {
    switch (kind) {
    case reply_kind::string: return "bulk string";
    case reply_kind::status: return "status";
    case reply_kind::integer: return "integer";
    case reply_kind::nil: return "nil";
    case reply_kind::error: return "error";
    case reply_kind::array: return "array";
    }
    return "unknown";
}

script::script(std::string source) : source_(std::move(source)) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_Digest(source_.data(), source_.size(), digest, &size, EVP_sha1(), nullptr) != 1)
        throw std::runtime_error("OpenSSL cannot compute a SHA-1");
    static constexpr char hex[] = "0123456789abcdef";
    sha1_.reserve(2 * size);
    for (unsigned int i = 0; i < size; ++i) {
        sha1_ += hex[digest[i] >> 4];
        sha1_ += hex[digest[i] & 15];
    }
}

} // namespace forma::redis
