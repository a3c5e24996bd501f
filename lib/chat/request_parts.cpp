#include "request_parts.hpp"

#include "../json/invalid_utf8.hpp"

#include <forma/error.hpp>

#include <boost/json/serialize.hpp>

#include <algorithm>

namespace forma::chat_detail {

bool starts_with_ci(std::string_view s, std::string_view prefix) noexcept {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c != prefix[i]) return false;
    }
    return true;
}

std::string essence(std::string_view media_type) {
    std::string out;
    for (char c : media_type) {
        if (c == ';') break;
        if (c == ' ' || c == '\t') continue;
        out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return out;
}

namespace {

// A value as the model reads it: a string as it is, anything else as JSON text.
std::string json_text(const boost::json::value& value) {
    if (const boost::json::string* text = value.if_string()) return std::string(*text);
    return boost::json::serialize(value);
}

} // namespace

std::string result_text(const function_result_content& result) {
    if (result.error) { // the error, then what the failed call returned, if anything
        const std::string returned = result.result.is_null() ? std::string() : json_text(result.result);
        return "Error: " + *result.error + (returned.empty() ? "" : "\n" + returned);
    }
    return json_text(result.result); // null, a void tool's result, as "null"
}

const char* tool_choice_keyword(const tool_choice& choice) noexcept {
    switch (choice.mode()) {
    case tool_choice_mode::automatic: return "auto";
    case tool_choice_mode::none: return "none";
    case tool_choice_mode::required: return "required";
    case tool_choice_mode::function: break;
    }
    return nullptr;
}

std::string_view model_to_send(const chat_options& options, std::string_view default_model, std::string_view request) {
    const std::string_view model = options.model.empty() ? default_model : std::string_view(options.model);
    if (model.empty())
        throw error(std::string(request) + " needs a model: set it in the client options or the chat options");
    return model;
}

void check_tools(const chat_options& options) {
    const auto& tools = options.tools;
    for (std::size_t i = 0; i < tools.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (tools[j].name() == tools[i].name())
                throw error("chat_options::tools has two tools named \"" + tools[i].name() + "\"");
    if (!tools.empty() && options.tool_choice && options.tool_choice->mode() == tool_choice_mode::function) {
        const std::string& name = options.tool_choice->function_name();
        if (std::none_of(tools.begin(), tools.end(), [&](const function_tool& t) { return t.name() == name; }))
            throw error("chat_options::tool_choice names the tool \"" + name +
                        "\", which is not among chat_options::tools");
    }
}

void check_additional_properties(const chat_options& options, std::initializer_list<const char*> reserved,
                                 std::string_view client) {
    for (const char* name : reserved)
        if (options.additional_properties.contains(name))
            throw error(std::string("chat_options::additional_properties cannot set \"") + name +
                        "\": " + std::string(client) + " sets it");
    if (!options.tools.empty() && options.additional_properties.contains("tools"))
        throw error("chat_options::additional_properties cannot set \"tools\" beside chat_options::tools: "
                    "declare every tool in chat_options::tools");
}

/* serialize() would copy bytes that are not UTF-8 as they are, and the server would reject
   the body as invalid JSON. */
void require_utf8(const boost::json::object& body, std::string_view request) {
    const auto bad = json_detail::find_invalid_utf8(body);
    if (!bad) return;
    throw error(std::string(request) + " holds text that is not valid UTF-8: " +
                std::string(bad->in_member_name ? "a member name in the object at \"" : "the string at \"") +
                bad->path + "\" (" + std::to_string(bad->text_size) + " bytes) has an invalid byte at offset " +
                std::to_string(bad->offset) + "; convert the text to UTF-8 before sending it");
}

} // namespace forma::chat_detail
