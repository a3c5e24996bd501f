#pragma once

// The Responses API's wire format as forma reads it: described structs that
// forma::from_json fills straight from the bytes, shared by the whole-response
// parser and the event stream parser. Every member is optional (compatible
// servers leave some out); members forma does not read are skipped.

#include "wire.hpp"

#include <forma/model/agent_response.hpp>

#include <boost/describe/class.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace forma::openai::detail::responses_wire {

using wire::ignored_wire;

/// Text where the API's own kinds send text; an object where other kinds (hosted tools) send one.
using text_or_object = std::variant<std::string, ignored_wire>;

/// The text of `value`, when it is text.
inline const std::string* text_of(const std::optional<text_or_object>& value) noexcept {
    return value ? std::get_if<std::string>(&*value) : nullptr;
}

/// A message item's content part (`output_text`, `refusal`) or a reasoning summary part.
struct part_wire {
    std::optional<std::string> type;
    std::optional<std::string> text;
    std::optional<std::string> refusal;
    std::optional<std::vector<ignored_wire>> annotations;
    std::optional<std::vector<ignored_wire>> logprobs;
};
BOOST_DESCRIBE_STRUCT(part_wire, (), (type, text, refusal, annotations, logprobs))

/// An output item: `message`, `reasoning`, `function_call`, or a kind forma keeps raw.
struct item_wire {
    std::optional<std::string> type;
    std::optional<std::string> id;
    std::optional<std::string> status;
    std::optional<std::string> role;
    std::optional<std::vector<part_wire>> content;
    std::optional<std::vector<part_wire>> summary;
    std::optional<std::string> encrypted_content;
    std::optional<std::string> call_id;
    std::optional<std::string> name;
    std::optional<text_or_object> arguments;
};
BOOST_DESCRIBE_STRUCT(item_wire, (), (type, id, status, role, content, summary, encrypted_content, call_id, name,
                                     arguments))

struct input_details_wire {
    std::optional<std::int64_t> cached_tokens;
};
BOOST_DESCRIBE_STRUCT(input_details_wire, (), (cached_tokens))

struct output_details_wire {
    std::optional<std::int64_t> reasoning_tokens;
};
BOOST_DESCRIBE_STRUCT(output_details_wire, (), (reasoning_tokens))

struct usage_wire {
    std::optional<std::int64_t> input_tokens;
    std::optional<input_details_wire> input_tokens_details;
    std::optional<std::int64_t> output_tokens;
    std::optional<output_details_wire> output_tokens_details;
    std::optional<std::int64_t> total_tokens;
};
BOOST_DESCRIBE_STRUCT(usage_wire, (), (input_tokens, input_tokens_details, output_tokens, output_tokens_details,
                                      total_tokens))

struct response_error_wire {
    std::optional<std::string> code;
    std::optional<std::string> message;
};
BOOST_DESCRIBE_STRUCT(response_error_wire, (), (code, message))

struct incomplete_wire {
    std::optional<std::string> reason;
};
BOOST_DESCRIBE_STRUCT(incomplete_wire, (), (reason))

/// A `Response` object, or an error body (`error` holding an OpenAI error object).
struct response_wire {
    std::optional<std::string> id;
    std::optional<std::string> object;
    std::optional<std::int64_t> created_at;
    std::optional<std::string> status;
    std::optional<std::string> model;
    std::optional<std::vector<item_wire>> output;
    std::optional<usage_wire> usage;
    std::optional<wire::error_wire> error;
    std::optional<incomplete_wire> incomplete_details;
    std::optional<bool> background;
};
BOOST_DESCRIBE_STRUCT(response_wire, (), (id, object, created_at, status, model, output, usage, error,
                                         incomplete_details, background))

/// One streamed event: every event type's members in one shape.
struct event_wire {
    std::optional<std::string> type;
    std::optional<std::int64_t> sequence_number;
    std::optional<text_or_object> delta;
    std::optional<std::string> item_id;
    std::optional<std::int64_t> output_index;
    std::optional<std::int64_t> content_index;
    std::optional<std::int64_t> summary_index;
    std::optional<item_wire> item;
    std::optional<response_wire> response;
    // error events
    std::optional<std::string> code;
    std::optional<std::string> message;
    std::optional<std::string> param;
    // read only so that they are not unknown (see wire::ignored_wire)
    std::optional<std::string> text;
    std::optional<std::string> refusal;
    std::optional<text_or_object> arguments;
    std::optional<std::string> obfuscation;
    std::optional<std::vector<ignored_wire>> logprobs;
    std::optional<ignored_wire> part;
};
BOOST_DESCRIBE_STRUCT(event_wire, (), (type, sequence_number, delta, item_id, output_index, content_index,
                                      summary_index, item, response, code, message, param, text, refusal, arguments,
                                      obfuscation, logprobs, part))

usage_details to_usage(const usage_wire& usage);

/** The contents of one output item, appended to `out`: `message` parts as text_content and
    refusal_content, `reasoning` as text_reasoning_content (summary text, encrypted_content as
    protected_data; raw reasoning `content` after the summary), `function_call` as
    function_call_content (the call as sent as raw_representation); any other type as
    unknown_content of `raw` (the item's JSON).
*/
void add_item_contents(const item_wire& item, const boost::json::value* raw, std::vector<content>& out);

/// The finish reason of a finished response: length or content_filter for an incomplete one,
/// tool_calls when it calls functions (`calls_functions`, or a function_call in its output other
/// than one of `answer_tool`, which carries the answer), else stop.
std::optional<forma::finish_reason> finish_reason_of(const response_wire& response, bool calls_functions,
                                                     std::string_view answer_tool = {});

/// The http_error of a `failed` response (its `error`), status 0 when it came inside a stream.
http_error failure_of(const response_wire& response, int status);

/// Whether `status` is one a background response has before it ends.
bool is_unfinished(std::string_view status) noexcept;

} // namespace forma::openai::detail::responses_wire
