#pragma once
// forma: moved to <forma/chat/provider_metadata.hpp>; this path forwards to it for one release.
#include <forma/chat/provider_metadata.hpp>
