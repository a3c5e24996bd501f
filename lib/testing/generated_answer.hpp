#pragma once

// The local model server's Chat Completions answers, Beast-free: the OpenAI shapes it sends
// (chat.completion, chat.completion.chunk, error) and the answer it generates for a request
// body. model_server.cpp does the transport; this does the JSON (answer_decision the choice).

#include "answer_decision.hpp"

#include <forma/testing/model_server.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace forma::testing::detail {

/// What a reply says about itself: the same in every chunk of a stream.
struct answer_meta {
    std::string id = "chatcmpl-scripted";
    std::string model = "forma-local";
    std::int64_t created = 0;
};

struct word_usage {
    std::int64_t prompt_tokens = 0;
    std::int64_t completion_tokens = 0;
};

/// A `chat.completion` body with one choice.
std::string completion_body(const answer_meta& meta, std::string_view content,
                            std::string_view finish_reason, const word_usage& usage);

/** The SSE events of a streamed answer, each `data: <json>\n\n`: a role chunk, `content`
    in deltas of at most `delta_size` bytes (never cutting a UTF-8 sequence; at least one
    sequence each), a chunk with `finish_reason`, a usage-only chunk when `usage` is given, and
    `data: [DONE]`.
*/
std::vector<std::string> stream_events(const answer_meta& meta, std::string_view content,
                                       std::size_t delta_size, std::string_view finish_reason,
                                       const word_usage* usage);

/// A `chat.completion` body whose message calls `calls`; `content` is its text, or null when empty.
std::string tool_calls_body(const answer_meta& meta, const std::vector<scripted_tool_call>& calls,
                            std::string_view content, const word_usage& usage);

/** The SSE events of streamed tool calls (see scripted_reply::stream_tool_calls), with a usage
    chunk when `usage` is given.
*/
std::vector<std::string> tool_call_events(const answer_meta& meta, const std::vector<scripted_tool_call>& calls,
                                          std::size_t piece_size, std::string_view content, const word_usage* usage);

/// `{"error": {"message", "type", "param": null, "code"}}`; code is null when empty.
std::string error_body(std::string_view type, std::string_view message, std::string_view code);

/** The generated reply to a request (see model_server): 404 for a path that does
    not end in `/chat/completions` (the Responses paths are not asked here), 405 for another
    method than POST, 400 for a body that is not a JSON object with a `messages` array or a
    schema make_instance cannot satisfy; else the answer, streamed when the body says
    `"stream": true`.
*/
scripted_reply generate_answer(std::string_view method, std::string_view target, std::string_view body,
                               const generation& options);

} // namespace forma::testing::detail
