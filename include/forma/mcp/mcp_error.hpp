#pragma once

#include <forma/json/rpc_error.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace forma::mcp {

/** An MCP server could not be used: it did not start, exited or dropped the connection,
    broke JSON-RPC or the protocol, did not answer in time, or answered a request with a
    JSON-RPC error. what() names the server (as transport::describe() does) and says what
    happened; for a server that exited, it ends with the last lines it wrote to stderr.
*/
class mcp_error : public rpc_error {
public:
    mcp_error(const std::string& message, std::string server, std::optional<std::int64_t> code = {});
    ~mcp_error() override;

    /// The server, as its transport describes it (e.g. `stdio server "node everything.js"`).
    const std::string& server() const noexcept { return peer(); }
};

} // namespace forma::mcp
