#pragma once
// The members of a Chat Completions or a Responses request body that the endpoints read, as
// described structs: from_json reads a body straight into them, checking every member's type
// (a wrong one is a 400 naming it). Members not listed are skipped; the response formats, the
// tools and the metadata are kept as any JSON, as given.

#include <boost/describe/class.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace forma::serving::detail {

/// {"url": ...}: Chat Completions' image_url part (its "detail" is not read).
struct image_url_body {
    std::string url;
};
BOOST_DESCRIBE_STRUCT(image_url_body, (), (url))

/// A content part: text (text, input_text, output_text) or an image (image_url, input_image),
/// whose URL is an object (Chat Completions) or a string (Responses).
struct content_part_body {
    std::string type;
    std::optional<std::string> text;
    std::optional<std::variant<std::string, image_url_body>> image_url;
};
BOOST_DESCRIBE_STRUCT(content_part_body, (), (type, text, image_url))

/// A message's content: text, parts, or none.
using content_body = std::optional<std::variant<std::string, std::vector<content_part_body>>>;

struct function_body {
    std::optional<std::string> name;
    std::optional<std::string> arguments; ///< JSON text, as OpenAI sends it
};
BOOST_DESCRIBE_STRUCT(function_body, (), (name, arguments))

struct tool_call_body {
    std::optional<std::string> id;
    function_body function;
};
BOOST_DESCRIBE_STRUCT(tool_call_body, (), (id, function))

struct chat_message_body {
    std::optional<std::string> role;
    content_body content;
    std::optional<std::string> tool_call_id;
    std::optional<std::vector<tool_call_body>> tool_calls;
};
BOOST_DESCRIBE_STRUCT(chat_message_body, (), (role, content, tool_call_id, tool_calls))

struct stream_options_body {
    std::optional<bool> include_usage;
};
BOOST_DESCRIBE_STRUCT(stream_options_body, (), (include_usage))

/// What both bodies share: the model, the client's tools (refused), streaming and sampling.
struct request_body_base {
    std::optional<std::string> model;
    std::optional<boost::json::value> tools;
    std::optional<bool> stream;
    std::optional<double> temperature;
    std::optional<double> top_p;
    std::optional<std::int64_t> seed;
    std::optional<std::variant<std::string, std::vector<std::string>>> stop;
    std::optional<std::string> instructions;
};
BOOST_DESCRIBE_STRUCT(request_body_base, (), (model, tools, stream, temperature, top_p, seed, stop, instructions))

/// POST /chat/completions.
struct chat_request_body : request_body_base {
    std::optional<std::vector<chat_message_body>> messages;
    std::optional<boost::json::value> response_format;
    std::optional<stream_options_body> stream_options;
    std::optional<std::int64_t> max_tokens;
    std::optional<std::int64_t> max_completion_tokens;
};
BOOST_DESCRIBE_STRUCT(chat_request_body, (request_body_base),
                      (messages, response_format, stream_options, max_tokens, max_completion_tokens))

/// An item of a Responses input: a message, a function call or a function call's output.
struct input_item_body {
    std::optional<std::string> type;
    std::optional<std::string> role;
    content_body content;
    std::optional<std::string> call_id;
    std::optional<std::string> name;
    std::optional<std::string> arguments;
    std::optional<std::string> output;
};
BOOST_DESCRIBE_STRUCT(input_item_body, (), (type, role, content, call_id, name, arguments, output))

/// POST /responses. `text` and `metadata` are echoed in the response as given.
struct responses_request_body : request_body_base {
    std::optional<std::variant<std::string, std::vector<input_item_body>>> input;
    std::optional<boost::json::value> text;
    std::optional<boost::json::value> metadata;
    std::optional<bool> background;
    std::optional<bool> store;
    std::optional<std::string> previous_response_id;
    std::optional<std::int64_t> max_output_tokens;
};
BOOST_DESCRIBE_STRUCT(responses_request_body, (request_body_base),
                      (input, text, metadata, background, store, previous_response_id, max_output_tokens))

} // namespace forma::serving::detail
