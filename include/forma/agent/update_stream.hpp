#pragma once
// forma: moved to <forma/chat/update_stream.hpp>; this path forwards to it for one release.
#include <forma/chat/update_stream.hpp>
