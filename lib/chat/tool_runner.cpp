#include "tool_runner.hpp"

#include "../json/invalid_utf8.hpp"

#include <forma/chat/operation_span.hpp>
#include <forma/chat/tool_span.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

namespace forma::chat_detail {

namespace asio = boost::asio;
using json_detail::valid_utf8;

namespace {

std::string duration_text(std::chrono::milliseconds ms) { return std::to_string(ms.count()) + " ms"; }

std::string tool_names(const std::vector<function_tool>& tools) {
    std::string names;
    for (const function_tool& tool : tools) {
        if (!names.empty()) names += ", ";
        names += tool.name();
    }
    return names.empty() ? "none" : names;
}

} // namespace

std::vector<chat_message> result_messages(std::vector<function_result_content> results) {
    std::vector<chat_message> messages;
    messages.reserve(results.size());
    for (function_result_content& result : results) {
        std::string id = result.call_id;
        chat_message& m = messages.emplace_back(chat_role::tool(), std::vector<content>{std::move(result)});
        m.message_id = std::move(id);
    }
    return messages;
}

function_result_content rejected_result(const function_call_content& call, std::string_view reason) {
    std::string text = "rejected";
    if (!reason.empty()) text.append(": ").append(valid_utf8(reason));
    return function_result_content(call.call_id, boost::json::string(text));
}

tool_runner::tool_runner(asio::any_io_executor executor, const std::vector<function_tool>& tools,
                         const function_invocation_options& options,
                         const run_context& context)
    : executor_(std::move(executor)), tools_(tools), options_(options),
      parent_(context.trace.value_or(telemetry::trace_parent{})) {
    for (std::size_t i = 0; i < tools_.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (tools_[i].name() == tools_[j].name())
                throw error("chat_options::tools has two tools named \"" + tools_[i].name() + "\"");
}

const function_tool* tool_runner::find(std::string_view name) const noexcept {
    for (const function_tool& tool : tools_)
        if (tool.name() == name) return &tool;
    return nullptr;
}

bool tool_runner::needs_approval(const std::vector<function_call_content>& calls) const noexcept {
    return std::any_of(calls.begin(), calls.end(), [&](const function_call_content& call) {
        const function_tool* tool = find(call.name);
        return tool && tool->options().requires_approval;
    });
}

bool tool_runner::stops_loop(const std::vector<function_call_content>& calls) const noexcept {
    return std::any_of(calls.begin(), calls.end(), [&](const function_call_content& call) {
        const function_tool* tool = find(call.name);
        return tool && tool->options().stop_after_call;
    });
}

tool_runner::outcome tool_runner::failure(const function_call_content& call, std::string message) const {
    return {function_result_content(call.call_id, nullptr, valid_utf8(message)), true};
}

asio::awaitable<tool_runner::outcome> tool_runner::invoke(const function_call_content& call, std::span<const function_call_content> turn) {
    const function_tool* found = find(call.name);
    const std::string arguments = tool_arguments_text(call);
    telemetry::tool_span span(parent_, {.tool_name = call.name,
                                        .call_id = call.call_id,
                                        .tool_description = found ? std::string_view(found->description()) : "",
                                        .arguments = arguments});
    if (!found) {
        const std::string message = "unknown tool \"" + call.name + "\"; the tools are: " + tool_names(tools_);
        span.fail("unknown_tool", valid_utf8(message));
        co_return failure(call, message);
    }
    const function_tool tool = *found; // keeps the tool alive while it runs
    run_context context; // the tool's work nests under its call's span
    if (span.recording()) context.trace = span.child();
    const tool_invocation invocation{.call = call, .arguments = arguments, .context = std::move(context), .turn_calls = turn};
    boost::json::value result;
    bool timed_out = false;
    std::exception_ptr thrown;
    try {
        if (const auto& limit = tool.options().timeout) {
            // The first to finish wins and the other is cancelled; a tool that fails
            // fails at once (awaitable_operators' || would wait for the timer instead).
            asio::steady_timer timer(executor_, *limit);
            auto [order, failed, value, expired] =
                co_await asio::experimental::make_parallel_group(
                    asio::co_spawn(executor_, tool.invoke(invocation), asio::deferred), timer.async_wait(asio::deferred))
                    .async_wait(asio::experimental::wait_for_one(), asio::use_awaitable);
            (void)expired;
            if (order[0] == 0) {
                if (failed) std::rethrow_exception(failed);
                result = std::move(value);
            } else {
                timed_out = true;
            }
        } else {
            result = co_await tool.invoke(invocation);
        }
    } catch (...) {
        thrown = std::current_exception();
    }
    // A cancelled run is not the tool's failure: the cancellation goes on up.
    if ((thrown || timed_out) &&
        (co_await asio::this_coro::cancellation_state).cancelled() != asio::cancellation_type::none) {
        span.fail("cancelled", "the run was cancelled while the tool ran");
        throw boost::system::system_error(asio::error::operation_aborted);
    }
    if (thrown) {
        std::string message;
        std::string type;
        try {
            std::rethrow_exception(thrown);
        } catch (const tool_arguments_error& e) {
            message = std::string("invalid arguments: ") + e.what();
            type = "invalid_arguments";
        } catch (const std::exception& e) {
            message = options_.include_tool_error_details ? std::string("the tool failed: ") + e.what()
                                                          : std::string("the tool failed");
            type = telemetry::error_type(thrown);
        } catch (...) {
            message = "the tool failed";
            type = "_OTHER";
        }
        span.fail(type, valid_utf8(message));
        co_return failure(call, std::move(message));
    }
    if (timed_out) {
        const std::string message = "the tool did not finish within " + duration_text(*tool.options().timeout) +
                                    " and was cancelled";
        span.fail("timeout", message);
        co_return failure(call, message);
    }
    if (const auto bad = json_detail::find_invalid_utf8(result)) {
        const std::string message = "the tool's result holds text that is not valid UTF-8 (at \"" + bad->path + "\")";
        span.fail("invalid_result", message);
        co_return failure(call, message);
    }
    span.end(result);
    co_return outcome{function_result_content(call.call_id, std::move(result)), false};
}

void tool_runner::count(const std::vector<outcome>& outcomes, const std::vector<function_call_content>& calls) {
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        if (!outcomes[i].failed) {
            consecutive_failures_ = 0;
            continue;
        }
        if (++consecutive_failures_ <= options_.max_consecutive_tool_errors) continue;
        throw tool_error(std::to_string(consecutive_failures_) + " tool calls failed in a row, more than "
                             "function_invocation_options::max_consecutive_tool_errors (" +
                             std::to_string(options_.max_consecutive_tool_errors) + "); the last, of \"" +
                             valid_utf8(calls[i].name) + "\" (call " + valid_utf8(calls[i].call_id) +
                             "): " + outcomes[i].result.error.value_or(""),
                         calls[i].name, calls[i].call_id);
    }
}

asio::awaitable<std::vector<function_result_content>> tool_runner::run(const std::vector<function_call_content>& calls) {
    for (std::size_t i = 0; i < calls.size(); ++i) {
        if (calls[i].call_id.empty())
            throw tool_error("the model called \"" + valid_utf8(calls[i].name) +
                                 "\" without a call id, so no result could answer it",
                             calls[i].name);
        for (std::size_t j = 0; j < i; ++j)
            if (calls[j].call_id == calls[i].call_id)
                throw tool_error("the model made two calls with the id \"" + valid_utf8(calls[i].call_id) +
                                     "\" in one turn, so their results could not be told apart",
                                 calls[i].name, calls[i].call_id);
    }
    std::vector<outcome> outcomes;
    outcomes.reserve(calls.size());
    if (calls.size() == 1) {
        outcomes.push_back(co_await invoke(calls.front(), calls));
    } else if (!calls.empty()) {
        using operation = decltype(asio::co_spawn(executor_, invoke(calls.front(), calls), asio::deferred));
        std::vector<operation> operations;
        operations.reserve(calls.size());
        for (const function_call_content& call : calls)
            operations.push_back(asio::co_spawn(executor_, invoke(call, calls), asio::deferred));
        auto [order, errors, results] = co_await asio::experimental::make_parallel_group(std::move(operations))
                                            .async_wait(asio::experimental::wait_for_all(), asio::use_awaitable);
        for (const std::exception_ptr& e : errors)
            if (e) std::rethrow_exception(e); // only cancellation escapes invoke
        outcomes = std::move(results);
    }
    count(outcomes, calls);
    std::vector<function_result_content> out;
    out.reserve(outcomes.size());
    for (outcome& o : outcomes) out.push_back(std::move(o.result));
    co_return out;
}

} // namespace forma::chat_detail
