#pragma once

#include <forma/anthropic/client_options.hpp>
#include <forma/chat/chat_options.hpp>
#include <forma/model/chat_message.hpp>

#include <boost/json/object.hpp>

#include <span>

namespace forma::anthropic {

/** The body of a Messages API request (`POST /v1/messages`) for `messages` under `options`,
    with `settings`' model, output token limit, thinking and prompt-cache breakpoints where the
    options set none.

    - System messages and chat_options::instructions (first) become `system` text blocks, in
      order; the others become user and assistant turns, consecutive ones of a role joined into
      one (tool results go back in a user turn, before its text, as the API requires).
    - Contents: text; images as data (base64) or URI; PDFs as data (a `document` block); a
      function call as `tool_use`; a function result as `tool_result` (`is_error` with the
      error's text when it failed); reasoning with protected data as `thinking` with its
      signature (`redacted_thinking` when it came redacted), as the API requires it back;
      reasoning without a signature (another provider's) is not sent; a validation retry's
      errors as text.
    - Options: tools (`input_schema`), tool_choice (auto, any, tool, none), parallel_tool_calls
      false as `disable_parallel_tool_use`, temperature, top_p, stop_sequences; a JSON Schema
      format as `output_config.format` (native mode) or a forced call of final_result (tool
      mode); a JSON object format as the schema {"type": "object"}; additional_properties as
      top-level members.

    @throws error for what the API cannot take: no model, a continuation token, contents of a
            kind or media type it has no block for, two tools of one name, a tool choice of a
            tool not offered, an additional property that sets a member the builder writes, or
            text that is not UTF-8.
*/
boost::json::object build_request(std::span<const chat_message> messages, const chat_options& options,
                                  const client_options& settings, bool stream);

/// The body of `POST /v1/messages/count_tokens` for the same request: no output token limit,
/// stream, sampling, stop sequences or additional properties (the endpoint takes none of
/// `metadata` and the like). @throws as build_request.
boost::json::object build_count_tokens_request(std::span<const chat_message> messages, const chat_options& options,
                                               const client_options& settings);

} // namespace forma::anthropic
