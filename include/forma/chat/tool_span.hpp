#pragma once

#include <forma/telemetry/span_data.hpp>
#include <forma/telemetry/trace_parent.hpp>

#include <boost/json/value.hpp>

#include <memory>
#include <string_view>

namespace forma::telemetry {

/// What is known about a tool call when it starts.
struct tool_call_info {
    std::string_view tool_name{};
    std::string_view call_id{};
    std::string_view tool_description{};
    /// The call's arguments as JSON text; recorded only with sensitive data on.
    std::string_view arguments{};
};

/** One tool call recorded as an OpenTelemetry span with the GenAI conventions'
    attributes: named `execute_tool {tool name}`, kind INTERNAL, with
    `gen_ai.operation.name` execute_tool, `gen_ai.tool.name`, `gen_ai.tool.call.id`,
    `gen_ai.tool.type` function and `gen_ai.tool.description`; the arguments and
    the result (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`) only with
    sensitive data on; `error.type` and status ERROR when the call fails.

    Like operation_span, it never throws into the call it records, and a span
    destroyed before it ended ends as it is.
*/
class tool_span {
public:
    /// Nothing is recorded when `parent.exporter` is null.
    tool_span(trace_parent parent, const tool_call_info& info) noexcept;
    ~tool_span();

    tool_span(tool_span&& other) noexcept;
    tool_span& operator=(tool_span&&) = delete;

    bool recording() const noexcept { return state_ != nullptr; }
    /// What work done by the tool (an agent run, a chat call) gets as its parent.
    trace_parent child() const;

    /// Ends with the tool's result.
    void end(const boost::json::value& result) noexcept;
    /// Ends as failed: `error_type` is a short code ("timeout", "invalid_arguments") or an exception's type.
    void fail(std::string_view error_type, std::string_view message) noexcept;

private:
    struct state;
    std::unique_ptr<state> state_;
};

} // namespace forma::telemetry
