#pragma once

#include <forma/model/content.hpp>

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

namespace forma::mcp {

/// What a resource holds (resources/read), or a resource embedded in a tool result or a prompt.
struct resource_contents {
    std::string uri;
    /// e.g. "text/plain", "image/png"; may be empty when unknown.
    std::string mime_type{};
    /// Text (sent as `text`) or bytes (sent as base64 `blob`).
    std::variant<std::string, std::vector<std::byte>> data{};

    friend bool operator==(const resource_contents&, const resource_contents&) = default;
};

/** One item of a served tool's result or a prompt's message: text; bytes (data_content: `audio`
    when its media type is an audio type, else `image`); a link to a resource (uri_content:
    `resource_link`, named by its URI); or a resource's contents embedded (`resource`).
*/
using content_block = std::variant<text_content, data_content, uri_content, resource_contents>;

} // namespace forma::mcp
