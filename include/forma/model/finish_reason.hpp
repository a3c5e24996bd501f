#pragma once

#include <forma/model/detail/case_insensitive_name.hpp>

#include <string>
#include <string_view>

namespace forma {

/** Why the model stopped: `stop()`, `length()` (the output token limit cut it),
    `tool_calls()`, `content_filter()`, or any value a provider defines.

    Compared case-insensitively (ASCII), like chat_role, so "STOP" from one
    provider equals `stop()`; JSON holds the spelling given.
*/
class finish_reason : public model_detail::case_insensitive_name<finish_reason> {
public:
    static constexpr std::string_view kind = "finish_reason";
    static constexpr std::string_view described_as = "finish reason";

    /// @throws error if `value` is empty: "no reason" is a null std::optional instead.
    explicit finish_reason(std::string value) : case_insensitive_name(std::move(value)) {}

    /// The model ended its answer normally.
    static finish_reason stop() { return finish_reason(std::string("stop")); }
    /// The output token limit cut the answer: it is incomplete.
    static finish_reason length() { return finish_reason(std::string("length")); }
    /// The model asks for tool calls to be run.
    static finish_reason tool_calls() { return finish_reason(std::string("tool_calls")); }
    /// A provider's content filter removed or withheld output.
    static finish_reason content_filter() { return finish_reason(std::string("content_filter")); }
};

} // namespace forma
