#pragma once
// forma: moved to <forma/chat/response_cache.hpp>; this path forwards to it for one release.
#include <forma/chat/response_cache.hpp>
