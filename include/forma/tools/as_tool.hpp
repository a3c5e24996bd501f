#pragma once
// forma: moved to <forma/agent/as_tool.hpp>; this path forwards to it for one release.
#include <forma/agent/as_tool.hpp>
