#pragma once
// forma: moved to <forma/chat/structured_output_mode.hpp>; this path forwards to it for one release.
#include <forma/chat/structured_output_mode.hpp>
