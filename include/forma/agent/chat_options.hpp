#pragma once
// forma: moved to <forma/chat/chat_options.hpp>; this path forwards to it for one release.
#include <forma/chat/chat_options.hpp>
