#pragma once

#include <forma/chat/function_tool.hpp>
#include <forma/chat/structured_output_mode.hpp>
#include <forma/chat/tool_choice.hpp>
#include <forma/model/continuation_token.hpp>
#include <forma/model/response_format.hpp>

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace forma {

/** What a chat client is asked to do beyond the messages: model, sampling, the
    response format and the tools. Unset members leave the provider's default.
*/
struct chat_options {
    std::string model{};
    /// System instructions, sent before the messages.
    std::string instructions{};
    std::optional<double> temperature{};
    std::optional<double> top_p{};
    std::optional<std::int64_t> max_output_tokens{};
    std::vector<std::string> stop_sequences{};
    std::optional<std::int64_t> seed{};
    std::optional<forma::response_format> response_format{};
    /** How a JSON Schema response format is asked for; unset: the chat client's default
        (an option of the provider's client; native unless it says otherwise).
    */
    std::optional<forma::structured_output_mode> structured_output_mode{};
    /** Functions the model may call. A chat client sends their declarations; a
        function_invoking_chat_client (which chat_client_agent uses whenever tools
        are present) also runs the calls. Names are unique.
    */
    std::vector<function_tool> tools{};
    /// Whether and which tools the model must call; sent only with tools.
    std::optional<forma::tool_choice> tool_choice{};
    /// Whether the model may call several tools in one turn; sent only with tools.
    std::optional<bool> parallel_tool_calls{};
    /// Resumes or polls a background response.
    std::optional<forma::continuation_token> continuation_token{};
    /// Lets the provider answer with a continuation token instead of waiting.
    bool allow_background_responses = false;
    /// Provider-specific request members, passed through as they are.
    boost::json::object additional_properties{};

    friend bool operator==(const chat_options&, const chat_options&) = default;
};

/** `overrides` applied on top of `base`: every set member of `overrides` wins,
    instructions are joined base-first with a blank line, stop sequences, tools
    and additional properties are merged (overrides win on equal names: a tool
    of `overrides` replaces the one of `base` with its name, in its place).
*/
chat_options merge(const chat_options& base, const chat_options& overrides);

} // namespace forma
