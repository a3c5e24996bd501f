#pragma once
// forma: moved to <forma/chat/concurrency_limiter.hpp>; this path forwards to it for one release.
#include <forma/chat/concurrency_limiter.hpp>
