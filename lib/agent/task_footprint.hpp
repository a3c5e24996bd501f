#pragma once
// What a served task holds, in bytes, as the stores that bound their memory count it: the length
// of its parts' JSON (the input, each update, the properties, the error).

#include <forma/agent/agent_task.hpp>

#include <cstddef>

namespace forma::agent_detail {

std::size_t footprint(const agent_response_update& update);
std::size_t footprint(const agent_task& task);

} // namespace forma::agent_detail
