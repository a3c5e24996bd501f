#pragma once
// A session as the stores keep it: its JSON without the version, which the store keeps apart.

#include <forma/agent/agent_session.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace forma::agent_detail {

/** The JSON a store keeps for `session`.
    @throws error for a session without an id, or whose JSON is larger than `max_bytes`.
*/
std::string stored_session_json(const agent_session& session, std::size_t max_bytes);

/// The session in `json`, as stored_session_json wrote it. @throws json_error and
/// boost::system::system_error (not JSON).
agent_session stored_session_from_json(std::string_view json);

} // namespace forma::agent_detail
