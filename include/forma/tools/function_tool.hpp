#pragma once
// forma: moved to <forma/chat/function_tool.hpp>; this path forwards to it for one release.
#include <forma/chat/function_tool.hpp>
