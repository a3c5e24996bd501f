#include <forma/mcp/mcp_error.hpp>
#include <forma/mcp/request_error.hpp>

namespace forma::mcp {

mcp_error::mcp_error(const std::string& message, std::string server, std::optional<std::int64_t> code)
    : rpc_error(message, std::move(server), code) {}

mcp_error::~mcp_error() = default;

request_error::request_error(const std::string& message, std::string server, std::int64_t request_id)
    : mcp_error(message, std::move(server)), request_id_(request_id) {}

request_error::~request_error() = default;

} // namespace forma::mcp
