#pragma once
// MCP content blocks and resource contents as forma::mcp::server writes them.

#include <forma/mcp/content_block.hpp>

#include <boost/json/object.hpp>

namespace forma::mcp::detail {

/// An ImageContent, or an AudioContent when the media type is an audio type.
boost::json::object data_content_json(const data_content& data);
boost::json::object resource_contents_json(const resource_contents& contents);
/// A ContentBlock: text, image, audio, resource_link or resource.
boost::json::object content_block_json(const content_block& block);

} // namespace forma::mcp::detail
