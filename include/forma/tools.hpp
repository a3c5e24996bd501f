#pragma once
/// Tools: declaring them (function_tool, make_tool, as_tool), tool_choice, and the
/// loop that runs the model's calls (function_invoking_chat_client). All but as_tool live on
/// the chat floor (<forma/chat.hpp>); this header stays for one release.
#include <forma/agent/as_tool.hpp>
#include <forma/chat/function_invoking_chat_client.hpp>
#include <forma/chat/function_tool.hpp>
#include <forma/chat/make_tool.hpp>
#include <forma/chat/tool_choice.hpp>
#include <forma/chat/tool_error.hpp>
