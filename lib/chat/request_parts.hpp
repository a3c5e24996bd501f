#pragma once
// What every provider's request builder shares: media types, tool results as text, the model
// to send, the checks on tools and extra members, and the UTF-8 check of a body.

#include <forma/chat/chat_options.hpp>
#include <forma/model/content.hpp>

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

namespace forma::chat_detail {

/// Whether `s` starts with the lower-case `prefix`, ignoring ASCII case.
bool starts_with_ci(std::string_view s, std::string_view prefix) noexcept;

/// The media type without parameters, lower-cased: "Image/PNG; x=y" -> "image/png".
std::string essence(std::string_view media_type);

/// What a tool call returned, as text: a string as it is, other values (null too) as JSON;
/// "Error: ..." first when it failed.
std::string result_text(const function_result_content& result);

/// "auto", "none" or "required"; null for a choice of one named function.
const char* tool_choice_keyword(const tool_choice& choice) noexcept;

/// The model a request names: the options', else the client's `default_model`.
/// @throws error, which names `request` ("an OpenAI chat request"), when neither names one.
std::string_view model_to_send(const chat_options& options, std::string_view default_model, std::string_view request);

/// @throws error when two tools share a name, or tool_choice names a tool not offered.
void check_tools(const chat_options& options);

/// @throws error when `options.additional_properties` sets one of `reserved` (the members
/// `client`, e.g. "the OpenAI client", sets), or "tools" beside chat_options::tools.
void check_additional_properties(const chat_options& options, std::initializer_list<const char*> reserved,
                                 std::string_view client);

/// @throws error naming `request` ("the OpenAI request") and the first string or member name
/// in `body` that is not UTF-8.
void require_utf8(const boost::json::object& body, std::string_view request);

} // namespace forma::chat_detail
