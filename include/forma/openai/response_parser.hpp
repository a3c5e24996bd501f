#pragma once

#include <forma/json/json_error.hpp>
#include <forma/model/agent_response.hpp>
#include <forma/net/http_error.hpp>

#include <string_view>

namespace forma::openai {

/** Maps the body of a Chat Completions response (`CreateChatCompletionResponse`)
    to an agent_response<>.

    The first choice becomes one assistant message: `content` as text_content,
    `refusal` as refusal_content (never as text), reasoning text that
    OpenAI-compatible servers send (`reasoning_content`, `reasoning`) as
    text_reasoning_content, `tool_calls` as function_call_content. The message id
    and the response id are the completion's `id`; `created` (Unix seconds) is
    the created time of both; `finish_reason` and `usage` (prompt, completion,
    total, cached and reasoning tokens; other detail counts by their OpenAI
    path in `additional_counts`) map to their members; `model` goes to
    `additional_properties["model"]`; the whole body is kept as
    `raw_representation`. Further choices (a request with `n` > 1) are only in
    the raw representation.

    @param status the HTTP status the body came with.
    @throws http_error if `status` is not 2xx, or the body is an error object
            (`{"error": {...}}`).
    @throws json_error if the body is not JSON or not of this shape; its path
            names the offending value, e.g. "/choices/0/message/content".
*/
agent_response<> parse_response(std::string_view body, int status = 200);

/** The http_error for a response with status `status`: from an OpenAI-style
    error object (`{"error": {"message", "type", "code"}}`, or `{"error": "text"}`),
    else from the body itself, cut to a few hundred bytes (a proxy's HTML page,
    plain text), else the status alone.
*/
http_error parse_error(int status, std::string_view body);

} // namespace forma::openai
