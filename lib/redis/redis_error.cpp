#include <forma/redis/redis_error.hpp>
#include <forma/redis/reply.hpp>
#include <forma/redis/script.hpp>

#include "../net/hex_digest.hpp"

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

script::script(std::string source) : source_(std::move(source)), sha1_(net::detail::hex_digest(EVP_sha1(), source_)) {}

} // namespace forma::redis
