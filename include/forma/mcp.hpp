// forma's MCP client: remote tools from Model Context Protocol servers.
#pragma once

#include <forma/mcp/client.hpp>
#include <forma/mcp/server.hpp>
#include <forma/mcp/http_transport.hpp>
#include <forma/mcp/make_prompt.hpp>
#include <forma/mcp/mcp_error.hpp>
#include <forma/mcp/request_error.hpp>
#include <forma/mcp/sample_with.hpp>
#include <forma/mcp/stdio_transport.hpp>
#include <forma/mcp/tools.hpp>
#include <forma/mcp/transport.hpp>
