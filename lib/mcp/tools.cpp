// An MCP server's tools as function_tools.
#include <forma/mcp/tools.hpp>

#include <forma/chat/tool_error.hpp>
#include <forma/json/schema_error.hpp>
#include <forma/json/schema_validator.hpp>

#include "../json/json_text.hpp"

#include <boost/json/parse.hpp>

namespace forma::mcp {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;

// What the model reads of a successful call: the structured result, else the text, else
// the contents as JSON.
json::value model_view(const call_result& result) {
    if (result.structured_content) return *result.structured_content;
    bool only_text = true;
    for (const content& c : result.contents) only_text = only_text && std::holds_alternative<text_content>(c);
    if (only_text) return json::string(result.text());
    json::array contents;
    for (const content& c : result.contents) {
        if (const auto* text = std::get_if<text_content>(&c)) {
            contents.push_back({{"type", "text"}, {"text", text->text}});
        } else if (const auto* data = std::get_if<data_content>(&c)) {
            // The bytes stay out: a model reads no base64 image from a tool result.
            contents.push_back({{"type", "data"}, {"media_type", data->media_type}, {"bytes", data->data.size()}});
        } else if (const auto* link = std::get_if<uri_content>(&c)) {
            contents.push_back({{"type", "uri"}, {"uri", link->uri}, {"media_type", link->media_type}});
        }
    }
    return contents;
}

function_tool remote_tool(client& remote, const tool_info& info) {
    std::shared_ptr<const schema_validator> validator;
    try {
        validator = std::make_shared<const schema_validator>(info.input_schema);
    } catch (const schema_error& e) {
        throw mcp_error(remote.describe() + ": the input schema of the tool \"" + json_detail::valid_utf8(info.name) +
                            "\" is not JSON Schema forma can check: " + e.what(),
                        remote.describe());
    }
    auto invoke = [&remote, name = info.name, validator](const tool_invocation& call) -> asio::awaitable<json::value> {
        boost::system::error_code ec;
        json::value arguments = call.arguments.empty() ? json::value(json::object()) : json::parse(call.arguments, ec);
        if (ec) throw tool_arguments_error("", "the arguments are not JSON (" + ec.message() + ")");
        if (auto valid = validator->try_validate(arguments); !valid) throw tool_arguments_error(valid.error());
        if (!arguments.is_object()) throw tool_arguments_error("", "the arguments are not a JSON object");
        const call_result result = co_await remote.call_tool(name, std::move(arguments.get_object()));
        // MCP reports a tool's own failure in its result, for the model to read and act on.
        if (result.is_error) co_return json::object{{"isError", true}, {"content", model_view(result)}};
        co_return model_view(result);
    };
    const std::string description = info.description.empty() ? info.title : info.description;
    try {
        return function_tool(info.name, description, info.input_schema, std::move(invoke));
    } catch (const error& e) { // a name no model API accepts, an input schema that is not an object schema
        throw mcp_error(remote.describe() + ": " + e.what(), remote.describe());
    }
}

} // namespace

asio::awaitable<std::vector<function_tool>> tools(client& remote) {
    std::vector<function_tool> out;
    for (const tool_info& info : co_await remote.list_tools()) out.push_back(remote_tool(remote, info));
    co_return out;
}

} // namespace forma::mcp
