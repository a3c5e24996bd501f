#pragma once
// forma: moved to <forma/chat/tool_choice.hpp>; this path forwards to it for one release.
#include <forma/chat/tool_choice.hpp>
