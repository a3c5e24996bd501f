#pragma once
// The secrets a client's options hold, registered for the client's lifetime so that no
// forma::error carries them (see registered_secret).

#include <forma/registered_secret.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace forma::net::detail {

/// Whether a header or environment variable named `name` carries a credential:
/// Authorization, Cookie, api-key, X-Goog-Api-Key, GITHUB_TOKEN, DB_PASSWORD, ...
bool names_credential(std::string_view name);

class credentials {
public:
    /// Registers `secret`; for a value "<scheme> <token>" (Bearer, Basic) the token too.
    void add(std::string_view secret);

    /// Registers the values of the credential-named pairs of `named_values` (headers, environment).
    template <class NamedValues>
    void add_named(const NamedValues& named_values) {
        for (const auto& [name, value] : named_values)
            if (names_credential(name)) add(value);
    }

private:
    std::vector<registered_secret> held_;
};

} // namespace forma::net::detail
