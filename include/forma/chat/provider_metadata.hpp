#pragma once

#include <forma/chat/structured_output_mode.hpp>
#include <forma/json/schema_options.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace forma {

/// Who serves a chat client's or an agent's model, and what its server takes: telemetry
/// reports the first four; run<T> and chat_client_agent read the last two.
struct provider_metadata {
    /// The gen_ai.provider.name value: "openai", "azure.ai.openai", ...; empty when unknown.
    std::string name{};
    /// The server's host name or address; empty when unknown.
    std::string server_address{};
    std::optional<std::uint16_t> server_port{};
    /// The model used when a request names none; empty when unknown.
    std::string default_model{};
    /** How the server takes a JSON Schema answer format, the mode used when a request names
        none first. Empty when unknown: the client decides. A chat_client_agent whose run names
        no mode asks for the first one listed.
    */
    std::vector<forma::structured_output_mode> structured_output_modes{};
    /** The dialect of the schemas the server takes. run<T> writes T's schema in it:
        openai_strict with strict mode on (also valid 2020-12, so the default), or
        json_schema_2020_12 with strict mode off for a server that refuses the strict subset.
    */
    forma::schema_dialect schema_dialect = forma::schema_dialect::openai_strict;

    friend bool operator==(const provider_metadata&, const provider_metadata&) = default;
};

} // namespace forma
