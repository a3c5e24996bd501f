#pragma once
// forma: moved to <forma/chat/make_tool.hpp>; this path forwards to it for one release.
#include <forma/chat/make_tool.hpp>
