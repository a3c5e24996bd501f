#pragma once

#include <forma/json/rpc_error.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace forma::a2a {

/** A remote A2A agent could not be used: its agent card is missing or wrong, it could not
    be reached or broke JSON-RPC, it answered a request with a JSON-RPC error, its task
    failed, was rejected or canceled, or did not finish in time. what() names the agent (by
    its URL) and says what happened.
*/
class a2a_error : public rpc_error {
public:
    a2a_error(const std::string& message, std::string agent_url, std::optional<std::int64_t> code = {});
    ~a2a_error() override;

    /// The agent's base URL, as given in agent_options::url.
    const std::string& agent_url() const noexcept { return peer(); }
};

} // namespace forma::a2a
