#pragma once

#include <forma/json/json_error.hpp>
#include <forma/model/agent_response.hpp>
#include <forma/model/agent_response_update.hpp>
#include <forma/net/http_error.hpp>
#include <forma/net/sse_event.hpp>
#include <forma/net/sse_parser.hpp>
#include <forma/net/stream_error.hpp>
#include <forma/openai/responses_token.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace forma::openai {

/** Maps a Responses API `Response` object (the body of `POST /v1/responses`,
    `GET /v1/responses/{id}` and `POST /v1/responses/{id}/cancel`) to an agent_response<>.

    The output items become one assistant message, in order: `message` items'
    `output_text` as text_content and `refusal` as refusal_content; `reasoning`
    items as text_reasoning_content (the summary's text; `encrypted_content` as
    protected_data, the item id in additional_properties["id"]: both go back to the
    model on the next turn); `function_call` items as function_call_content (the
    call as sent, arguments as text, kept as raw_representation); any other item
    as unknown_content. The message id and the response id are the response's `id`;
    `created_at` is the created time; `model` goes to additional_properties["model"];
    usage maps input, output, total, cached and reasoning tokens; the body is kept
    as raw_representation.

    By `status`: `completed` has finish reason stop (tool_calls when it calls
    functions); `incomplete` has length for `max_output_tokens` (so `result()`
    throws output_truncated_error), content_filter for `content_filter`;
    `queued` and `in_progress` (a background response) have no messages (the
    answer is not there yet; what the server has made so far stays in the raw
    representation), no finish reason and a continuation_token (responses_token
    without a sequence number) to poll with; `cancelled` has neither token nor
    finish reason.

    @throws http_error for a status other than 2xx, an error body, or a `failed`
            response (its error's code and message).
    @throws json_error if the body is not a Response; the path names the value.
*/
agent_response<> parse_responses_response(std::string_view body, int status = 200);

/// How a responses_stream_parser reads a stream.
struct responses_stream_parser_options {
    /// Limits of the SSE parser underneath (the largest event: a `response.completed`
    /// event repeats the whole response).
    net::sse_parser_options sse{};
    /** A function call item of the tool of this name is the answer
        (structured_output_mode::tool): its argument deltas come out as text
        deltas, not as a function call. Empty: none.
    */
    std::string answer_tool{};
};

/** Maps the Responses API's typed server-sent events (`"stream": true`) to
    agent_response_updates, as the bytes arrive; `to_agent_response` of the
    updates equals parse_responses_response of the finished response (text,
    reasoning, refusals, calls, finish reason, usage).

    - `response.created` (`queued`, `in_progress`): an update with the response
      id, created time and model.
    - `response.output_text.delta`, `response.refusal.delta`,
      `response.reasoning_summary_text.delta` (and `response.reasoning_text.delta`):
      text_content, refusal_content, text_reasoning_content.
    - `response.output_item.done`: a `function_call` item's call (arguments whole,
      so the `.delta` events of arguments carry nothing of their own), a reasoning
      item's encrypted content, any unknown item kind as unknown_content.
    - `response.completed` / `response.incomplete`: the finish reason and usage.
    - events that only frame these (the `.added` and `.done` of items, parts and
      texts, function-call argument deltas) carry nothing; any other event type (a
      hosted tool's progress, audio, a type that does not exist yet) becomes an
      update with the event as raw_representation and no contents, never an error.

    Every update has the response id and the created time (not known in a resumed
    stream, whose creation came before); content updates have the response id as
    message id. position() is where the stream stands, for resuming.

    After an exception the stream is broken: discard the parser.
*/
class responses_stream_parser {
public:
    explicit responses_stream_parser(responses_stream_parser_options options = {});

    /** Consumes bytes of the body from the front of `input` until an update is ready or
        `input` is used up.
        @throws http_error for an `error` event or a `response.failed` event (status 0).
        @throws stream_error (protocol) for an event that is not JSON of an event's shape,
                naming its place in the stream and the JSON error; (event_too_large) for an
                event larger than the SSE limit.
    */
    std::optional<agent_response_update> next(std::string_view& input);

    /// Maps one event (next() calls this for each event the SSE parser gives).
    std::optional<agent_response_update> map_event(const net::sse_event& event);

    /** Says that the body has ended.
        @throws stream_error (incomplete) unless a terminal event (`response.completed`,
                `response.incomplete`) has come.
    */
    void finish() const;

    /// Continues a stream resumed after `at`: its events need not name the response again.
    void resume_after(const responses_token& at) {
        response_id_ = at.response_id;
        last_sequence_ = at.sequence_number;
        resumed_ = true;
    }

    /// Whether a terminal event has come.
    bool finished() const noexcept { return finished_; }

    /// The response id (from the first event that names it) and the last sequence number read.
    responses_token position() const { return {response_id_, last_sequence_}; }

    /// The sequence number of the event the last update came from, when it had one.
    std::optional<std::int64_t> event_sequence() const noexcept { return event_sequence_; }

    /// The response's status as the events told it ("" before the first).
    const std::string& status() const noexcept { return status_; }

private:
    std::optional<agent_response_update> map(std::string_view data);

    /// A function call item, followed when the parser has an answer tool.
    struct call_item {
        bool named = false;   // its output_item.added came (a resumed stream may start after it)
        bool answer = false;  // it calls the answer tool
        bool streamed = false; // some of its arguments went out as text
        std::string held;     // deltas of an item not named yet
    };
    /// The answer's text an answer tool's call item adds when it is done: what did not go out yet.
    std::string answer_rest(const std::string& item_id, std::string arguments);

    responses_stream_parser_options options_;
    net::sse_parser sse_;
    std::string response_id_;
    std::string status_;
    std::string model_;
    std::optional<std::int64_t> created_{};
    std::optional<std::int64_t> last_sequence_{};
    std::optional<std::int64_t> event_sequence_{};
    std::size_t events_ = 0; // events read, for error messages
    bool calls_functions_ = false;
    bool finished_ = false;
    bool resumed_ = false;
    std::unordered_map<std::string, call_item> call_items_; // by item id
};

} // namespace forma::openai
