#pragma once
// An authentication hook for tests: the caller is what the Authorization header names (a
// stand-in for a real identity); a request without one comes in anonymous.

#include <forma/net/server_options.hpp>

#include <string>

namespace forma_test {

inline const forma::net::authenticator caller_by_name = [](const forma::net::server_request& head) -> forma::net::authentication {
    const std::string* who = head.header("Authorization");
    return forma::net::authentication::let_in(who ? *who : std::string());
};

} // namespace forma_test
