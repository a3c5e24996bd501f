#pragma once

// The Chat Completions wire format as forma reads it: small described structs
// that forma::from_json fills straight from the bytes (no DOM), shared by the
// response parser and the stream parser. Every member is optional so that
// OpenAI-compatible servers that leave one out still parse; members forma does
// not read (logprobs, annotations, obfuscation, ...) are skipped.

#include <forma/model/agent_response_update.hpp>
#include <forma/model/content.hpp>
#include <forma/model/usage_details.hpp>
#include <forma/net/http_error.hpp>

#include <boost/describe/class.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace forma::openai::detail::wire {

struct function_wire {
    std::optional<std::string> name;
    std::optional<std::string> arguments;
};
BOOST_DESCRIBE_STRUCT(function_wire, (), (name, arguments))

struct tool_call_wire {
    std::optional<std::int64_t> index; // streams only: which call a delta belongs to
    std::optional<std::string> id;
    std::optional<std::string> type;
    std::optional<function_wire> function;
};
BOOST_DESCRIBE_STRUCT(tool_call_wire, (), (index, id, type, function))

/// A response's `message` or a chunk's `delta`.
struct message_wire {
    std::optional<std::string> role;
    std::optional<std::string> content;
    std::optional<std::string> refusal;
    /// Reasoning text as DeepSeek, vLLM, llama.cpp and Ollama send it.
    std::optional<std::string> reasoning_content;
    /// Reasoning text as OpenRouter and newer Ollama send it.
    std::optional<std::string> reasoning;
    std::optional<std::vector<tool_call_wire>> tool_calls;
};
BOOST_DESCRIBE_STRUCT(message_wire, (), (role, content, refusal, reasoning_content, reasoning, tool_calls))

/// A member that is read and dropped. Naming the members every chunk has keeps
/// from_json from tracking them as unknown, which cost an allocation per object.
struct ignored_wire {};
BOOST_DESCRIBE_STRUCT(ignored_wire, (), ())

struct choice_wire {
    std::optional<std::int64_t> index;
    std::optional<message_wire> message;
    std::optional<message_wire> delta;
    std::optional<std::string> finish_reason;
    std::optional<ignored_wire> logprobs;
};
BOOST_DESCRIBE_STRUCT(choice_wire, (), (index, message, delta, finish_reason, logprobs))

struct prompt_details_wire {
    std::optional<std::int64_t> cached_tokens;
    std::optional<std::int64_t> audio_tokens;
};
BOOST_DESCRIBE_STRUCT(prompt_details_wire, (), (cached_tokens, audio_tokens))

struct completion_details_wire {
    std::optional<std::int64_t> reasoning_tokens;
    std::optional<std::int64_t> audio_tokens;
    std::optional<std::int64_t> accepted_prediction_tokens;
    std::optional<std::int64_t> rejected_prediction_tokens;
};
BOOST_DESCRIBE_STRUCT(completion_details_wire, (),
                      (reasoning_tokens, audio_tokens, accepted_prediction_tokens,
                       rejected_prediction_tokens))

struct usage_wire {
    std::optional<std::int64_t> prompt_tokens;
    std::optional<std::int64_t> completion_tokens;
    std::optional<std::int64_t> total_tokens;
    std::optional<prompt_details_wire> prompt_tokens_details;
    std::optional<completion_details_wire> completion_tokens_details;
};
BOOST_DESCRIBE_STRUCT(usage_wire, (), (prompt_tokens, completion_tokens, total_tokens,
                                       prompt_tokens_details, completion_tokens_details))

/// OpenAI sends string codes; llama.cpp and vLLM send the HTTP status as a number.
using error_code_wire = std::variant<std::string, std::int64_t>;

struct error_object_wire {
    std::optional<std::string> message;
    std::optional<std::string> type;
    std::optional<error_code_wire> code;
};
BOOST_DESCRIBE_STRUCT(error_object_wire, (), (message, type, code))

/// `{"error": {...}}` as OpenAI sends it, or `{"error": "text"}` as some servers do.
using error_wire = std::variant<std::string, error_object_wire>;

/// A response body, a stream chunk or an error body: one shape covers all three.
struct completion_wire {
    std::optional<std::string> id;
    std::optional<std::int64_t> created;
    std::optional<std::string> model;
    std::optional<std::vector<choice_wire>> choices;
    std::optional<usage_wire> usage;
    std::optional<error_wire> error;
    // Read only so that they are not unknown (see ignored_wire).
    std::optional<std::string> object;
    std::optional<std::string> service_tier;
    std::optional<std::string> system_fingerprint;
    std::optional<std::string> obfuscation;
};
BOOST_DESCRIBE_STRUCT(completion_wire, (), (id, created, model, choices, usage, error, object, service_tier,
                                           system_fingerprint, obfuscation))

/// Reads a body or chunk. @throws json_error with the path of the offending value.
completion_wire read_completion(std::string_view json);

/// A body as a DOM, for raw_representation: numbers too large for a double stay infinite.
/// @throws json_error for text that is not JSON (from_json has read it before, so rarely).
boost::json::value parse_raw(std::string_view body);

/// The choice forma maps: the one with index 0 (or no index), else null.
const choice_wire* first_choice(const completion_wire& completion) noexcept;
inline choice_wire* first_choice(completion_wire& completion) noexcept {
    return const_cast<choice_wire*>(first_choice(std::as_const(completion)));
}

/// `created` (Unix seconds) as a time; null when absent, not after the epoch, or out of range.
std::optional<std::chrono::system_clock::time_point> to_time(const std::optional<std::int64_t>& seconds) noexcept;

usage_details to_usage(const usage_wire& usage);

/// The http_error for an error object; param is not read (it may be anything).
http_error to_http_error(int status, const error_wire& error);

/// A call's arguments when they are a JSON object (numbers in range), else empty.
boost::json::object parse_arguments(std::string_view arguments);

/** A tool call as function_call_content: arguments parsed when they are a JSON
    object; the call as OpenAI sent it (arguments as text) kept as raw_representation,
    so that arguments that are not valid JSON are not lost.
*/
function_call_content to_function_call(std::string id, std::string name, std::string arguments);

} // namespace forma::openai::detail::wire
