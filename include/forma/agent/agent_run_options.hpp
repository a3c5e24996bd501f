#pragma once

#include <forma/agent/heap_optional.hpp>
#include <forma/agent/output_validator.hpp>
#include <forma/chat/chat_options.hpp>
#include <forma/chat/run_context.hpp>
#include <forma/chat/structured_output_mode.hpp>
#include <forma/model/continuation_token.hpp>
#include <forma/model/response_format.hpp>

#include <boost/json/object.hpp>

#include <cstddef>
#include <optional>

namespace forma {

/// Options of one agent run. A plain value: copying it copies everything.
struct agent_run_options {
    /// The format of this run's answer; overrides the agent's. run<T> sets it from T.
    std::optional<forma::response_format> response_format{};
    /** How this run's JSON Schema format is asked for: as the server's response
        format (native) or as a forced call of the tool final_result (tool, for
        servers without JSON Schema formats). Unset: the agent's chat options say,
        else the client.
    */
    std::optional<forma::structured_output_mode> structured_output_mode{};
    /// Resumes or polls a background run.
    std::optional<forma::continuation_token> continuation_token{};
    /// Lets the agent answer with a continuation token instead of waiting.
    bool allow_background_responses = false;
    /** Chat options for agents that call a chat client; they override the agent's own
        (instructions are joined agent-first). Kept on the heap: unset, as most runs leave
        them, they add one pointer to each run's coroutine frame.
    */
    forma::heap_optional<forma::chat_options> chat_options{};
    /** How many times an answer that breaks its response format is sent back to the
        model with the errors found, for a corrected one; unset: the agent's default
        (chat_client_agent_options::max_output_retries, 1). 0 turns retries off.
    */
    std::optional<std::size_t> max_output_retries{};
    /** Checks the answer for a validation retry. run<T> sets T's; unset, a run with a
        JSON response format is checked against it (output_validator::for_format).
    */
    forma::output_validator output_validator{};
    /// Agent-specific options, by name.
    boost::json::object additional_properties{};
    /** The run this one belongs to: its trace. telemetry_agent sets it for the agents and
        chat clients below it, as_tool for the agent a tool call runs; a server may set it
        from a received W3C `traceparent`.
    */
    forma::run_context context{};

    /// An independent copy (the same as copying: the members are values).
    agent_run_options clone() const { return *this; }

    friend bool operator==(const agent_run_options&, const agent_run_options&) = default;
};

} // namespace forma
