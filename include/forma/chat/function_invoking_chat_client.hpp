#pragma once

#include <forma/chat/chat_client.hpp>
#include <forma/chat/delegating_chat_client.hpp>
#include <forma/chat/tool_error.hpp>

#include <cstddef>

namespace forma {

/// The limits and manners of the tool loop (function_invoking_chat_client).
struct function_invocation_options {
    /** Rounds of tool calls per request. Once the model has called tools this many
        times, one last request goes with tool_choice none so that it must answer;
        if it calls tools even then, the run ends with a tool_error.
    */
    std::size_t max_tool_iterations = 10;
    /** Failed calls in a row (bad arguments, unknown tool, an exception, a timeout;
        counted in call order, reset by a call that succeeds) that the model may
        make; one more ends the run with a tool_error.
    */
    std::size_t max_consecutive_tool_errors = 3;
    /** Tell the model what a failing tool's exception said. Off by default: an
        exception may carry what the model should not see, so it reads only that
        the tool failed. Bad arguments and unknown tools are always explained.
    */
    bool include_tool_error_details = false;

    friend bool operator==(const function_invocation_options&, const function_invocation_options&) = default;
};

/** A chat_client decorator that runs the tools the model calls (the tool loop),
    so that its caller sees only the final answer and what led to it.

    Each request goes to the inner client with `chat_options::tools`. When the
    model answers with calls, each call's arguments are read by its tool (bad
    ones go back to the model as that call's result, naming the JSON Pointer and
    what was expected); the calls of one turn run concurrently on the executor;
    the assistant message with the calls and one tool message per result (in
    call order, each with its call's id as message id) join the conversation,
    and the model is asked again, until it answers without calls. An unknown
    tool or a tool that throws or times out is an error result for the model.
    A tool_choice of `required` or a named function applies to the first
    request only: later ones use `automatic`, or the model could never stop.

    The response holds every assistant message with its function_call_contents
    and every tool message with function_result_contents (secondary output),
    then the final answer; its usage is the sum over every model call; its id,
    finish reason and raw representation are the last call's. A stream yields
    the model's updates as they come, each turn's calls in one update once their
    arguments are complete, each result in an update (role tool), then the next
    turn; merged with to_agent_response it equals get_response's answer.

    A turn that calls a tool with `stop_after_call` (a handoff tool) ends the loop once
    the turn's calls have run: the response ends with their results.

    Approval: when a call of the turn is to a tool whose options require
    approval, no call of the turn runs: each becomes a
    function_approval_request_content in the model's message, and the response
    ends there. A later request whose messages hold the caller's answers
    (function_approval_response_content) runs the approved calls, tells the model
    "rejected: <reason>" for the rejected ones (and for requests left unanswered),
    and goes on. The requests and answers stay in the conversation; what the
    inner client sees are ordinary calls and results.

    Cancelling a request (its coroutine's cancellation slot) cancels the model
    call or the running tools. Errors: the inner client's, tool_error past the
    limits, forma::error for two tools of one name.

    Given as a shared_ptr, the inner client is owned; given as a reference, it must outlive
    this one and its streams.
*/
class function_invoking_chat_client : public delegating_chat_client {
public:
    explicit function_invoking_chat_client(std::shared_ptr<chat_client> inner, function_invocation_options options = {});
    explicit function_invoking_chat_client(chat_client& inner, function_invocation_options options = {});

    const function_invocation_options& options() const noexcept { return options_; }

protected:
    boost::asio::awaitable<agent_response<>> get_response_core(chat_request request) override;
    update_stream get_streaming_response_core(chat_request request) override;

private:
    function_invocation_options options_;
};

} // namespace forma
