#pragma once

#include <forma/a2a/agent_card.hpp>
#include <forma/a2a/push_notifications.hpp>
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
    /** The skills only the authenticated extended card lists (GetExtendedAgentCard, 0.3's
        agent/getAuthenticatedExtendedCard), after `skills`: it is served to a caller that the
        http_server's authentication hook let in by name (net::server_request::caller), and the
        public card says it exists. Empty: the agent has no extended card (-32004).
    */
    std::vector<agent_skill> extended_skills{};
    /** The answer's format, for a typed agent (`response_format::for_type<T>()`): every run
        asks for it, the answer goes out as a data part, and the card lists "application/json"
        as the output mode with the schema under the forma answer-schema extension.
    */
    std::optional<forma::response_format> answer_format{};
    /// A message/send that does not block (0.3 `blocking: false`, 1.0 `returnImmediately`) and
    /// whose run has not ended within this gets its task back at once.
    std::chrono::milliseconds task_after{std::chrono::seconds(1)};
    /** A run that completed before message/send answers: false answers with its Task (the
        answer an artifact; the task stays listed and can be read again), as A2A 1.0 section 3.7
        advises; true with a Message that holds the answer and names no task.
    */
    bool answer_with_message = false;
    /// Webhooks that clients register for their tasks (off by default).
    push_notification_options push_notifications{};
    /// Where tasks live; an in_memory_task_store on the agent's executor when null.
    std::shared_ptr<task_store> tasks{};
    /// Where each context's session lives; an in_memory_session_store when null.
    std::shared_ptr<session_store> sessions{};
};

/** Serves any forma::agent (decorated or not) over A2A 1.0 and 0.3 (JSON-RPC 2.0 over HTTP) on
    one endpoint: the agent card, SendMessage (0.3: message/send), SendStreamingMessage
    (message/stream, server-sent events), GetTask (tasks/get), CancelTask (tasks/cancel),
    SubscribeToTask (tasks/resubscribe), ListTasks (served as tasks/list in 0.3 shapes) and
    GetExtendedAgentCard (agent/getAuthenticatedExtendedCard). Mount its routes() in an
    http_server, alone or with other protocols':

        forma::a2a::server a2a(agent, {.public_url = "https://agents.example.com/a2a"});
        forma::net::http_server http(executor, a2a.routes());

    - The version: a request's A2A-Version header ("1.0", "0.3"); without one, 1.0 for 1.0's
      method names and 0.3 for 0.3's. Another version is error -32009. The card asked for with
      "A2A-Version: 1.0" is the 1.0 card; without, the 0.3 card, which lists both interfaces too.
    - A task's `historyLength` (GetTask, tasks/get, or a send's configuration) keeps the last N
      messages of its history.
    - A context is a session (kept in `sessions`); a message without a contextId starts one.
    - ListTasks finds the caller's tasks of this protocol only, the most recently updated first,
      filtered by contextId, status and statusTimestampAfter, `pageSize` (1 to 100, 50 by
      default) at a time, with artifacts only when `includeArtifacts` is true. A task store
      that implements no task_store::list answers -32603.
    - A message into a finished task is refused with -32004 (unsupported operation), as is
      SubscribeToTask on one; a streaming method's errors come as an event of a stream.
    - Every message starts a task, kept in `tasks`, and message/send answers with it: when its
      run has stopped (completed, failed, or waiting for the caller), or, not blocking, after
      `task_after` (a Message instead for a completed run, with `answer_with_message`).
    - Push notifications (`push_notifications.enabled`): a client registers webhooks for its
      task (CreateTaskPushNotificationConfig, or a send's configuration) and this server POSTs
      each change of the task's state to them (a completed task's answer first, as an artifact
      update), in the version of the request that registered it, with the config's token
      (X-A2A-Notification-Token) and authentication (Authorization), retried as the options say.
      Each notification says where the task stands when it is sent: a state the task passes
      while a notification is being delivered is not told on its own.
      A webhook reaches public addresses only unless the options allow more. The configs live
      in this process: in a fleet, the instance that took a config sends its notifications,
      following the task through the shared store.
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
      canceled), -32003 (push notifications while they are off), -32004 (a finished task, no extended card), -32007
      (the extended card asked for without a caller's name), -32009
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

    /// GET /.well-known/agent-card.json (also under rpc_path) and POST rpc_path, with JSON-RPC error shapes.
    net::http_routes routes() const;
    /// The card in a version's shape, naming `url` as the endpoint of both versions.
    boost::json::object card(std::string_view url, protocol_version version = protocol_version::v1_0) const;

    /// Tasks running in this process now.
    std::size_t running_tasks() const noexcept;
    /// What the push notifications have delivered and given up on.
    push_delivery_counts push_deliveries() const noexcept;

private:
    struct state;
    std::shared_ptr<state> state_;
};

} // namespace forma::a2a
