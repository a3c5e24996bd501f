// What an MCP server answers (tool results, resources, prompts) as forma's types.
#pragma once

#include <forma/mcp/client.hpp>

#include <boost/json/object.hpp>

#include <string>

namespace forma::mcp::detail {

/// Reads a tools/call result. @throws mcp_error (naming `server`) when it is not a CallToolResult.
call_result read_call_result(const boost::json::object& result, const std::string& server);

/// One ContentBlock: text -> text_content, image and audio -> data_content, resource_link ->
/// uri_content, resource -> text_content or data_content (named by its URI), else unknown_content.
content read_content(const boost::json::value& value);

/// One resources/read contents item. @throws mcp_error when it has no uri, or a blob that is not base64.
resource_contents read_resource_contents(const boost::json::value& item, const std::string& server);
/// One resources/list, resources/templates/list or prompts/list entry. @throws mcp_error without a name (or uri).
resource_info read_resource_info(const boost::json::value& entry, const std::string& server);
resource_template_info read_resource_template_info(const boost::json::value& entry, const std::string& server);
prompt_info read_prompt_info(const boost::json::value& entry, const std::string& server);
/// A prompts/get result. @throws mcp_error when it has no messages array.
prompt_result read_prompt_result(const boost::json::object& result, const std::string& server);

/// Reads one tools/list entry. @throws mcp_error when it has no name or no object input schema.
tool_info read_tool_info(const boost::json::value& entry, const std::string& server);

} // namespace forma::mcp::detail
