#include "served_content.hpp"

#include "../json/json_text.hpp"

namespace forma::mcp::detail {

namespace {

namespace json = boost::json;

bool is_audio(const data_content& data) { return data.media_type.rfind("audio/", 0) == 0; }

} // namespace

json::object data_content_json(const data_content& data) {
    return {{"type", is_audio(data) ? "audio" : "image"}, {"data", data.base64()}, {"mimeType", data.media_type}};
}

json::object resource_contents_json(const resource_contents& contents) {
    json::object out{{"uri", json_detail::valid_utf8(contents.uri)}};
    if (!contents.mime_type.empty()) out["mimeType"] = contents.mime_type;
    if (const auto* text = std::get_if<std::string>(&contents.data)) {
        out["text"] = json_detail::valid_utf8(*text);
    } else {
        out["blob"] = data_content(std::get<std::vector<std::byte>>(contents.data), contents.mime_type).base64();
    }
    return out;
}

json::object content_block_json(const content_block& block) {
    if (const auto* text = std::get_if<text_content>(&block)) return {{"type", "text"}, {"text", json_detail::valid_utf8(text->text)}};
    if (const auto* data = std::get_if<data_content>(&block)) {
        const bool image_or_audio = data->media_type.rfind("image/", 0) == 0 || is_audio(*data);
        if (image_or_audio) return data_content_json(*data);
        // Other bytes (a PDF) are an embedded resource, named by the content's name.
        const std::string uri = data->name.empty() ? "data:" + data->media_type : data->name;
        return {{"type", "resource"}, {"resource", resource_contents_json({.uri = uri, .mime_type = data->media_type, .data = data->data})}};
    }
    if (const auto* link = std::get_if<uri_content>(&block)) {
        json::object out{{"type", "resource_link"}, {"uri", json_detail::valid_utf8(link->uri)}, {"name", json_detail::valid_utf8(link->uri)}};
        if (!link->media_type.empty()) out["mimeType"] = link->media_type;
        return out;
    }
    return {{"type", "resource"}, {"resource", resource_contents_json(std::get<resource_contents>(block))}};
}

} // namespace forma::mcp::detail
