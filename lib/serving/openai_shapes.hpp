#pragma once
// The OpenAI shapes forma serves: chat completions and their chunks, Responses and their
// events, and the error object.

#include <forma/agent/agent_task.hpp>
#include <forma/model/agent_response.hpp>

#include "openai_request_body.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma::serving::detail {

/// {"error": {"message", "type", "param", "code"}}, valid UTF-8.
std::string error_body(std::string_view message, std::string_view type, std::string_view param = {}, std::string_view code = {});

// ---- Chat Completions ------------------------------------------------------------------

/** A whole chat.completion, as JSON text: one choice holding the answer's text (null when
    none), its finish reason and usage. The answer's approval requests are its tool_calls (finish
    reason "tool_calls"): the caller answers each with a tool message {"approved": bool}.
    Written straight to text (no JSON tree), as every answer of the endpoint is.
*/
std::string chat_completion(const agent_response<>& answer, std::string_view id, std::string_view model, std::int64_t created);

/// The chunks of one streamed chat completion, as JSON text; what every chunk repeats (id,
/// model, created) is written once.
class chat_chunks {
public:
    chat_chunks(std::string_view id, std::string_view model, std::int64_t created);

    /// A chunk whose one choice has `delta` (a JSON object's text) and, for the last, a finish reason.
    std::string chunk(std::string_view delta, std::optional<std::string_view> finish_reason = std::nullopt) const;
    /// The delta {"content": text}.
    static std::string content(std::string_view text);
    /// A streamed message's tool_calls delta: the approval requests, each whole.
    static std::string tool_calls(const std::vector<function_approval_request_content>& requests);
    /// The last chunk of a stream with stream_options.include_usage: no choices, the usage.
    std::string usage(const std::optional<usage_details>& usage) const;

private:
    std::string head_; // {"id":...,"object":"chat.completion.chunk","created":...,"model":...,"choices":
};

// ---- Responses -----------------------------------------------------------------------

/// The fields of a Response that do not change as it runs (id, model, created_at, the request's settings).
boost::json::object response_base(const std::string& id, std::string_view model, std::int64_t created_at,
                                  const responses_request_body& request);

/// The Response of `task` as it stands: its status, its message item and a function_call item per
/// approval request (answered by a function_call_output {"approved": bool}), its usage or error.
boost::json::object response_of(const boost::json::object& base, const agent_task& task);

/** The events that stream a Response, numbered from 0, made as the task goes on: feed it the
    task's updates in order, then the task once it has stopped. The events of a task do not
    depend on when they were made, so a stream resumed after event N replays the same ones.
*/
class response_events {
public:
    /// `base`: response_base(); `queued`: response.created shows status "queued" (a background run).
    response_events(boost::json::object base, bool queued);

    /// response.created and response.in_progress.
    std::vector<boost::json::object> start();
    /// The events one update says: its text as output_text.delta (opening the message first).
    std::vector<boost::json::object> add(const agent_response_update& update);
    /// The closing events of a stopped task, ending with response.completed (or .failed, or .incomplete for a canceled one).
    std::vector<boost::json::object> finish(const agent_task& task);
    /// An `error` event: the stream ends here, the response unfinished (`code`: why, e.g. "server_shutting_down").
    boost::json::object error(std::string_view code, std::string_view message);

    std::size_t next_sequence() const noexcept { return sequence_; }

private:
    boost::json::object numbered(boost::json::object event);
    void open_message(std::vector<boost::json::object>& out);

    boost::json::object base_;
    bool queued_;
    std::size_t sequence_ = 0;
    bool message_open_ = false;
    std::string text_;
};

/// The message item id of a task's answer.
std::string message_item_id(const agent_task& task);

} // namespace forma::serving::detail
