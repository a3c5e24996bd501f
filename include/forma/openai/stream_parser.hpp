#pragma once

#include <forma/json/json_error.hpp>
#include <forma/model/agent_response_update.hpp>
#include <forma/net/http_error.hpp>
#include <forma/net/sse_event.hpp>
#include <forma/net/sse_parser.hpp>
#include <forma/net/stream_error.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma::openai {

/// How a stream_parser reads a stream.
struct stream_parser_options {
    /// Limits of the SSE parser underneath (the largest event).
    net::sse_parser_options sse{};
    /** Keep each chunk's JSON as its update's `raw_representation`. Off by
        default: it builds a DOM per chunk, which costs more than the mapping
        itself (see docs/PERFORMANCE.md), and the merged response drops raw
        representations anyway.
    */
    bool keep_raw_chunks = false;
    /** A call of the tool of this name is the answer (structured_output_mode::tool):
        its argument deltas come out as text deltas, not as a function call, and
        a `tool_calls` finish reason with no other call as `stop`. Empty: none.
    */
    std::string answer_tool{};
};

/** Maps a streamed Chat Completions response (`"stream": true`, server-sent
    events of `CreateChatCompletionStreamResponse` chunks) to
    agent_response_updates, as the bytes arrive.

    Per chunk, one update (none for a chunk that carries nothing): the chunk's
    `id` is the response id and, for chunks with choices, the message id;
    `created` is the created time; the first choice's delta maps as
    parse_response maps a message (`role`, `content` as text_content, `refusal`
    as refusal_content, reasoning text as text_reasoning_content), its
    `finish_reason` to the update's; tool-call deltas are gathered and come out
    as function_call_contents on the update that finishes the choice; a chunk's
    `usage` (the final usage-only chunk that `stream_options.include_usage`
    asks for) becomes a usage_content. `model` is put in
    `additional_properties["model"]` when it first appears or changes.
    `to_agent_response` of the updates equals parse_response of the same answer
    sent whole, in text, finish reason and usage.

    `data: [DONE]` ends the stream; later bytes are ignored.

    After an exception the stream is broken: discard the parser.
*/
class stream_parser {
public:
    explicit stream_parser(stream_parser_options options = {});

    /** Consumes bytes of the response body from the front of `input` until an
        update is ready or `input` is used up.

        @returns the update, or nullopt when `input` is used up (or the stream
                 is done).
        @throws http_error for an `event: error` or a chunk that is an error
                object (status 0: the error came inside the stream).
        @throws json_error for chunk data that is not JSON of the chunk's shape.
        @throws stream_error for an event larger than the SSE limit.
    */
    std::optional<agent_response_update> next(std::string_view& input);

    /// Calls `on_update(agent_response_update&&)` for each update `bytes` complete.
    template <class OnUpdate>
    void feed(std::string_view bytes, OnUpdate&& on_update) {
        while (auto update = next(bytes)) on_update(std::move(*update));
    }

    /** Maps one event (next() calls this for each event the SSE parser gives).
        @returns the update, or nullopt for an event that carries nothing (a
                 keep-alive chunk, `[DONE]` with no pending tool calls, an event
                 type other than "message" and "error").
    */
    std::optional<agent_response_update> map_event(const net::sse_event& event);

    /** Says that the body has ended.
        @throws stream_error (stream_error_kind::incomplete) unless the stream
                sent `[DONE]` or a finish reason: a stream cut short is never
                handed out as if it were the whole answer.
    */
    void finish() const;

    /// Whether `[DONE]` has been read.
    bool done() const noexcept { return done_; }
    /// Whether the first choice has had its finish reason.
    bool finished() const noexcept { return finished_; }

private:
    struct pending_call {
        std::string id;
        std::string name;
        std::string arguments;
    };

    bool is_answer(const pending_call& call) const noexcept;
    void flush_calls(agent_response_update& update);

    stream_parser_options options_;
    net::sse_parser sse_;
    std::string model_;                // the model named by the last chunk, to report changes only
    std::vector<pending_call> calls_;  // tool calls being streamed, by index
    bool done_ = false;
    bool finished_ = false;
};

} // namespace forma::openai
