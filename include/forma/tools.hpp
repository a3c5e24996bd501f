#pragma once

/// Tools: declaring them (function_tool, make_tool, as_tool), tool_choice, and the
/// loop that runs the model's calls (function_invoking_chat_client).
#include <forma/tools/as_tool.hpp>
#include <forma/tools/function_invoking_chat_client.hpp>
#include <forma/tools/function_tool.hpp>
#include <forma/tools/make_tool.hpp>
#include <forma/tools/tool_choice.hpp>
#include <forma/tools/tool_error.hpp>
