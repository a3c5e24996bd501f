#pragma once

#include <forma/agent/agent_task.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace forma {

/// Which of a caller's tasks task_store::list finds, and which page of them.
struct task_query {
    /// Whose tasks (agent_task::owner, exactly): no other caller's are found.
    std::string owner;
    /// Only this context's; empty: every context.
    std::string context_id{};
    /// Only the tasks in this state.
    std::optional<task_state> state{};
    /// Only the tasks updated at or after this.
    std::optional<std::chrono::system_clock::time_point> updated_since{};
    /// At most this many tasks (0 counts as 1).
    std::size_t page_size = 50;
    /// Where the page begins: the `next_page_token` of the page before; empty: the first page.
    std::string page_token{};
};

/// One page of tasks, the most recently updated first (then by id, from the largest).
struct task_page {
    std::vector<agent_task> tasks{};
    /// How many tasks match the query, across every page.
    std::size_t total = 0;
    /// What finds the next page; empty on the last one.
    std::string next_page_token{};
};

/** Where served tasks live (agent_task), so that any instance of a fleet answers for a task
    another one started: reads it, follows it as it goes on, asks it to stop.

    Writes are small (an update appended, a state set), so that a long stream does not copy
    its past at each step. All operations run on get_executor().
*/
class task_store {
public:
    using executor_type = boost::asio::any_io_executor;

    virtual ~task_store();

    virtual executor_type get_executor() const = 0;

    /// Stores a new task. @throws error when a task with its id exists.
    virtual boost::asio::awaitable<void> create(agent_task task) = 0;
    /// The task stored under `id`, or nullopt.
    virtual boost::asio::awaitable<std::optional<agent_task>> load(std::string id) = 0;
    /// Appends updates to a task's answer. @throws error for an unknown task.
    virtual boost::asio::awaitable<void> append(std::string id, std::vector<agent_response_update> updates) = 0;
    /// Sets a task's state (and why it failed). @throws error for an unknown task.
    virtual boost::asio::awaitable<void> set_state(std::string id, task_state state, std::string error = {}) = 0;
    /** Sets a task's state to `to` only if it is `from`, in one step: of two servers that take
        the same answer to a waiting task (input_required), one wins. Whether it was set (false
        for an unknown task too).
    */
    virtual boost::asio::awaitable<bool> transition(std::string id, task_state from, task_state to) = 0;
    /// Asks for a task's cancellation; the task as it then stands, or nullopt for an unknown one.
    virtual boost::asio::awaitable<std::optional<agent_task>> request_cancel(std::string id) = 0;
    /** What changed in task `id` past `seen_version`, with its updates from index `from`: at
        once when it has changed, else when it changes or `wait` has passed (then with no new
        updates and the same version). nullopt for an unknown task.
    */
    virtual boost::asio::awaitable<std::optional<task_changes>> changes(std::string id, std::size_t from,
                                                                        std::uint64_t seen_version,
                                                                        std::chrono::milliseconds wait) = 0;
    /** A page of the tasks that match `query` (A2A's ListTasks). A token is good while its task
        is kept; a task updated between two pages moves to the front, so that a caller paging
        through may miss or see it twice, as with any cursor over changing data.
        @throws std::invalid_argument for a page token this store did not make.
        @throws error from a store that does not list (this default): stores written before
        list() existed keep compiling.
    */
    virtual boost::asio::awaitable<task_page> list(task_query query);
};

} // namespace forma
