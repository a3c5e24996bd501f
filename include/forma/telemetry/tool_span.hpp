#pragma once
// forma: moved to <forma/chat/tool_span.hpp>; this path forwards to it for one release.
#include <forma/chat/tool_span.hpp>
