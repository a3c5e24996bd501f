#pragma once

#include <forma/a2a/a2a_error.hpp>
#include <forma/a2a/agent_card.hpp>
#include <forma/a2a/push_notification_config.hpp>
#include <forma/a2a/remote_task.hpp>
#include <forma/agent/agent.hpp>
#include <forma/net/timeouts.hpp>
#include <forma/net/tls_trust.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace forma::a2a {

struct agent_options {
    /// The agent's base URL: its card is at `base_url + "/.well-known/agent-card.json"`.
    std::string base_url;
    /// Sent with every request, e.g. {"Authorization", "Bearer ..."}.
    std::vector<std::pair<std::string, std::string>> headers{};
    /// connect: per connection; idle: the wait for an answer's head and between the events
    /// of a stream (a task that streams nothing for longer is followed by polling instead).
    net::timeouts timeouts{};
    /// A run that waits for its task gives up after this, cancels the task and throws
    /// a2a_error. (With allow_background_responses a run does not wait.)
    std::chrono::milliseconds task_timeout{std::chrono::minutes(10)};
    /// How often an unfinished task is polled (tasks/get) when the agent does not stream.
    std::chrono::milliseconds poll_interval{std::chrono::milliseconds(500)};
    /// A message (a JSON body or one SSE event) longer than this is an a2a_error.
    std::size_t max_message_size = 16 * 1024 * 1024;
    /// Which agents are trusted over TLS (extra anchors, verification, or a context of your own).
    net::tls_trust trust{};
    /// The A2A version to speak. None: 1.0 where the card lists a JSON-RPC 1.0 interface, else
    /// 0.3. v0_3 holds to 0.3 (for a peer whose 1.0 is broken); v1_0 refuses a card without 1.0.
    std::optional<protocol_version> speak{};
};

/** A remote agent reached with the Agent2Agent protocol (A2A 1.0 or 0.3, JSON-RPC over HTTP),
    used as any forma::agent: `run`, `run_streaming`, `run<T>` and decorators work on it.

    - Its agent card is read on the first run (or by connect()); name() and description()
      are the card's from then on.
    - A run sends the new messages as one A2A message (text, data and file parts): SendMessage
      (0.3: message/send), or SendStreamingMessage (message/stream) for run_streaming when the
      card says it streams.
    - The answer: a message's parts, or a task's artifacts (the status message where there are
      none); a data part becomes JSON text, so run<T> reads it.
    - An unfinished task: with `allow_background_responses` the response carries a
      continuation_token (the task); passing it back in the run options polls it (GetTask) or,
      streaming, follows it (SubscribeToTask). Without, the run waits for the task (following
      its stream, or polling) up to `task_timeout`.
    - `input-required`: the response is the agent's question (additional property
      "a2a.task_state" says so, and awaits_input(response) is true); the next run on the same
      session answers it, in the same task.
    - The session keeps the A2A context id (`state["a2a"]`), so a conversation continues.
    - A task that fails, is rejected or canceled, a card that is missing or wrong, a broken
      connection, a JSON-RPC error: a2a_error naming the agent.
*/
class agent : public forma::agent {
public:
    agent(boost::asio::any_io_executor executor, agent_options options);
    ~agent() override;

    /// Reads the agent card (once). @throws a2a_error.
    boost::asio::awaitable<void> connect();
    /// The card; empty before connect() or the first run.
    const agent_card& card() const noexcept;

    /** Cancels the task `token` names (tasks/cancel) and returns it as it then stands.
        @throws a2a_error when the agent refuses (a finished task) or the token is not an A2A one.
    */
    boost::asio::awaitable<agent_response<>> cancel(const continuation_token& token);

    /** The caller's tasks at the agent (ListTasks; 0.3 agents that forma serves answer
        tasks/list), the most recently updated first, a page at a time.
        @throws a2a_error when the agent refuses (one that lists no tasks: -32004 or -32601).
    */
    boost::asio::awaitable<remote_task_page> list_tasks(task_list_query query = {});

    /** Reads the agent's authenticated extended card (GetExtendedAgentCard) with
        `agent_options::headers`' credentials, and keeps it as card() from then on (the
        endpoint stays the public card's). @throws a2a_error when the agent has none for this caller.
    */
    boost::asio::awaitable<agent_card> read_extended_card();

    /** Registers a webhook for the task `task` names (CreateTaskPushNotificationConfig, 0.3
        tasks/pushNotificationConfig/set): the agent POSTs the task's changes to it. Returns the
        config as the agent keeps it (with its id). @throws a2a_error (-32003 from an agent
        without push notifications, -32602 for a webhook it will not reach).
    */
    boost::asio::awaitable<push_notification_config> set_push_notification(const continuation_token& task,
                                                                           push_notification_config config);
    /// The task's webhooks. @throws a2a_error.
    boost::asio::awaitable<std::vector<push_notification_config>> push_notifications(const continuation_token& task);
    /// Removes the task's webhook `id` (one already gone is no error). @throws a2a_error.
    boost::asio::awaitable<void> delete_push_notification(const continuation_token& task, std::string id);

    /// connect() for any completion token; the handler gets (std::exception_ptr).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_connect(CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), connect(), std::forward<CompletionToken>(token));
    }
    /// cancel() for any completion token; the handler gets (std::exception_ptr, agent_response<>).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_cancel(continuation_token token, CompletionToken&& completion = {}) {
        return boost::asio::co_spawn(
            get_executor(),
            [](agent& self, continuation_token t) -> boost::asio::awaitable<agent_response<>> {
                co_return co_await self.cancel(t);
            }(*this, std::move(token)),
            std::forward<CompletionToken>(completion));
    }

    executor_type get_executor() const override;
    std::string_view id() const noexcept override;
    /// The card's name, or the URL before the card is read.
    std::string_view name() const noexcept override;
    std::string_view description() const noexcept override;

protected:
    boost::asio::awaitable<agent_response<>> run_core(agent_run run) override;
    update_stream run_streaming_core(agent_run run) override;

private:
    struct state;
    class streaming_run;
    std::shared_ptr<state> state_;
};

} // namespace forma::a2a
