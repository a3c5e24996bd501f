#include "a2a_parts.hpp"

#include "../json/json_members.hpp"

#include <boost/json/serialize.hpp>

namespace forma::a2a::detail {

namespace {

namespace json = boost::json;

template <class Content>
content keeping(Content c, const json::value& part) {
    c.raw_representation = part;
    return c;
}

} // namespace

json::array to_parts(const std::vector<chat_message>& messages) {
    json::array parts;
    for (const chat_message& message : messages) {
        for (const content& c : message.contents) {
            if (const auto* text = std::get_if<text_content>(&c)) {
                if (!text->text.empty()) parts.push_back({{"kind", "text"}, {"text", json_detail::valid_utf8(text->text)}});
            } else if (const auto* data = std::get_if<data_content>(&c)) {
                json::object file{{"bytes", data->base64()}};
                if (!data->media_type.empty()) file["mimeType"] = json_detail::valid_utf8(data->media_type);
                if (!data->name.empty()) file["name"] = json_detail::valid_utf8(data->name);
                parts.push_back({{"kind", "file"}, {"file", std::move(file)}});
            } else if (const auto* answer = std::get_if<function_approval_response_content>(&c)) {
                json::object response{{"type", "function_approval_response"}, {"id", json_detail::valid_utf8(answer->id)},
                                      {"approved", answer->approved}};
                if (!answer->reason.empty()) response["reason"] = json_detail::valid_utf8(answer->reason);
                parts.push_back({{"kind", "data"}, {"data", std::move(response)}});
            } else if (const auto* link = std::get_if<uri_content>(&c)) {
                json::object file{{"uri", json_detail::valid_utf8(link->uri)}};
                if (!link->media_type.empty()) file["mimeType"] = json_detail::valid_utf8(link->media_type);
                parts.push_back({{"kind", "file"}, {"file", std::move(file)}});
            }
        }
    }
    return parts;
}

content from_part(const json::value& part) {
    const json::object* o = part.if_object();
    if (!o) return unknown_content("a2a.part", json::object{{"part", part}});
    const std::string kind = json_detail::string_member(*o, "kind");
    if (kind == "text") return keeping(text_content(json_detail::string_member(*o, "text")), part);
    if (kind == "data") {
        const json::value* data = o->if_contains("data");
        return keeping(text_content(data ? json::serialize(*data) : std::string("null")), part);
    }
    if (kind == "file") {
        const json::value* file_value = o->if_contains("file");
        const json::object* file = file_value ? file_value->if_object() : nullptr;
        if (file) {
            const std::string media_type = json_detail::string_member(*file, "mimeType");
            if (const json::value* bytes = file->if_contains("bytes"); bytes && bytes->is_string()) {
                try {
                    return keeping(data_content::from_base64(bytes->get_string(), media_type, json_detail::string_member(*file, "name")), part);
                } catch (const error&) {
                    // Not base64: kept as it came, below.
                }
            } else if (const std::string uri = json_detail::string_member(*file, "uri"); !uri.empty()) {
                return keeping(uri_content(uri, media_type), part);
            }
        }
    }
    return unknown_content(kind.empty() ? "a2a.part" : "a2a." + kind, *o);
}

std::vector<content> from_parts(const json::value* parts) {
    std::vector<content> out;
    if (!parts || !parts->is_array()) return out;
    for (const json::value& part : parts->get_array()) out.push_back(from_part(part));
    return out;
}

} // namespace forma::a2a::detail
