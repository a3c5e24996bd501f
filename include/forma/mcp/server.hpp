#pragma once

#include <forma/chat/function_tool.hpp>
#include <forma/mcp/prompt.hpp>
#include <forma/mcp/resource.hpp>
#include <forma/mcp/server_tool.hpp>
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
    /// A request the server sends the client (sampling, elicitation) fails when not answered
    /// within this (elicitation waits for a person).
    std::chrono::milliseconds client_request_timeout{std::chrono::minutes(10)};
};

/** An MCP server (Model Context Protocol, JSON-RPC 2.0): tools (function_tools, and agents
    through as_tool; server_tools for MCP's own content), resources, prompts, completion and
    logging, over stdio (serve_stdio) and Streamable HTTP (routes(), mounted in a
    net::http_server).

        forma::mcp::server mcp(executor, {weather_tool, forma::as_tool(researcher)});
        mcp.add(forma::mcp::resource{.uri = "file:///readme", .name = "readme", .read = ...});
        co_await mcp.serve_stdio();                 // a process a client spawns
        // or: forma::net::http_server http(executor, mcp.routes());

    - initialize: the client's protocol version when forma speaks it (2025-11-25, 2025-06-18,
      2025-03-26, 2024-11-05), else the newest; capabilities: tools, resources (with subscribe),
      prompts, logging, completions. ping answers {}.
    - tools/list: name, description, inputSchema, outputSchema for a tool whose result schema is
      known (function_tool_options::result_schema: make_tool sets it for a described struct;
      server_tool::output_schema), `page_size` tools a page with an opaque nextCursor.
    - tools/call: a function_tool's result as text content (and structuredContent when the tool
      has a result schema); a server_tool's content blocks as they are. Arguments that do not
      fit and a tool that fails give isError with the reason (the model can fix those); an
      unknown tool is JSON-RPC error -32602. A call with a progressToken gets
      notifications/progress (tool_invocation::report_progress, call_context::report_progress);
      a server_tool's call_context also logs (notifications/message, from the level the client
      set with logging/setLevel) and asks the client (sampling/createMessage,
      elicitation/create), whose answer comes back on the same session. notifications/cancelled
      cancels the call, which then gets no answer.
    - resources/list, resources/templates/list, resources/read (-32002 for a URI nothing
      serves), resources/subscribe and unsubscribe (resource_updated() tells subscribers);
      prompts/list, prompts/get; completion/complete for prompt arguments and template variables.
    - Streamable HTTP: POST carries the client's messages. A request is answered with
      application/json, or with an event stream once the server sends something while it runs
      (logs, sampling, elicitation; a call with a progressToken from the start), the answer
      last; notifications and responses get
      202. The session is Mcp-Session-Id (400 without it, 404 for an unknown or ended one, and
      for one another caller started: net::authentication::caller), DELETE ends it, GET opens
      the session's one stream of messages outside any request (resources/updated; 409 for a
      second).
    Runs on `executor`; tools, readers and prompts run there too.
*/
class server {
public:
    server(boost::asio::any_io_executor executor, std::vector<function_tool> tools, server_options options = {});
    ~server();
    server(const server&) = delete;
    server& operator=(const server&) = delete;

    /** Serves one more tool, resource, resource template or prompt, from the next list on.
        Call on the executor. @throws error when a tool, resource, template or prompt of that
        name (URI) is served already, or when a required member is empty.
    */
    void add(server_tool tool);
    void add(resource r);
    void add(resource_template t);
    void add(prompt p);

    /// notifications/resources/updated to every session subscribed to `uri` that has a channel
    /// for it (stdio; Streamable HTTP with its GET stream open). Call on the executor.
    void resource_updated(const std::string& uri);

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
