#pragma once
// Runs an agent for served tasks (A2A tasks, background Responses): the input and every update
// go to a task_store as they come, the session is saved, the task ends completed,
// input-required (approval requests, a question), failed or canceled. Shared by the servers.

#include <forma/agent/agent.hpp>
#include <forma/agent/in_memory_session_store.hpp>
#include <forma/agent/in_memory_task_store.hpp>
#include <forma/agent/session_store.hpp>
#include <forma/agent/task_store.hpp>

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma::agent_detail {

/// How long a server's stream of a task waits for a change before it writes a keep-alive
/// comment, so that proxies keep the connection (A2A, the OpenAI endpoints, AG-UI).
inline constexpr std::chrono::seconds stream_keep_alive{15};

/// A server's `options` with in-memory `tasks` and `sessions` on the agent's executor where it gives none.
template <class Options>
Options with_default_stores(const agent& served, Options options) {
    if (!options.tasks) options.tasks = std::make_shared<in_memory_task_store>(served.get_executor());
    if (!options.sessions) options.sessions = std::make_shared<in_memory_session_store>(served.get_executor());
    return options;
}

/// The owner of the tasks a server's `protocol` ("a2a", "openai", "ag-ui") keeps for a request's `caller`.
std::string task_owner(std::string_view protocol, std::string_view caller);

/// The session of a task's conversation: its context within its owner's, so that a context id
/// one caller names never opens another caller's (or another protocol's) conversation.
session_id task_session(const agent_task& task);

/// The task `id` where `owner` owns it; another protocol's or caller's task is not found (nullopt).
boost::asio::awaitable<std::optional<agent_task>> load_owned(task_store& tasks, std::string id, std::string_view owner);

class task_runner {
public:
    using clock = std::chrono::steady_clock;

    /// `served` must outlive every run. `sessions` null: each run gets a fresh session.
    task_runner(agent& served, std::shared_ptr<task_store> tasks, std::shared_ptr<session_store> sessions);
    ~task_runner(); // cancels what still runs

    task_store& tasks() const noexcept;

    /// Runs `task` (created in the store) on the agent's executor, in the background, in its
    /// session (task_session).
    void start(const agent_task& task, std::vector<chat_message> input, agent_run_options options = {});
    /// Cancels the run of `task_id` if it runs here; whether it did.
    bool cancel(const std::string& task_id);
    /// Runs going on here.
    std::size_t running() const noexcept;

    /** The task once it has stopped (final or input-required), or as it stands at `deadline`;
        nullopt for an unknown task.
    */
    boost::asio::awaitable<std::optional<agent_task>> settle(std::string task_id, std::optional<clock::time_point> deadline);

private:
    struct state;
    std::shared_ptr<state> state_;
};

} // namespace forma::agent_detail
