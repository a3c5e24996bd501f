#pragma once

#include <forma/chat/function_tool.hpp>
#include <forma/mcp/client.hpp>

#include <boost/asio/awaitable.hpp>

#include <memory>
#include <vector>

namespace forma::mcp {

/** The server's tools as function_tools, so that an agent calls them as it calls local
    ones. Each tool's parameters are its input schema as the server gives it (a schema
    that is not valid JSON Schema, or not an object schema as MCP requires, is an
    mcp_error naming the tool); a call's arguments are checked against it with
    schema_validator before they are sent (tool_arguments_error
    for the model otherwise). The result the model reads: `structuredContent` when the
    tool gives it, else the text, else the contents as JSON (binary data as its media type
    and size). A tool that reports its own failure (`isError`) gives
    `{"isError": true, "content": ...}`, so that the model reads the tool's words, as MCP
    intends; a protocol error, a timeout or a server that is gone is a failed call. The
    client must outlive the tools. @throws mcp_error.
*/
boost::asio::awaitable<std::vector<function_tool>> tools(client& client);

} // namespace forma::mcp
