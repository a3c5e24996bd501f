#pragma once

#include <forma/model/agent_response.hpp>

namespace forma::model_detail {

/// Adds a later model call of the same run to `out`, by the rules by which
/// to_agent_response merges a stream: messages appended, usage summed, the later
/// ids, finish reason, continuation token and raw representation win.
void add_response(agent_response<>& out, agent_response<>&& later);

} // namespace forma::model_detail
