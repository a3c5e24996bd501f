#pragma once
// The tools the MCP server tests serve (in process over HTTP, and by test_tool_server over stdio):
//   add {a, b}      -> {"sum": a + b}: a described result, so outputSchema and structuredContent
//   echo {text}     -> text
//   fail {}         -> throws: a failed call (isError)
//   slow {steps}    -> reports progress each step (20 ms apart), 20 ms more, then "done after <steps> steps"
//   forever {}      -> runs until canceled; `forever_calls` counts its calls, `canceled_calls` the cancellations it saw

#include <forma/chat/make_tool.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/describe/class.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace forma_test::mcp_tools {

struct add_arguments {
    int a;
    int b;
};
BOOST_DESCRIBE_STRUCT(add_arguments, (), (a, b))

struct sum {
    int sum;
};
BOOST_DESCRIBE_STRUCT(sum, (), (sum))

struct echo_arguments {
    std::string text;
};
BOOST_DESCRIBE_STRUCT(echo_arguments, (), (text))

struct no_arguments {};
BOOST_DESCRIBE_STRUCT(no_arguments, (), ())

inline int canceled_calls = 0;
inline int forever_calls = 0;

inline std::vector<forma::function_tool> all() {
    namespace asio = boost::asio;
    std::vector<forma::function_tool> tools;
    tools.push_back(forma::make_tool("add", "Adds two integers", [](const add_arguments& x) { return sum{x.a + x.b}; }));
    tools.push_back(forma::make_tool("echo", "Says the text back", [](const echo_arguments& x) { return x.text; }));
    tools.push_back(forma::make_tool("fail", "Always fails", [](const no_arguments&) -> std::string {
        throw std::runtime_error("failed on purpose");
    }));
    boost::json::object steps_schema{{"type", "object"},
                                     {"properties", {{"steps", {{"type", "integer"}}}}},
                                     {"required", {"steps"}},
                                     {"additionalProperties", false}};
    tools.emplace_back("slow", "Reports progress at each step", steps_schema,
                       [](const forma::tool_invocation& call) -> asio::awaitable<boost::json::value> {
                           const auto* steps_value = call.call.arguments.if_contains("steps");
                           const int steps = steps_value && steps_value->is_int64() ? static_cast<int>(steps_value->as_int64()) : 3;
                           asio::steady_timer pause(co_await asio::this_coro::executor);
                           for (int i = 1; i <= steps; ++i) {
                               pause.expires_after(std::chrono::milliseconds(20));
                               co_await pause.async_wait(asio::use_awaitable);
                               if (call.report_progress) call.report_progress(i, steps, "step " + std::to_string(i));
                           }
                           // Some work after the last report: the TypeScript SDK dispatches a progress
                           // notification a tick later than a response read with it, and would drop it.
                           pause.expires_after(std::chrono::milliseconds(20));
                           co_await pause.async_wait(asio::use_awaitable);
                           co_return boost::json::value("done after " + std::to_string(steps) + " steps");
                       });
    tools.push_back(forma::make_tool("forever", "Runs until canceled", [](const no_arguments&) -> asio::awaitable<std::string> {
        asio::steady_timer never(co_await asio::this_coro::executor, asio::steady_timer::time_point::max());
        ++forever_calls;
        try {
            co_await never.async_wait(asio::use_awaitable);
        } catch (const boost::system::system_error&) {
            ++canceled_calls;
            throw;
        }
        co_return "never";
    }));
    return tools;
}

} // namespace forma_test::mcp_tools
