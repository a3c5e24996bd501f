#pragma once

#include <forma/chat/run_context.hpp>
#include <forma/model/content.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace forma {

/// How the tool loop treats one tool (the last argument of make_tool).
struct function_tool_options {
    /** Calls of this tool wait for the caller's approval: a turn in which the model
        calls it runs none of its calls and ends the run with approval requests
        (see agent_response::approval_requests).
    */
    bool requires_approval = false;
    /** A call still running after this long is cancelled, and the model is told it
        timed out (a failed call). Unset: no limit. The tool must react to
        cancellation, as every Asio operation it awaits does.
    */
    std::optional<std::chrono::milliseconds> timeout{};
    /** A call of this tool ends the tool loop: the turn's calls run, and the response ends
        with their results instead of asking the model again. The caller reads the call and
        decides what comes next (a handoff tool moves the conversation to another agent so).
    */
    bool stop_after_call = false;
    /** The JSON Schema of the tool's result, when it is an object: make_tool sets it for a
        result that is a described struct. A server of tools shows it (MCP's outputSchema and
        structuredContent); the tool loop does not use it.
    */
    std::optional<boost::json::object> result_schema{};

    friend bool operator==(const function_tool_options&, const function_tool_options&) = default;
};

/// What a tool's invoker is given for one call; valid until the invoker's awaitable completes.
struct tool_invocation {
    /// The call as the model made it.
    const function_call_content& call;
    /// The call's arguments as JSON text, as the model sent them (possibly not JSON at all).
    std::string_view arguments;
    /** The run this call belongs to, with the call's `execute_tool` span as its trace (unset
        when telemetry is off): tools that run agents or chat clients pass it on (as
        agent_run_options::context or to get_response) and their spans nest under the call's,
        as as_tool does.
    */
    run_context context{};
    /** Tells whoever asked for the call how far it is (value out of total, when known, and a
        sentence): set by an MCP server whose client asked for progress; null otherwise.
    */
    std::function<void(double value, std::optional<double> total, std::string message)> report_progress{};
    /** Every call the model made in the same turn, this one among them, in the model's order
        (empty where the call came alone, from an MCP client): tools whose calls exclude each
        other (handoffs) tell by it which came first.
    */
    std::span<const function_call_content> turn_calls{};
};

/** A function the model may call: a name, a description, the JSON Schema of its
    arguments, and the code that runs it. Usually made with make_tool (from a
    described struct, or a schema known at run time) or as_tool (an agent).

    A function_tool is a cheap, immutable handle: copies share one definition, and
    two tools are equal when they share it.

    The invoker reads the arguments and returns the result as JSON. It reports
    arguments it cannot read by throwing tool_arguments_error (the model is told
    where and what is wrong); any other exception is a failed call.
*/
class function_tool {
public:
    using invoker_type = std::function<boost::asio::awaitable<boost::json::value>(const tool_invocation&)>;

    /** @throws error when `name` is not 1 to 64 letters, digits, `_` or `-` (what
        OpenAI-compatible APIs accept) or `invoker` is empty; schema_error when
        `parameters` is not an object schema (`"type": "object"`, which those APIs
        require of a tool's parameters).
    */
    function_tool(std::string name, std::string description, boost::json::object parameters,
                  invoker_type invoker, function_tool_options options = {});

    const std::string& name() const noexcept;
    const std::string& description() const noexcept;
    /// The JSON Schema of the arguments object.
    const boost::json::object& parameters() const noexcept;
    /// Whether parameters() obeys OpenAI's strict rules, so that requests may say `strict: true`.
    bool strict() const noexcept;
    const function_tool_options& options() const noexcept;

    /// Runs one call. Hold a copy of the tool until the awaitable completes.
    boost::asio::awaitable<boost::json::value> invoke(const tool_invocation& invocation) const;
    /** invoke() on `executor` for any completion token; the handler gets
        (std::exception_ptr, boost::json::value). The operation holds a copy of the tool;
        `invocation` must stay valid until the handler runs.
    */
    template <class Executor, class CompletionToken = boost::asio::default_completion_token_t<Executor>>
    auto async_invoke(const Executor& executor, const tool_invocation& invocation, CompletionToken&& token = {}) const {
        return boost::asio::co_spawn(
            executor,
            [](function_tool self, const tool_invocation& call) -> boost::asio::awaitable<boost::json::value> {
                co_return co_await self.invoke(call);
            }(*this, invocation),
            std::forward<CompletionToken>(token));
    }

    friend bool operator==(const function_tool& a, const function_tool& b) noexcept {
        return a.definition_ == b.definition_;
    }

private:
    struct definition;
    std::shared_ptr<const definition> definition_;
};

/** The arguments of `call` as JSON text: the text the provider sent, kept in the
    call's raw representation (`function.arguments` of a Chat Completions tool call,
    `arguments` of a Responses API function call), else `call.arguments` written out.
*/
std::string tool_arguments_text(const function_call_content& call);

} // namespace forma
