#pragma once
// forma: moved to <forma/chat/chat_client.hpp>; this path forwards to it for one release.
#include <forma/chat/chat_client.hpp>
