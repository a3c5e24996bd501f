// MCP tool results (CallToolResult) to forma contents.
#pragma once

#include <forma/mcp/client.hpp>

#include <boost/json/object.hpp>

#include <string>

namespace forma::mcp::detail {

/// Reads a tools/call result. @throws mcp_error (naming `server`) when it is not a CallToolResult.
call_result read_call_result(const boost::json::object& result, const std::string& server);

/// Reads one tools/list entry. @throws mcp_error when it has no name or no object input schema.
tool_info read_tool_info(const boost::json::value& entry, const std::string& server);

} // namespace forma::mcp::detail
