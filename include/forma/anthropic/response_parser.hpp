#pragma once

#include <forma/model/agent_response.hpp>
#include <forma/net/http_error.hpp>

#include <string_view>

namespace forma::anthropic {

/** Reads a whole Messages API response (`Message`) into an agent_response.

    One assistant message whose id is the response's: `text` blocks as text_content, `thinking`
    as text_reasoning_content with its signature as protected_data, `redacted_thinking` as
    text_reasoning_content with no text, its data as protected_data and
    `additional_properties["redacted"]` true, `tool_use` as function_call_content, any other
    block (a server tool's) as unknown_content. The stop reason maps to a finish reason:
    end_turn and stop_sequence to stop, max_tokens and model_context_window_exceeded to length,
    tool_use to tool_calls, refusal to content_filter with a refusal_content (the stop details'
    explanation when given), others as they are. Usage: input tokens are the uncached, cache
    written and cache read ones together, cached_input_token_count the read ones,
    `cache_creation_input_tokens` an additional count. `model` goes in
    `additional_properties["model"]`; the body's JSON is the raw representation.

    @throws json_error for a body that is not a Message.
*/
agent_response<> parse_message(std::string_view body);

/** The http_error of an error answer: Anthropic's `{"type": "error", "error": {"type",
    "message"}}`, or the OpenAI-style `{"error": {"type", "message", "code"}}` that
    llama-server sends; an excerpt of the body otherwise.
*/
http_error parse_error(int status, std::string_view body);

} // namespace forma::anthropic
