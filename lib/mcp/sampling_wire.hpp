#pragma once
// sampling/createMessage and elicitation/create on the wire, both ways: the server writes the
// request and reads the answer; the client reads the request and writes the answer.

#include <forma/mcp/sampling.hpp>

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace forma::mcp::detail {

/// sampling/createMessage's params. @throws error for a message of no text, image or audio.
boost::json::object sampling_params(const sampling_request& request);
/// @throws mcp_error (naming `peer`) when `params` is no CreateMessageRequest's.
sampling_request read_sampling_request(const boost::json::object& params, const std::string& peer);
/// A CreateMessageResult: its content one block, or (`several_contents`: 2025-11-25) an array
/// when there are more. @throws error for an answer of no text, image or audio.
boost::json::object sampling_result_json(const sampling_result& result, bool several_contents);
/// @throws mcp_error (naming `peer`) when `result` is no CreateMessageResult.
sampling_result read_sampling_result(const boost::json::object& result, const std::string& peer);

/// @throws mcp_error (naming `peer`) when `params` is no ElicitRequest's.
elicitation_request read_elicitation_request(const boost::json::object& params, const std::string& peer);
/// An ElicitResult; an accepted answer gets the schema's default for each property it lacks.
boost::json::object elicitation_result_json(const elicitation_result& result, const boost::json::object& requested_schema);
/// @throws mcp_error (naming `peer`) when `result` is no ElicitResult.
elicitation_result read_elicitation_result(const boost::json::object& result, const std::string& peer);

/// The level named so on the wire (logging/setLevel), if any.
std::optional<log_level> log_level_named(std::string_view name) noexcept;

} // namespace forma::mcp::detail
