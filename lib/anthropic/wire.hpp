#pragma once
// What the Messages API's whole answers and its stream share: blocks, stop reasons and usage
// as forma's contents, finish reasons and usage details, and errors as http_error.

#include <forma/model/content.hpp>
#include <forma/model/finish_reason.hpp>
#include <forma/model/usage_details.hpp>
#include <forma/net/http_error.hpp>

#include <boost/describe/class.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace forma::anthropic::detail {

/// `usage`, as a Message and a message_delta event carry it (every count is a total so far).
struct usage_wire {
    std::optional<std::int64_t> input_tokens;
    std::optional<std::int64_t> output_tokens;
    std::optional<std::int64_t> cache_creation_input_tokens;
    std::optional<std::int64_t> cache_read_input_tokens;
};
BOOST_DESCRIBE_STRUCT(usage_wire, (), (input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens))

/// A later total replaces an earlier one; a count the later one leaves out stays.
void update_usage(usage_wire& totals, const usage_wire& later);
usage_details to_usage(const usage_wire& usage);

/// The finish reason of a stop reason (see parse_message).
finish_reason to_finish_reason(std::string_view stop_reason);
/// The refusal_content a `refusal` stop reason adds, with the explanation when there is one.
refusal_content refusal_of(std::string_view explanation);

/// A thinking block's content (no protected data for an empty signature); `redacted` for a
/// redacted_thinking block, whose data is `signature`.
text_reasoning_content thinking_of(std::string text, std::string signature, bool redacted);
/** A tool_use block's call. Input that is not a JSON object (a model's broken JSON) gives no
    arguments and is kept as text in the raw representation's `arguments`, where the tool loop
    reads a call's arguments as sent (tool_arguments_text): the model is told what was wrong.
*/
function_call_content call_of(std::string id, std::string name, boost::json::value input);
/// As call_of, for input streamed as text (`input_json_delta`s): empty text is no arguments.
function_call_content call_of_text(std::string id, std::string name, std::string_view input);

/// The error object's members, from either server's shape.
struct error_wire {
    std::optional<std::string> type;
    std::optional<std::string> message;
};
BOOST_DESCRIBE_STRUCT(error_wire, (), (type, message))
http_error to_http_error(int status, const error_wire& error);

} // namespace forma::anthropic::detail
