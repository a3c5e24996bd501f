#pragma once

#include <forma/error.hpp>
#include <forma/json/from_json.hpp>
#include <forma/json/json_schema.hpp>
#include <forma/mcp/prompt.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace forma::mcp {

/** A prompt whose arguments are the members of the described struct `Args`: each a string
    (std::string; std::optional<std::string> for one the client may leave out), its description
    the member's schema description when there is one. prompts/get reads the arguments into an
    `Args` (from_json, so a member that does not fit is refused with -32602 naming it) and calls
    `get`, which returns the messages, or an awaitable of them.

        struct review_arguments { std::string code; std::optional<std::string> language; };
        BOOST_DESCRIBE_STRUCT(review_arguments, (), (code, language))
        mcp.add(forma::mcp::make_prompt<review_arguments>("code_review", "Reviews code",
            [](const review_arguments& a) { return std::vector<forma::mcp::prompt_message>{...}; }));
*/
template <class Args, class F>
prompt make_prompt(std::string name, std::string description, F get) {
    const boost::json::object& schema = json_schema<Args>();
    std::vector<prompt_argument> arguments;
    const boost::json::value* properties = schema.if_contains("properties");
    const boost::json::value* required = schema.if_contains("required");
    if (properties && properties->is_object()) {
        for (const auto& [key, property] : properties->get_object()) {
            prompt_argument argument{.name = std::string(key)};
            if (const boost::json::value* text = property.is_object() ? property.get_object().if_contains("description") : nullptr;
                text && text->is_string()) {
                argument.description = std::string(text->get_string());
            }
            if (required && required->is_array()) {
                for (const boost::json::value& r : required->get_array()) argument.required = argument.required || r == key;
            }
            arguments.push_back(std::move(argument));
        }
    }
    auto read_and_get = [get = std::move(get)](const template_variables& given) -> boost::asio::awaitable<std::vector<prompt_message>> {
        boost::json::object object;
        for (const auto& [key, value] : given) object[key] = value;
        const Args args = from_json<Args>(boost::json::serialize(object));
        if constexpr (std::is_same_v<std::invoke_result_t<const F&, const Args&>, std::vector<prompt_message>>) {
            co_return get(args);
        } else {
            co_return co_await get(args);
        }
    };
    return prompt{.name = std::move(name), .description = std::move(description), .arguments = std::move(arguments),
                  .get = std::move(read_and_get)};
}

} // namespace forma::mcp
