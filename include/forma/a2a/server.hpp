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
    /// Empty: "http(s)://<the request's Host><rpc_path>".
    std::string public_url{};
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
    /// A message/send (not blocking) whose run has not ended within this gets its task back at once.
    std::chrono::milliseconds task_after{std::chrono::seconds(1)};
    /// Where tasks live; an in_memory_task_store on the agent's executor when null.
    std::shared_ptr<task_store> tasks{};
    /// Where each context's session lives; an in_memory_session_store when null.
    std::shared_ptr<session_store> sessions{};
};

/** Serves any forma::agent (decorated or not) over A2A 0.3 (JSON-RPC 2.0 over HTTP): the agent
    card, message/send, message/stream (server-sent events), tasks/get, tasks/cancel and
    tasks/resubscribe. Mount its routes() in an http_server, alone or with other protocols':

        forma::a2a::server a2a(agent, {.public_url = "https://agents.example.com/a2a"});
        forma::net::http_server http(executor, a2a.routes());

    - A context is a session (kept in `sessions`); a message without a contextId starts one.
    - Every message starts a task, kept in `tasks`. A run that ends within `task_after` (or any
      run, with `blocking`) answers with a Message when it completed; a longer one, one that
      failed, and one that waits for the caller answer with the Task.
    - An approval request or a question (awaits_input) is `input-required`: the status message
      carries the question's text and a data part per approval request
      ({"type": "function_approval_request", "id", "name", "arguments"}). The next message in
      the task answers: data parts {"type": "function_approval_response", "id", "approved"},
      or text ("approve"/"yes" approves every request, anything else rejects them).
    - A streamed task: the Task, then status and artifact updates as the text comes (the
      answer is one artifact, "answer"), then a final status update; the stream then ends.
    - Errors are JSON-RPC errors: -32700 (not JSON), -32600 (not a request), -32601 (unknown
      method), -32602 (bad params), -32001 (no such task), -32002 (a finished task cannot be
      canceled); and the HTTP layer's (413, 401, ...) in the same shape.
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
    /// The card, with `url` as configured (empty when it is taken from each request).
    boost::json::object card(std::string_view url) const;

    /// Tasks running in this process now.
    std::size_t running_tasks() const noexcept;

private:
    struct state;
    std::shared_ptr<state> state_;
};

} // namespace forma::a2a
