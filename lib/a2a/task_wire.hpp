#pragma once
// The A2A 0.3 shapes of a served task (Task, Message, status and artifact updates) made from an
// agent_task, and an incoming message read as chat messages. The server's half of reply_reader.

#include <forma/agent/agent_task.hpp>
#include <forma/model/agent_response.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <string>
#include <vector>

namespace forma::a2a::detail {

/// A task's conversation split at its last user turn: what the caller said, and the answer since.
struct task_view {
    explicit task_view(const agent_task& task);

    const agent_task& task;
    agent_response<> answer;  ///< last_answer(task)

    /// The answer's primary output as A2A parts: text parts, or one data part when `as_data`
    /// (the text is JSON) and it parses.
    boost::json::array answer_parts(bool as_data) const;
    /// The answer's approval requests, as data parts.
    boost::json::array approval_parts() const;
    std::vector<function_approval_request_content> approval_requests() const;
    std::string answer_text() const;
};

/// {"kind": "task", "id", "contextId", "status", "artifacts", "history"}.
boost::json::object task_object(const agent_task& task, bool as_data);
/// The Message that answers a task completed at once.
boost::json::object answer_message(const agent_task& task, bool as_data);
/// {"state", "timestamp", "message"?}: a failure's or a question's message.
boost::json::object task_status(const agent_task& task, bool as_data);
/// {"kind": "status-update", "taskId", "contextId", "status", "final"}.
boost::json::object status_update(const agent_task& task, bool as_data);
/// {"kind": "artifact-update", ...} of the answer artifact.
boost::json::object artifact_update(const agent_task& task, boost::json::array parts, bool append, bool last_chunk);

/** An A2A message (its parts) as the user message of a run. Answering a task that waits for
    approvals (`waiting`: its pending requests), each request is decided by its data part
    {"type": "function_approval_response", "id", "approved", "reason"?}, else by the message's
    words ("approve"/"yes" approves, other words reject with the words as the reason); words
    that decide nothing go to the agent.
    @throws std::invalid_argument with a sentence for the caller when the message has no parts,
    answers a request that the task does not wait for (or one twice), or leaves one undecided.
*/
std::vector<chat_message> read_user_message(const boost::json::object& message,
                                            const std::vector<function_approval_request_content>& waiting);

} // namespace forma::a2a::detail
