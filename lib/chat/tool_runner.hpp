#pragma once
// Runs the calls of one model turn: concurrently, each bounded by its tool's timeout,
// each recorded as an execute_tool span; results in call order; failures counted.

#include <forma/chat/function_invoking_chat_client.hpp>
#include <forma/chat/function_tool.hpp>
#include <forma/model/chat_message.hpp>
#include <forma/chat/run_context.hpp>
#include <forma/telemetry/trace_parent.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace forma::chat_detail {

class tool_runner {
public:
    tool_runner(boost::asio::any_io_executor executor, const std::vector<function_tool>& tools,
                const function_invocation_options& options, const run_context& context);

    /// The tool named `name`, or null.
    const function_tool* find(std::string_view name) const noexcept;

    /// Whether any of the calls is to a tool that requires approval.
    bool needs_approval(const std::vector<function_call_content>& calls) const noexcept;

    /// Whether any of the calls is to a tool whose calls end the loop (stop_after_call).
    bool stops_loop(const std::vector<function_call_content>& calls) const noexcept;

    /** Runs the calls and returns their results in call order. A call without an
        id, or two calls with one id, end the run with a tool_error before any runs;
        so does a failure that makes too many in a row. Cancellation propagates.
    */
    boost::asio::awaitable<std::vector<function_result_content>> run(const std::vector<function_call_content>& calls);

private:
    struct outcome {
        function_result_content result;
        bool failed = false;
    };

    boost::asio::awaitable<outcome> invoke(const function_call_content& call, std::span<const function_call_content> turn);
    outcome failure(const function_call_content& call, std::string message) const;
    void count(const std::vector<outcome>& outcomes, const std::vector<function_call_content>& calls);

    boost::asio::any_io_executor executor_;
    const std::vector<function_tool>& tools_;
    const function_invocation_options& options_;
    telemetry::trace_parent parent_;
    std::size_t consecutive_failures_ = 0;
};

/// One tool message per result, in order, each with its call's id as the message id (which
/// keeps them apart when a stream of them is merged).
std::vector<chat_message> result_messages(std::vector<function_result_content> results);

/// "rejected: <reason>" (or "rejected" without one): what the model reads for a call the caller refused.
function_result_content rejected_result(const function_call_content& call, std::string_view reason);

} // namespace forma::chat_detail
