#pragma once

#include <forma/orchestration/orchestration_state.hpp>

namespace forma::orchestration_detail {

/// Writes `state` into `json` as value_from does, reusing the object `json` already holds: the
/// engine writes the state at every step.
void write_state(boost::json::value& json, const orchestration_state& state);

} // namespace forma::orchestration_detail
