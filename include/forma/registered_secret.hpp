#pragma once

#include <string>
#include <string_view>

namespace forma {

/** Keeps a secret out of every forma::error while it lives.

    Each string an error is made of (`what()` and every field it carries: a provider's code,
    type and message, a quoted body, a server's error text) has every copy of each registered
    secret replaced by "[redacted]" when the error is constructed, before any cut, so that no
    part of the secret is left. forma's clients register what their options hold (API keys,
    the values of credential headers such as Authorization, passwords) for as long as they
    live; register other secrets (a tool's token, say) the same way.

    A secret shorter than 4 bytes is not registered: every word that short would be cut out of
    every message. Registering a secret twice is counted. Thread-safe; move-only.
*/
class registered_secret {
public:
    registered_secret() noexcept = default;
    explicit registered_secret(std::string_view secret);
    registered_secret(registered_secret&& other) noexcept;
    registered_secret& operator=(registered_secret&& other) noexcept;
    registered_secret(const registered_secret&) = delete;
    registered_secret& operator=(const registered_secret&) = delete;
    ~registered_secret();

    /// Whether this handle keeps a secret registered.
    bool active() const noexcept { return !secret_.empty(); }

private:
    std::string secret_; // empty: none
};

/// `text` with every copy of each registered secret replaced by "[redacted]".
std::string redact_secrets(std::string_view text);

} // namespace forma
