#pragma once
// forma: moved to <forma/chat/caching_chat_client.hpp>; this path forwards to it for one release.
#include <forma/chat/caching_chat_client.hpp>
