#pragma once

#include <forma/mcp/content_block.hpp>

#include <boost/asio/awaitable.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace forma::mcp {

/// A resource a server lists (resources/list) and reads (resources/read) by its URI.
struct resource {
    std::string uri;
    std::string name;
    std::string title{};
    std::string description{};
    std::string mime_type{};
    /// Reads it now: what resources/read answers. Runs on the server's executor; an exception
    /// is a JSON-RPC error to the client (-32603 with its message).
    std::function<boost::asio::awaitable<std::vector<resource_contents>>()> read;
};

/// The values of a URI template's variables, by name.
using template_variables = std::map<std::string, std::string, std::less<>>;

/** Resources named by a URI template (resources/templates/list), read by any URI that fits it.
    The template is RFC 6570 level 1: `{name}` stands for one or more characters other than
    `/`, up to where the text that follows it comes first (for the template's last text: at the
    URI's end), e.g. `file:///logs/{day}.txt` reads `file:///logs/2024.01.txt` with day
    `2024.01`. Two variables need text between them.
*/
struct resource_template {
    std::string uri_template;
    std::string name;
    std::string title{};
    std::string description{};
    std::string mime_type{};
    /// Reads the resource `uri`, whose variables are given.
    std::function<boost::asio::awaitable<std::vector<resource_contents>>(const std::string& uri, const template_variables& variables)> read;
    /// completion/complete for one variable: the values that start with `prefix`, best first;
    /// may be empty (no completions).
    std::function<std::vector<std::string>(const std::string& variable, const std::string& prefix)> complete{};
};

} // namespace forma::mcp
