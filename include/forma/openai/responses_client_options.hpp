#pragma once

#include <boost/json/object.hpp>

#include <optional>
#include <string>

namespace forma::openai {

/** What a responses_client sends beyond chat_options (its client_options say how it
    reaches the server).
*/
struct responses_client_options {
    /// `store`: whether the server keeps responses (its default is to keep them).
    /// Background runs need it; false with allow_background_responses is an error.
    std::optional<bool> store{};
    /// `metadata`: up to 16 string pairs the server keeps with each response.
    boost::json::object metadata{};
    /// `reasoning.effort` of reasoning models ("minimal", "low", "medium", "high"); empty sends none.
    std::string reasoning_effort{};
    /// `reasoning.summary` ("auto", "concise", "detailed"): ask for readable reasoning.
    std::string reasoning_summary{};
    /// Ask for reasoning items' `encrypted_content`, which goes back to the model on the next
    /// turn: the way to keep reasoning across turns with `store: false`.
    bool include_encrypted_reasoning = false;
    /** Keep the conversation on the server: a request whose history holds an answer of
        this server (an assistant message whose message id is its response id, as the
        client's answers have) sends `previous_response_id` with the last such id, and
        only the messages after it. The whole conversation stays in the caller's history
        (an agent's session); use it only with a history this server answered.
    */
    bool server_side_conversation = false;
};

} // namespace forma::openai
