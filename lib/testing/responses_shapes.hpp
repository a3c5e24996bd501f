#pragma once

// The Responses API's shapes the local model server sends, Beast-free: a Response, its output
// items, and the events that stream it, each `event: <type>\ndata: <json>\n\n`.

#include <forma/testing/model_server.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace forma::testing::detail {

/// Words counted as tokens; output_tokens includes the reasoning's.
struct response_usage {
    std::int64_t input_tokens = 0;
    std::int64_t output_tokens = 0;
    std::int64_t reasoning_tokens = 0;
};

/// An assistant `message` item with one `output_text` part.
boost::json::object message_item(std::string id, std::string_view text, std::string_view status = "completed");
/// A `function_call` item; the call's id is its `call_id`.
boost::json::object function_call_item(std::string id, const scripted_tool_call& call);
/// A `reasoning` item with one summary part; `encrypted_content` only when not empty.
boost::json::object reasoning_item(std::string id, std::string_view summary, std::string_view encrypted_content = {});

/** The fields of a Response that stay as it runs, with the API's defaults (no tools,
    tool_choice "auto", text format "text", ...), status "in_progress" and no output.
*/
boost::json::object response_base(std::string id, std::string_view model, std::int64_t created_at);

/** `base` at `status` with `output`: with `usage` when given, `incomplete_details` for
    "incomplete" (max_output_tokens), `completed_at` for "completed", and for "failed" an
    `error` (server_error) saying `error_message`.
*/
boost::json::object response_at(const boost::json::object& base, std::string_view status, boost::json::array output,
                                 const response_usage* usage, std::string_view error_message = {});

/// A streamed Response's events, numbered from 0, and where its items end.
struct response_events {
    std::vector<std::string> events;
    /// Per output item, the index of its response.output_item.done event.
    std::vector<std::size_t> item_done;
};

/** The events that stream `final_response` (a Response at its end): response.created with
    status `first_status` ("queued" for a background run, else "in_progress"),
    response.in_progress, then per output item output_item.added, its parts (a message:
    content_part.added, output_text.delta in pieces of `delta_size` bytes never cutting a
    UTF-8 sequence, output_text.done, content_part.done; a reasoning item: the same with
    reasoning_summary_part and reasoning_summary_text; a function call:
    function_call_arguments.delta pieces and .done) and output_item.done, and last
    response.completed, or response.incomplete when `final_response` is incomplete.
*/
response_events stream_response(const boost::json::object& final_response, std::string_view first_status,
                                 std::size_t delta_size);

/// One SSE event: `event: <type>\ndata: <json>\n\n` (no `event:` line when `event` has no string type).
std::string sse_event(const boost::json::object& event);

/// The string member `key` of `o`, or empty when it is missing or not a string.
std::string_view string_at(const boost::json::object& o, std::string_view key);

} // namespace forma::testing::detail
