#pragma once

#include <forma/mcp/content_block.hpp>
#include <forma/mcp/resource.hpp>
#include <forma/model/chat_role.hpp>

#include <boost/asio/awaitable.hpp>

#include <functional>
#include <string>
#include <vector>

namespace forma::mcp {

struct prompt_argument {
    std::string name;
    std::string description{};
    bool required = false;
};

/// One message of a prompt: MCP's roles are user and assistant.
struct prompt_message {
    chat_role role = chat_role::user();
    content_block content;
};

/** A prompt template a server lists (prompts/list) and fills (prompts/get) with string
    arguments. A prompts/get missing a required argument, or naming one the prompt does not
    take, is refused (-32602) before `get` runs.
*/
struct prompt {
    std::string name;
    std::string title{};
    std::string description{};
    std::vector<prompt_argument> arguments{};
    /// The messages for these arguments. Runs on the server's executor.
    std::function<boost::asio::awaitable<std::vector<prompt_message>>(const template_variables& arguments)> get;
    /// completion/complete for one argument; may be empty (no completions).
    std::function<std::vector<std::string>(const std::string& argument, const std::string& prefix)> complete{};
};

} // namespace forma::mcp
