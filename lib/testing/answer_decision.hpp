#pragma once

// What the local model server answers, whichever API asks: the decision the Chat Completions
// and the Responses generators share (the text, a schema instance or tool calls), and the
// helpers both shapes use. Each API reads its own body into an answer_request.

#include <forma/testing/model_server.hpp>

#include <boost/json/object.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace forma::testing::detail {

/// How the server generates an answer for one request: the server's options, with `seed`
/// already `seed + request index`.
struct generation : model_server_options {
    /// Numbers the reply's ids ("chatcmpl-local-<n>", "resp_<n>") and its calls' ("call_<n>_<i>").
    std::uint64_t request_number = 0;
};

/// Seconds since the Unix epoch, now.
std::int64_t unix_now() noexcept;

/// Runs of non-space characters in `text`: the server's "tokens".
std::size_t count_words(std::string_view text) noexcept;

/// The first `words` words of `text` (and what lies between them), without what follows.
std::string_view first_words(std::string_view text, std::size_t words) noexcept;

/** `text` in pieces of at most `size` bytes that never cut a UTF-8 sequence (a longer
    sequence is a piece of its own).
*/
std::vector<std::string_view> pieces(std::string_view text, std::size_t size);

/** The text of a message's content: a string, or the parts of an array whose `type` is one of
    `text_types`, space-joined (so that words of adjacent parts stay apart).
*/
std::string content_text(const boost::json::value* content, std::initializer_list<std::string_view> text_types);

/// A 400 with an OpenAI-style error body of type invalid_request_error.
scripted_reply bad_request(std::string_view message);

/// A request's body as a JSON object, or the 400 that says why it is not one.
std::variant<boost::json::object, scripted_reply> request_object(std::string_view body);

/// A function tool a request offers.
struct offered_tool {
    std::string name;
    const boost::json::object* parameters = nullptr; // null: the tool takes no arguments
};

enum class answer_format { text, json_object, json_schema };

/// What a request asks of the generator, read from either API's body.
struct answer_request {
    /// The user messages' text, space-joined: make_instance's words and the input tokens.
    std::string prompt;
    std::string last_user;
    /// User messages that are forma's corrections (validation retries): not in the prompt.
    std::size_t corrections = 0;
    /// The conversation ends with a tool's result: the model answers then, it calls nothing.
    bool ends_with_tool_result = false;
    std::vector<offered_tool> tools;
    /// tool_choice "none".
    bool tools_forbidden = false;
    /// The function tool_choice names.
    std::optional<std::string> named_tool{};
    bool parallel_tool_calls = true;
    answer_format format = answer_format::text;
    /// The json_schema format's schema; null when the request has none that is an object.
    const boost::json::object* schema = nullptr;
    /// Where the schema belongs in the body, for the error when it is missing.
    std::string_view schema_field = "response_format.json_schema.schema";
};

/// Adds a user message's text to the prompt, or counts it when it is one of forma's corrections.
void add_user_text(answer_request& request, std::string text);

/// The generated turn: tool calls, or else the text; `error` (a 400's message) when neither can be made.
struct decided_answer {
    std::vector<scripted_tool_call> calls;
    std::string text;
    std::string error;
};

/** Decides the answer as model_server documents it: the tools' calls (the named one, else the
    first `tool_calls_per_turn` offered, one without parallel calls; arguments from each
    tool's parameters, with `tool_fault`) unless no tool is offered, they are forbidden or the
    conversation ends with a tool's result; else a call of the answer tool final_result when
    offered (its arguments made as a json_schema answer, with `answer_fault`); else a schema
    instance for json_schema,
    `{"answer": <last user text>}` for json_object, or "You said: <last user text>".
*/
decided_answer decide_answer(const answer_request& request, const generation& options);

} // namespace forma::testing::detail
