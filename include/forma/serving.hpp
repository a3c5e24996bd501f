// forma's servers for agents that are not a protocol of their own part: OpenAI-compatible endpoints
// and AG-UI (for front ends).
// (The HTTP server is <forma/net/http_server.hpp>; A2A and MCP servers are in <forma/a2a.hpp>, <forma/mcp.hpp>.)
#pragma once

#include <forma/net/http_server.hpp>
#include <forma/serving/ag_ui_endpoint.hpp>
#include <forma/serving/openai_endpoints.hpp>
