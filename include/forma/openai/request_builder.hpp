#pragma once

#include <forma/chat/chat_options.hpp>
#include <forma/error.hpp>
#include <forma/model/chat_message.hpp>

#include <boost/json/object.hpp>

#include <span>
#include <string>
#include <string_view>

namespace forma::openai {

/** Builds the JSON body of `POST /v1/chat/completions` (the API's
    `CreateChatCompletionRequest`).

    - `model`: `options.model`, else `default_model`.
    - `messages`: `options.instructions` first as a system message, then each
      message by its role (system, developer, user, assistant, tool). Text is
      sent as a string. A user message with images, audio or files is sent as
      content parts: a uri_content or data_content with an `image/` media type
      as `image_url` (data as a `data:` URL), `audio/wav` and `audio/mpeg` data
      as `input_audio`, `application/pdf` data as `file`. An assistant's
      refusal_content is its `refusal`, its function_call_contents its
      `tool_calls`; each function_result_content becomes a `tool` message
      answering its call id, its content the result as JSON text (a string
      as it is; a null result, a void tool's, as `null`) or, for a failed
      call, `Error: ` and what went wrong. Reasoning, usage, error, approval and unknown
      contents are not sent, nor a message that holds nothing else. An author name becomes `name` when it is one the API accepts
      (`^[A-Za-z0-9_-]{1,64}$`), else it is left out.
    - `temperature`, `top_p`, `seed`, `stop` as they are;
      `max_output_tokens` as `max_completion_tokens` (`max_tokens` is
      deprecated by the API; older servers that need it can be given it in
      `additional_properties`).
    - `response_format`: `{"type":"text"}`, `{"type":"json_object"}`, or
      `{"type":"json_schema","json_schema":{name, description?, schema, strict?}}`
      with the caller's schema unchanged. With `structured_output_mode::tool` a
      `json_schema` format is sent as the tool `final_result` instead (its schema
      as the parameters) with a tool_choice that makes the model call it (see
      forma::structured_output_mode); a request tool of that name is an error.
    - `tools` (when there are any): each as `{"type":"function","function":
      {name, description?, parameters, "strict": true when the parameters keep
      OpenAI's strict rules}}`, then `tool_choice` ("auto", "none", "required"
      or `{"type":"function","function":{"name"}}`) and `parallel_tool_calls`
      when set. Without tools neither is sent: the API refuses them.
    - with `stream`: `"stream": true` and `"stream_options": {"include_usage": true}`.
    - `additional_properties` last, replacing members of the same name, except
      `messages` and `stream`, which belong to the client.

    @throws error when the request cannot be expressed: no model, nothing to
    send, content that has no place in an OpenAI message (an image in a system
    message, a URI that is not an image, a tool message without a
    function_result_content), an unknown role, more than 4 stop sequences, a
    continuation token (Chat Completions cannot resume a response), two tools
    of one name, a tool_choice naming a tool not offered, an additional property
    named `messages` or `stream`, or one named `tools` beside chat_options::tools;
    schema_error (an error) when structured_output_mode::tool would send a schema
    that is not an object schema as the parameters of final_result.
*/
boost::json::object build_request(std::span<const chat_message> messages, const chat_options& options,
                                  std::string_view default_model, bool stream);

} // namespace forma::openai
