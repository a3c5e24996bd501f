#pragma once

#include <forma/error.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace forma {

/** A JSON-RPC 2.0 peer could not be used: the base of mcp::mcp_error (an MCP server) and
    a2a::a2a_error (a remote A2A agent), so that one handler can catch both. what() names the
    peer and says what happened.
*/
class rpc_error : public error {
public:
    rpc_error(const std::string& message, std::string peer, std::optional<std::int64_t> code = {});
    ~rpc_error() override;

    /// The peer, as the error's type names it: an MCP server's description, an A2A agent's URL.
    const std::string& peer() const noexcept { return peer_; }
    /// The JSON-RPC error code, when the peer answered a request with an error.
    std::optional<std::int64_t> code() const noexcept { return code_; }

private:
    std::string peer_;
    std::optional<std::int64_t> code_;
};

} // namespace forma
