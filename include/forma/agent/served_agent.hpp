#pragma once

#include <forma/agent/agent.hpp>
#include <forma/agent/agent_run_options.hpp>
#include <forma/agent/agent_task.hpp>
#include <forma/agent/session_id.hpp>
#include <forma/agent/session_store.hpp>
#include <forma/agent/task_store.hpp>
#include <forma/model/chat_message.hpp>

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma {

/** An agent served to remote callers as tasks: the core that forma's A2A server, OpenAI
    endpoints and AG-UI endpoint share, for a server of another protocol too.

    A task's run goes on in the background on the agent's executor: its input and every update
    go to the task store as they come, its conversation (session_of) is loaded from and saved to
    the session store, and it ends completed, input-required (approval requests, a question),
    failed (the error's message) or canceled. A task is its owner's (owner_of: protocol and
    caller): load_owned finds no task of another caller or protocol. A cancellation asked of
    any server that shares the task store reaches the one that runs the task.

        forma::served_agent served(agent);                // in-memory stores
        forma::agent_task task{.id = forma::make_unique_id(), .context_id = "c1",
                               .owner = forma::served_agent::owner_of("my-protocol", caller)};
        co_await served.tasks()->create(task);
        served.start(task, {forma::chat_message(forma::chat_role::user(), "Hello")});
        std::optional<forma::agent_task> done = co_await served.settle(task.id);
*/
class served_agent {
public:
    using clock = std::chrono::steady_clock;

    /// How long a server's stream of a task waits for a change before it writes a keep-alive,
    /// so that proxies keep the connection.
    static constexpr std::chrono::seconds keep_alive_interval{15};

    /** `served` must outlive this and every run. Null stores: an in_memory_task_store and an
        in_memory_session_store on the agent's executor.
    */
    explicit served_agent(agent& served, std::shared_ptr<task_store> tasks = {},
                          std::shared_ptr<session_store> sessions = {});
    served_agent(const served_agent&) = delete;
    served_agent& operator=(const served_agent&) = delete;
    /// Cancels the runs that still go on here.
    ~served_agent();

    agent& served() const noexcept;
    const std::shared_ptr<task_store>& tasks() const noexcept;
    const std::shared_ptr<session_store>& sessions() const noexcept;

    /// The owner of the tasks that `protocol` ("a2a", "openai", "ag-ui", ...) keeps for `caller`.
    static std::string owner_of(std::string_view protocol, std::string_view caller);
    /// The session of a task's conversation: its context within its owner's, so that a context
    /// id one caller names never opens another caller's (or another protocol's) conversation.
    static session_id session_of(const agent_task& task);

    /// The task `id` where `owner` owns it; nullopt for an unknown task and another owner's.
    boost::asio::awaitable<std::optional<agent_task>> load_owned(std::string id, std::string_view owner) const;

    /// Runs `task` (created in the store) in the background, in its session (session_of).
    void start(const agent_task& task, std::vector<chat_message> input, agent_run_options options = {});

    /** Cancels `task` (as loaded; not final): marks the cancellation asked for in the store,
        ends a task that waits for an answer (nothing runs it) as canceled, and stops its run
        here; a run on another server of a fleet stops when that server sees the mark.
    */
    boost::asio::awaitable<void> cancel(const agent_task& task);
    /// Stops the run of `task_id` if it goes on here (the store is not touched); whether it did.
    bool stop(const std::string& task_id);
    /// How many runs go on here.
    std::size_t running() const noexcept;

    /** The task once it has stopped (final or input-required), or as it stands at `deadline`;
        nullopt for an unknown task.
    */
    boost::asio::awaitable<std::optional<agent_task>> settle(std::string task_id,
                                                             std::optional<clock::time_point> deadline = std::nullopt);

private:
    struct state;
    std::shared_ptr<state> state_;
};

} // namespace forma
