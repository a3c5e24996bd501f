#pragma once
// What forma::mcp::server writes of its own types (content blocks, resources, sampling and
// elicitation requests) and reads of the client's answers to them.

#include <forma/mcp/content_block.hpp>
#include <forma/mcp/server_tool.hpp>

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace forma::mcp::detail {

boost::json::object resource_contents_json(const resource_contents& contents);
/// A ContentBlock: text, image, audio, resource_link or resource.
boost::json::object content_block_json(const content_block& block);

/// sampling/createMessage's params. @throws error for a message of no text, image or audio.
boost::json::object sampling_params(const sampling_request& request);
/// @throws mcp_error (naming `client`) when `result` is no CreateMessageResult.
sampling_result read_sampling_result(const boost::json::object& result, const std::string& client);
/// @throws mcp_error (naming `client`) when `result` is no ElicitResult.
elicitation_result read_elicitation_result(const boost::json::object& result, const std::string& client);

} // namespace forma::mcp::detail

namespace forma::mcp::detail {

/// The level named so on the wire (logging/setLevel), if any.
std::optional<log_level> log_level_named(std::string_view name) noexcept;

} // namespace forma::mcp::detail
