#pragma once

#include <forma/json/json_error.hpp>

#include <boost/json/conversion.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <string>

namespace forma {

/** Why the model stopped: `stop()`, `length()` (the output token limit cut it),
    `tool_calls()`, `content_filter()`, or any value a provider defines.

    Compared case-insensitively (ASCII), like chat_role, so "STOP" from one
    provider equals `stop()`; JSON holds the spelling given.
*/
class finish_reason {
public:
    /// @throws error if `value` is empty: "no reason" is a null std::optional instead.
    explicit finish_reason(std::string value);

    /// The model ended its answer normally.
    static finish_reason stop() { return finish_reason(std::string("stop")); }
    /// The output token limit cut the answer: it is incomplete.
    static finish_reason length() { return finish_reason(std::string("length")); }
    /// The model asks for tool calls to be run.
    static finish_reason tool_calls() { return finish_reason(std::string("tool_calls")); }
    /// A provider's content filter removed or withheld output.
    static finish_reason content_filter() { return finish_reason(std::string("content_filter")); }

    /// The reason as given, e.g. "stop".
    const std::string& value() const noexcept { return value_; }

    friend bool operator==(const finish_reason& a, const finish_reason& b) noexcept;

private:
    std::string value_;
};

/// Writes the reason as its string.
void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const finish_reason& reason);
/// @throws json_error unless `json` is a non-empty string.
finish_reason tag_invoke(boost::json::value_to_tag<finish_reason>, const boost::json::value& json);

} // namespace forma
