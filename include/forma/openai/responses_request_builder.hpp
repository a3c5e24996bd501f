#pragma once

#include <forma/chat/chat_options.hpp>
#include <forma/error.hpp>
#include <forma/model/chat_message.hpp>
#include <forma/openai/responses_client_options.hpp>

#include <boost/json/object.hpp>

#include <span>
#include <string_view>

namespace forma::openai {

/** Builds the JSON body of `POST /v1/responses` (the API's `CreateResponse`).

    - `model`: `options.model`, else `default_model`; `instructions` as they are.
    - `input`: the messages as items, contents in order. System, developer and user
      text as `message` items (a user's images as `input_image`, PDF data as
      `input_file`); an assistant's text and refusals as an assistant `message`, its
      function_call_contents as `function_call` items, its reasoning with an item id
      (additional_properties["id"], as the parser keeps it) as a `reasoning` item
      carrying the summary and the encrypted content; each function_result_content
      as a `function_call_output` whose `output` is the result as JSON text (a string
      as it is; a null result, a void tool's, as `null`) or, for a failed call,
      `Error: ` and what went wrong. Usage, error, approval and unknown contents are
      not sent.
    - With `settings.server_side_conversation`, when an assistant message with a
      message id (a response id) is in the history, `previous_response_id` is the
      last such id and only the messages after it are sent.
    - `text.format` from the response format (json_schema with name, schema, strict,
      description; in structured_output_mode::tool, the tool `final_result` and a
      tool_choice naming it instead), `tools` as function tools (`strict` as their schema allows),
      `tool_choice`, `parallel_tool_calls` (with tools only), `max_output_tokens`,
      `temperature`, `top_p`, `reasoning` {effort, summary}, `store`, `metadata`,
      `include` ["reasoning.encrypted_content"], `background` (allow_background_responses),
      `stream`; `additional_properties` last, replacing members of the same name.

    @throws error when the request cannot be expressed: no model, nothing to send,
    a continuation token (responses_client polls or resumes with it instead), stop
    sequences or a seed (the API has neither), background or server_side_conversation
    with `store: false`,
    content that has no place in an item (an image outside a user message, audio),
    an unknown role, two tools of one name, a tool_choice naming a tool not offered,
    an additional property named `input` or `stream`, text that is not UTF-8;
    schema_error (an error) when structured_output_mode::tool would send a schema
    that is not an object schema as the parameters of final_result.
*/
boost::json::object build_responses_request(std::span<const chat_message> messages, const chat_options& options,
                                            std::string_view default_model, bool stream,
                                            const responses_client_options& settings = {});

} // namespace forma::openai
