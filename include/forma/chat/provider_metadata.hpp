#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace forma {

/// Who serves a chat client's or an agent's model, as telemetry reports it.
struct provider_metadata {
    /// The gen_ai.provider.name value: "openai", "azure.ai.openai", ...; empty when unknown.
    std::string name{};
    /// The server's host name or address; empty when unknown.
    std::string server_address{};
    std::optional<std::uint16_t> server_port{};
    /// The model used when a request names none; empty when unknown.
    std::string default_model{};

    friend bool operator==(const provider_metadata&, const provider_metadata&) = default;
};

} // namespace forma
