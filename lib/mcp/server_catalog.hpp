#pragma once
// What forma::mcp::server serves, shared by its sessions, and the requests answered from it
// alone: resources, resource templates, prompts, completion.

#include <forma/chat/function_tool.hpp>
#include <forma/mcp/prompt.hpp>
#include <forma/mcp/resource.hpp>
#include <forma/mcp/server.hpp>
#include <forma/mcp/server_tool.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace forma::mcp::detail {

/// MCP's code for a resource URI nothing serves.
inline constexpr std::int64_t resource_not_found = -32002;

/// A request refused with a JSON-RPC error.
struct rpc_failure {
    std::int64_t code;
    std::string message;
};

struct server_catalog {
    boost::asio::any_io_executor executor;
    std::vector<function_tool> tools;
    server_options options;
    std::vector<server_tool> server_tools{};
    std::vector<resource> resources{};
    std::vector<resource_template> templates{};
    std::vector<prompt> prompts{};

    /// Whether a tool of either kind has this name.
    bool has_tool(std::string_view name) const;
    /// Whether a resource, or a template, serves `uri`.
    bool serves(std::string_view uri) const;
};

/// The variables of `uri` when it fits `uri_template` (RFC 6570 level 1: `{name}`, no `/`),
/// in one pass over `uri`.
std::optional<template_variables> match_uri_template(std::string_view uri_template, std::string_view uri);

/// resources/list, resources/templates/list, prompts/list: everything, one page.
boost::json::object list_resources(const server_catalog& catalog);
boost::json::object list_resource_templates(const server_catalog& catalog);
boost::json::object list_prompts(const server_catalog& catalog);

/// resources/read. @throws rpc_failure -32002 for a URI nothing serves, -32602 without one.
boost::asio::awaitable<boost::json::object> read_resource(const server_catalog& catalog, const boost::json::object& params);
/// prompts/get. @throws rpc_failure -32602 for an unknown prompt or arguments that do not fit.
boost::asio::awaitable<boost::json::object> get_prompt(const server_catalog& catalog, const boost::json::object& params);
/// completion/complete. @throws rpc_failure -32602 for a reference to nothing served.
boost::json::object complete(const server_catalog& catalog, const boost::json::object& params);

} // namespace forma::mcp::detail
