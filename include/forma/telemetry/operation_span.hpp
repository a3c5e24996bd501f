#pragma once
// forma: moved to <forma/chat/operation_span.hpp>; this path forwards to it for one release.
#include <forma/chat/operation_span.hpp>
