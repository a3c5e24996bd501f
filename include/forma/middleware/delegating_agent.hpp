#pragma once
// forma: moved to <forma/agent/delegating_agent.hpp>; this path forwards to it for one release.
#include <forma/agent/delegating_agent.hpp>
