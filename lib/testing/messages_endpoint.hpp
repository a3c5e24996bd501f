#pragma once
// The local model server's Anthropic Messages API (`POST /v1/messages`,
// `POST /v1/messages/count_tokens`): the request read into the answer decision every API
// shares, the answer written as a Message or as its event stream, errors in Anthropic's shape.

#include "answer_decision.hpp"

#include <forma/testing/model_server.hpp>

#include <string_view>

namespace forma::testing::detail {

/// Whether `target` is one of the Messages API's paths.
bool serves_messages(std::string_view target) noexcept;

/** The generated reply (see model_server): 405 for another method than POST; 400
    (invalid_request_error) for a body that is not a JSON object with a `messages` array and a
    positive `max_tokens`, or a schema make_instance cannot satisfy; for count_tokens, the
    prompt's words as `input_tokens`; else the answer, cut at `max_tokens` words (stop reason
    max_tokens), streamed when the body says `"stream": true`.
*/
scripted_reply generate_message(std::string_view method, std::string_view target, std::string_view body,
                                const generation& options);

} // namespace forma::testing::detail
