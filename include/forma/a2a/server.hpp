#pragma once

#include <forma/a2a/agent_card.hpp>
#include <forma/agent/agent.hpp>
#include <forma/agent/session_store.hpp>
#include <forma/agent/task_store.hpp>
#include <forma/model/response_format.hpp>
#include <forma/net/http_routes.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace forma::a2a {

struct server_options {
    /// Where the JSON-RPC endpoint is served; the card is at "/.well-known/agent-card.json".
    std::string rpc_path = "/a2a";
    /// The endpoint's URL as clients reach it, for the card ("https://agents.example.com/a2a").
    /// Empty: "http(s)://<host><rpc_path>", the host being the request's Host where it is one
    /// of `card_hosts`, else the address the request reached ("127.0.0.1:8080"). A Host that
    /// is not listed never becomes the URL the card tells other agents to call.
    std::string public_url{};
    /// The Host header values (any ASCII case, "agents.example.com:8443") that the card's URL
    /// may name when `public_url` is empty: the names this server is reached by.
    std::vector<std::string> card_hosts{};
    /// The card's name, description and version; the agent's own name and description when empty.
    std::string name{};
    std::string description{};
    std::string version = "1.0.0";
    /// The card's skills; one named after the agent when empty.
    std::vector<agent_skill> skills{};
    /** The answer's format, for a typed agent (`response_format::for_type<T>()`): every run
        asks for it, the answer goes out as a data part, and the card lists "application/json"
        as the output mode with the schema under the forma answer-schema extension.
    */
    std::optional<forma::response_format> answer_format{};
    /// A message/send that does not block (0.3 `blocking: false`, 1.0 `returnImmediately`) and
    /// whose run has not ended within this gets its task back at once.
    std::chrono::milliseconds task_after{std::chrono::seconds(1)};
    /// Where tasks live; an in_memory_task_store on the agent's executor when null.
    std::shared_ptr<task_store> tasks{};
    /// Where each context's session lives; an in_memory_session_store when null.
    std::shared_ptr<session_store> sessions{};
};

/** Serves any forma::agent (decorated or not) over A2A 1.0 and 0.3 (JSON-RPC 2.0 over HTTP) on
    one endpoint: the agent card, SendMessage (0.3: message/send), SendStreamingMessage
    (message/stream, server-sent events), GetTask (tasks/get), CancelTask (tasks/cancel) and
    SubscribeToTask (tasks/resubscribe). Mount its routes() in an http_server, alone or with
    other protocols':

        forma::a2a::server a2a(agent, {.public_url = "https://agents.example.com/a2a"});
        forma::net::http_server http(executor, a2a.routes());

    - The version: a request's A2A-Version header ("1.0", "0.3"); without one, 1.0 for 1.0's
      method names and 0.3 for 0.3's. Another version is error -32009. The card asked for with
      "A2A-Version: 1.0" is the 1.0 card; without, the 0.3 card, which lists both interfaces too.
    - A task's `historyLength` (GetTask, tasks/get, or a send's configuration) keeps the last N
      messages of its history.
    - A context is a session (kept in `sessions`); a message without a contextId starts one.
    - Every message starts a task, kept in `tasks`. A run that ends within `task_after` (or any
      run, with `blocking`) answers with a Message when it completed; a longer one, one that
      failed, and one that waits for the caller answer with the Task.
    - An approval request or a question (awaits_input) is `input-required`: the status message
      carries the question's text and a data part per approval request
      ({"type": "function_approval_request", "id", "name", "arguments"}). The next message in
      the task answers: data parts {"type": "function_approval_response", "id", "approved",
      "reason"?}, and text for the requests no data part answers ("approve"/"yes" approves
      them, other words reject them with the words as the reason). A message that answers a
      request the task does not wait for, answers one twice, or leaves one undecided is refused
      (-32602) and the task still waits.
    - A streamed task: the Task, then status and artifact updates as the text comes (the
      answer is one artifact, "answer"), then a final status update; the stream then ends.
    - Errors are JSON-RPC errors: -32700 (not JSON), -32600 (not a request), -32601 (unknown
      method), -32602 (bad params), -32001 (no such task), -32002 (a finished task cannot be
      canceled), -32003 (push notifications), -32004 (ListTasks, the extended card), -32009
      (another version); and the HTTP layer's (413, 401, ...) in the same shape. A 1.0 error
      carries its google.rpc.ErrorInfo in `data` ([{"@type", "reason": "TASK_NOT_FOUND", ...}]).
    The agent, the stores and the server run on the agent's executor.
*/
class server {
public:
    /// `served` must outlive the server and every request it answers.
    explicit server(forma::agent& served, server_options options = {});
    ~server();
    server(const server&) = delete;
    server& operator=(const server&) = delete;

    /// GET /.well-known/agent-card.json and POST rpc_path, with JSON-RPC error shapes.
    net::http_routes routes() const;
    /// The card in a version's shape, naming `url` as the endpoint of both versions.
    boost::json::object card(std::string_view url, protocol_version version = protocol_version::v1_0) const;

    /// Tasks running in this process now.
    std::size_t running_tasks() const noexcept;

private:
    struct state;
    std::shared_ptr<state> state_;
};

} // namespace forma::a2a
