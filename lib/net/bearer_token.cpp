// forma::net::bearer_token: the authentication hook for one shared token.
#include <forma/net/server_options.hpp>

#include "../text/ascii.hpp"

#include <openssl/crypto.h>

#include <algorithm>

namespace forma::net {

authenticator bearer_token(std::string token, std::vector<std::string> public_paths) {
    return [token = std::move(token), public_paths = std::move(public_paths)](const server_request& head) -> authentication {
        if (std::find(public_paths.begin(), public_paths.end(), head.path) != public_paths.end()) return std::nullopt;
        const std::string* given = head.header("Authorization");
        constexpr std::string_view scheme = "Bearer ";
        if (given && given->size() == scheme.size() + token.size() && text_detail::istarts_with(*given, scheme) &&
            CRYPTO_memcmp(given->data() + scheme.size(), token.data(), token.size()) == 0) {
            return authentication::let_in("bearer");
        }
        return access_denied{.status = 401,
                             .message = given ? "the bearer token is not the one this server takes"
                                              : "this server needs an Authorization: Bearer token",
                             .headers = {{"WWW-Authenticate", "Bearer"}}};
    };
}

} // namespace forma::net
