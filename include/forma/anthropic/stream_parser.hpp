#pragma once

#include <forma/model/agent_response_update.hpp>
#include <forma/net/sse_event.hpp>
#include <forma/net/sse_parser.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma::anthropic {

/// How a stream_parser reads a stream.
struct stream_parser_options {
    /// Limits of the SSE parser underneath (the largest event).
    net::sse_parser_options sse{};
    /** A call of the tool of this name is the answer (structured_output_mode::tool): its input's
        JSON comes out as text deltas as it arrives, and a `tool_use` stop reason with no other
        call as stop. Empty: none.
    */
    std::string answer_tool{};
};

/** Maps a streamed Messages API response (`"stream": true`: message_start,
    content_block_start/delta/stop, message_delta, message_stop, ping, error) to
    agent_response_updates, as the bytes arrive.

    message_start gives the role, the response and message id and the model
    (`additional_properties["model"]`); text and thinking deltas come out as they arrive; a
    thinking block's signature comes when the block stops (a reasoning content with no text
    whose protected data is the signature, which the merged response joins to the block's
    text); a tool_use block's call when it stops, its input read whole; message_delta gives the
    finish reason and the usage totals as a usage_content. Blocks may be open at once, as
    llama-server streams them. `to_agent_response` of the updates equals parse_message of the
    same answer sent whole (in tool mode, the answer's text is the input as streamed, which
    parse_message writes back from the parsed object: equal JSON, maybe not equal spacing).

    After an exception the stream is broken: discard the parser.
*/
class stream_parser {
public:
    explicit stream_parser(stream_parser_options options = {});

    /** Consumes bytes of the response body from the front of `input` until an update is ready
        or `input` is used up.
        @returns the update, or nullopt when `input` is used up (or the stream is done).
        @throws http_error (status 0) for an `error` event.
        @throws json_error for event data that is not JSON of the event's shape.
        @throws stream_error for an event larger than the SSE limit, or a block that stops or
                grows before it started.
    */
    std::optional<agent_response_update> next(std::string_view& input);

    /// Maps one event; nullopt for an event that carries nothing (ping, a block's start).
    std::optional<agent_response_update> map_event(const net::sse_event& event);

    /** Says that the body has ended.
        @throws stream_error (stream_error_kind::incomplete) unless the stream sent
                message_stop or a stop reason.
    */
    void finish() const;

    /// Whether message_stop has been read.
    bool done() const noexcept { return done_; }

private:
    struct open_block {
        enum class kind { none, text, thinking, tool_use, other } type = kind::none;
        std::string id;
        std::string name;
        std::string input;     // tool_use: the partial JSON so far
        std::string signature; // thinking
        bool answer = false;   // the answer tool's call
        std::string raw;       // other: the block as it started
    };

    open_block& block_at(std::int64_t index, bool starting);

    stream_parser_options options_;
    net::sse_parser sse_;
    std::vector<open_block> blocks_;
    // Usage totals so far, and what earlier updates told of each (input, output, cache written, cache read).
    std::optional<std::int64_t> input_tokens_, output_tokens_, cache_creation_tokens_, cache_read_tokens_;
    std::int64_t told_[4] = {0, 0, 0, 0};
    std::size_t other_calls_ = 0;
    bool stopped_ = false;
    bool done_ = false;
};

} // namespace forma::anthropic
