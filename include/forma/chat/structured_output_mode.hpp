#pragma once

#include <string_view>

namespace forma {

/** How a JSON Schema response format (what run<T> asks for) reaches the server.

    `native` sends it as the request's response format (`response_format` of Chat
    Completions, `text.format` of the Responses API): the server constrains the
    answer to the schema.

    `tool`, for servers that support function calling but not JSON Schema formats,
    sends it as a function tool named final_result_tool_name ("final_result") whose
    parameters are the schema, and makes the model call it: `tool_choice` is
    "required" (not a named choice, which some servers do not take), with that tool
    alone or with the request's other tools (the model may call those first; the
    tool loop runs them, and the next turn asks again). The client reads
    that call's arguments as the answer: its response holds them as the text of the
    assistant message, where the call was, and streams them as text deltas, so that
    result(), run_streaming<T>'s partials, validation retries and the session's
    history work as in `native` mode. No tool loop ever runs final_result, and a
    request whose own tools include one of that name is an error. A tool's
    parameters must be an object schema: run<T> wraps any other root, and a
    format of your own whose schema is not one is a schema_error in this mode.

    Other response formats (text, JSON object) are sent natively in either mode.
    Chosen per client (an option of the provider's client, listed first in its
    provider_metadata::structured_output_modes), per agent (its chat options) or per run
    (agent_run_options::structured_output_mode).
*/
enum class structured_output_mode {
    native,
    tool,
};

/// The tool that carries the answer in structured_output_mode::tool.
inline constexpr std::string_view final_result_tool_name = "final_result";

} // namespace forma
