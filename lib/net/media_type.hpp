#pragma once
// The one media-type test of a Content-Type header, for every client that reads "a JSON body or
// an SSE stream" (OpenAI, MCP, A2A).

#include "../text/ascii.hpp"

#include <string_view>

namespace forma::net::detail {

inline constexpr std::string_view json_media_type = "application/json";
inline constexpr std::string_view event_stream_media_type = "text/event-stream";

/** Whether `content_type` names the media type `type`: compared without ASCII case, with its
    parameters (`; charset=utf-8`) and the spaces around it ignored. `application/json-seq` is
    not `application/json`.
*/
inline bool has_media_type(std::string_view content_type, std::string_view type) noexcept {
    std::string_view essence = content_type.substr(0, content_type.find(';'));
    const auto not_space = [](char c) { return c != ' ' && c != '\t'; };
    while (!essence.empty() && !not_space(essence.front())) essence.remove_prefix(1);
    while (!essence.empty() && !not_space(essence.back())) essence.remove_suffix(1);
    return text_detail::iequals(essence, type);
}

} // namespace forma::net::detail
