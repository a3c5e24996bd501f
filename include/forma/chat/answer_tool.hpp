#pragma once
// structured_output_mode::tool for a provider's client: a JSON Schema response format asked for
// as a forced call of the tool final_result, and that call read back as the answer's text.

#include <forma/chat/chat_options.hpp>
#include <forma/model/agent_response.hpp>

#include <optional>
#include <string_view>

namespace forma {

/// final_result_tool_name when `options` ask for a JSON Schema format in tool mode, else empty.
std::string_view answer_tool_name(const chat_options& options) noexcept;

/** `options` as a tool-mode request sends them: no response format, the tool final_result
    with the format's schema as its parameters, and a tool_choice that makes the model call
    it ("required"; a choice of another named tool stays), and, with the answer tool alone,
    `parallel_tool_calls` false unless the caller set it.
    @throws error when a tool of the request is already named final_result.
*/
chat_options with_answer_tool(const chat_options& options);

/// What a request sends for `requested`: with_answer_tool's copy (kept in `storage`) in tool
/// mode, else `requested` itself.
const chat_options& options_as_sent(const chat_options& requested, std::optional<chat_options>& storage);

/** The calls of `tool` in `response` become text contents holding their arguments as sent,
    in their place; a `tool_calls` finish reason with no call left becomes `stop`. An empty
    `tool` leaves the response as it is.
*/
agent_response<> answer_from_call(agent_response<> response, std::string_view tool);

} // namespace forma
