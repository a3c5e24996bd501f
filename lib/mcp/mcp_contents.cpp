#include "mcp_contents.hpp"

#include <forma/error.hpp>

#include "../json/json_members.hpp"
#include "../json/json_text.hpp"

#include <boost/json/serialize.hpp>

namespace forma::mcp::detail {

namespace {

namespace json = boost::json;

// Base64 data as bytes; text the server calls base64 but is not stays out, said in text instead.
content binary(const json::object& item, std::string_view data_key, const std::string& name) {
    const std::string media_type = json_detail::string_member(item, "mimeType");
    try {
        data_content data = data_content::from_base64(json_detail::string_member(item, data_key), media_type, name);
        data.raw_representation = item;
        return data;
    } catch (const error&) {
        return text_content("[" + (media_type.empty() ? std::string("binary content") : media_type) +
                            " that is not valid base64]");
    }
}

} // namespace

content read_content(const json::value& value) {
    if (!value.is_object()) return text_content(json_detail::valid_utf8(json::serialize(value)));
    const json::object& item = value.get_object();
    const std::string type = json_detail::string_member(item, "type");
    if (type == "text") {
        text_content text(json_detail::string_member(item, "text"));
        text.raw_representation = item;
        return text;
    }
    if (type == "image" || type == "audio") return binary(item, "data", {});
    if (type == "resource_link") {
        uri_content link(json_detail::string_member(item, "uri"), json_detail::string_member(item, "mimeType"));
        link.raw_representation = item;
        return link;
    }
    if (type == "resource") {
        const json::value* resource = item.if_contains("resource");
        if (resource && resource->is_object()) {
            const json::object& r = resource->get_object();
            if (r.contains("blob")) return binary(r, "blob", json_detail::string_member(r, "uri"));
            text_content text(json_detail::string_member(r, "text"));
            text.raw_representation = item;
            return text;
        }
    }
    json::object rest = item;
    rest.erase("type");
    for (const char* reserved : {"raw_representation", "additional_properties"}) rest.erase(reserved);
    return unknown_content(type.empty() ? std::string("mcp_content") : type, std::move(rest));
}

namespace {

[[noreturn]] void malformed(const std::string& server, const std::string& what) {
    throw mcp_error(server + " answered with " + what, server);
}

const json::object& entry_object(const json::value& entry, const std::string& server, std::string_view what) {
    if (!entry.is_object()) malformed(server, std::string(what) + " that is not a JSON object");
    return entry.get_object();
}

std::string text_member(const json::object& o, std::string_view key) { return json_detail::valid_utf8(json_detail::string_member(o, key)); }

} // namespace

resource_contents read_resource_contents(const json::value& item, const std::string& server) {
    const json::object& o = entry_object(item, server, "resource contents");
    resource_contents out{.uri = text_member(o, "uri"), .mime_type = text_member(o, "mimeType")};
    if (out.uri.empty()) malformed(server, "resource contents without a uri");
    if (const json::value* blob = o.if_contains("blob"); blob && blob->is_string()) {
        try {
            out.data = data_content::from_base64(blob->get_string(), out.mime_type).data;
        } catch (const error&) {
            malformed(server, "the resource " + out.uri + " whose blob is not valid base64");
        }
    } else {
        out.data = json_detail::string_member(o, "text");
    }
    return out;
}

resource_info read_resource_info(const json::value& entry, const std::string& server) {
    const json::object& o = entry_object(entry, server, "a resource");
    resource_info out{text_member(o, "uri"), text_member(o, "name"), text_member(o, "title"), text_member(o, "description"), text_member(o, "mimeType")};
    if (out.uri.empty() || out.name.empty()) malformed(server, "a resource without a uri or a name");
    return out;
}

resource_template_info read_resource_template_info(const json::value& entry, const std::string& server) {
    const json::object& o = entry_object(entry, server, "a resource template");
    resource_template_info out{text_member(o, "uriTemplate"), text_member(o, "name"), text_member(o, "title"), text_member(o, "description"),
                               text_member(o, "mimeType")};
    if (out.uri_template.empty() || out.name.empty()) malformed(server, "a resource template without a uriTemplate or a name");
    return out;
}

prompt_info read_prompt_info(const json::value& entry, const std::string& server) {
    const json::object& o = entry_object(entry, server, "a prompt");
    prompt_info out{text_member(o, "name"), text_member(o, "title"), text_member(o, "description")};
    if (out.name.empty()) malformed(server, "a prompt without a name");
    if (const json::value* arguments = o.if_contains("arguments"); arguments && arguments->is_array()) {
        for (const json::value& a : arguments->get_array()) {
            const json::object& argument = entry_object(a, server, "a prompt argument");
            const json::value* required = argument.if_contains("required");
            out.arguments.push_back({text_member(argument, "name"), text_member(argument, "description"), required && required->is_bool() && required->get_bool()});
        }
    }
    return out;
}

prompt_result read_prompt_result(const json::object& result, const std::string& server) {
    const json::value* messages = result.if_contains("messages");
    if (!messages || !messages->is_array()) malformed(server, "a prompts/get result without a messages array");
    prompt_result out{.description = text_member(result, "description"), .messages = {}};
    for (const json::value& m : messages->get_array()) {
        const json::object& message = entry_object(m, server, "a prompt message");
        const std::string role = text_member(message, "role");
        const json::value* content = message.if_contains("content");
        if (!content) malformed(server, "a prompt message without content");
        if (role != "user" && role != "assistant") malformed(server, "a prompt message whose role is neither user nor assistant");
        out.messages.emplace_back(chat_role(role), std::vector<forma::content>{read_content(*content)});
    }
    return out;
}

call_result read_call_result(const json::object& result, const std::string& server) {
    call_result out;
    if (const json::value* content = result.if_contains("content")) {
        if (!content->is_array()) malformed(server, "a tools/call result whose \"content\" is not an array");
        for (const json::value& item : content->get_array()) out.contents.push_back(read_content(item));
    }
    if (const json::value* structured = result.if_contains("structuredContent"); structured && !structured->is_null()) {
        out.structured_content = *structured;
    }
    if (const json::value* is_error = result.if_contains("isError"); is_error && is_error->is_bool()) {
        out.is_error = is_error->get_bool();
    }
    return out;
}

tool_info read_tool_info(const json::value& entry, const std::string& server) {
    if (!entry.is_object()) malformed(server, "a tool that is not a JSON object");
    const json::object& o = entry.get_object();
    tool_info tool;
    tool.name = json_detail::string_member(o, "name");
    if (tool.name.empty()) malformed(server, "a tool without a name");
    tool.title = json_detail::string_member(o, "title");
    tool.description = json_detail::string_member(o, "description");
    const json::value* schema = o.if_contains("inputSchema");
    if (!schema || !schema->is_object()) {
        malformed(server, "the tool \"" + json_detail::valid_utf8(tool.name) + "\" without an inputSchema object");
    }
    tool.input_schema = schema->get_object();
    if (const json::value* output = o.if_contains("outputSchema"); output && output->is_object()) {
        tool.output_schema = output->get_object();
    }
    if (const json::value* annotations = o.if_contains("annotations"); annotations && annotations->is_object()) {
        tool.annotations = annotations->get_object();
    }
    return tool;
}

} // namespace forma::mcp::detail
