#pragma once

#include <forma/chat/function_tool.hpp>
#include <forma/net/http_routes.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace forma::mcp {

struct server_options {
    /// serverInfo in the handshake.
    std::string name = "forma";
    std::string version = "1.0.0";
    /// Told to the client in the handshake; may be empty.
    std::string instructions{};
    /// tools/list answers this many tools per page (then a nextCursor).
    std::size_t page_size = 100;
    /// The Streamable HTTP endpoint's path.
    std::string path = "/mcp";
    /// Streamable HTTP sessions (Mcp-Session-Id) kept at once; one more initialize drops the idlest.
    std::size_t max_sessions = 10'000;
    /// A Streamable HTTP session unused for this long ends (a request naming it then gets 404);
    /// zero: sessions end only by DELETE or max_sessions.
    std::chrono::milliseconds session_idle_timeout{std::chrono::hours(1)};
};

/** Serves function_tools (and agents, through as_tool) over MCP: stdio (serve_stdio) and
    Streamable HTTP (routes(), mounted in a net::http_server).

        forma::mcp::server mcp(executor, {weather_tool, forma::as_tool(researcher)});
        co_await mcp.serve_stdio();                 // a process a client spawns
        // or: forma::net::http_server http(executor, mcp.routes());

    - initialize: the client's protocol version when forma speaks it (2025-06-18, 2025-03-26,
      2024-11-05), else the newest; capabilities: tools. ping answers {}.
    - tools/list: name, description, inputSchema (the tool's parameters), outputSchema for a tool
      whose result schema is known (function_tool_options::result_schema: make_tool sets it for
      a described struct), `page_size` tools a page with an opaque nextCursor.
    - tools/call: the result as text content (and structuredContent when the tool has a result
      schema); arguments that do not fit and a tool that fails give isError with the reason
      (the model can fix those); an unknown tool is JSON-RPC error -32602. A call with a
      progressToken gets notifications/progress from the tool (tool_invocation::report_progress);
      notifications/cancelled cancels the call, which then gets no answer.
    - Streamable HTTP: POST carries the client's messages (a request gets application/json, or an
      event stream when it asked for progress; notifications and responses get 202), the
      session is Mcp-Session-Id (400 without it, 404 for an unknown or ended one, and for one
      another caller started: net::authentication::caller), DELETE ends it,
      GET (a stream for server-initiated messages) is 405: this server sends none.
    Runs on `executor`; the tools run there too.
*/
class server {
public:
    server(boost::asio::any_io_executor executor, std::vector<function_tool> tools, server_options options = {});
    ~server();
    server(const server&) = delete;
    server& operator=(const server&) = delete;

    /// POST, GET and DELETE at options.path, with JSON-RPC error shapes.
    net::http_routes routes() const;

    /** Serves one client over newline-delimited JSON-RPC on two file descriptors (the process's
        standard input and output by default) until the input ends; calls run concurrently.
        Nothing else may write to `output_fd` meanwhile (log to stderr).
    */
    boost::asio::awaitable<void> serve_stdio(int input_fd = 0, int output_fd = 1);

    /// Streamable HTTP sessions open now.
    std::size_t sessions() const noexcept;

private:
    struct state;
    std::shared_ptr<state> state_;
};

} // namespace forma::mcp
