#pragma once

#include <forma/model/agent_response.hpp>
#include <forma/model/agent_response_update.hpp>
#include <forma/model/chat_message.hpp>

#include <boost/json/object.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma {

/// Where a served run stands (A2A's task states; OpenAI's background response statuses map onto them).
enum class task_state { submitted, working, input_required, completed, failed, canceled };

/// "submitted", "working", "input-required", "completed", "failed", "canceled" (A2A's names).
std::string_view to_string(task_state state) noexcept;
/// The state named `name`, or nullopt.
std::optional<task_state> task_state_from_string(std::string_view name) noexcept;
/// completed, failed and canceled: nothing more happens to the task.
bool is_final(task_state state) noexcept;
/// The run is not going on: its state is final, or it waits for the caller's answer (input_required).
bool has_stopped(task_state state) noexcept;

/** A run that a server keeps so that it outlives the request that started it: a background
    run, one streamed to a client that may come back, one waiting for the caller's answer.
    Any instance of a fleet reads it from a task_store.
*/
struct agent_task {
    std::string id;
    /// The conversation it belongs to (its session, within its owner's).
    std::string context_id;
    /** Who may reach it: the protocol that made it and the caller that asked
        (net::server_request::caller), as "<protocol>/<caller>" ("a2a/", "openai/alice"). A
        server's endpoints find only the tasks of their own protocol and caller.
    */
    std::string owner{};
    task_state state = task_state::submitted;
    /// The messages that started it.
    std::vector<chat_message> input{};
    /// What the run has said so far, in order (merged with to_agent_response, the answer), and
    /// where the caller spoke (an update of role user without contents: the words are in
    /// `input` and the session).
    std::vector<agent_response_update> updates{};
    /// What the server that made it keeps to show it again (a Response's settings); any JSON.
    boost::json::object properties{};
    /// Why it failed (a sentence a caller can read), or empty.
    std::string error{};
    /// A cancellation was asked for; the instance that runs it cancels the run.
    bool cancel_requested = false;
    /// Bumped by each change; a watcher compares it.
    std::uint64_t version = 0;
    std::chrono::system_clock::time_point created{};
    std::chrono::system_clock::time_point updated{};
};

/// What changed in a task since a watcher last looked: its state and the updates from an index on.
struct task_changes {
    task_state state = task_state::submitted;
    std::string error{};
    bool cancel_requested = false;
    /// The updates from the index the watcher gave; `next` is the index after them.
    std::vector<agent_response_update> updates{};
    std::size_t next = 0;
    std::uint64_t version = 0;
};

/// What the task's run said since the caller last spoke: its updates merged, from after the
/// last user or system message (the input, and the answers to its questions) on.
agent_response<> last_answer(const agent_task& task);

} // namespace forma
