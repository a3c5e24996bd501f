#pragma once
// What an A2A agent answers (a message, a task, a task's status and artifact events) as
// agent_response_updates. A whole run reads the final task, a streamed one each event: both
// merge into the same response.

#include <forma/model/agent_response_update.hpp>
#include <forma/model/continuation_token.hpp>

#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace forma::a2a::detail {

/// A task's state (A2A 0.3 names) that ends it, or one that waits for the caller.
bool is_terminal_state(std::string_view state) noexcept;
bool is_interrupted_state(std::string_view state) noexcept;

/// {"kind": "a2a.task", "task_id": ..., "context_id": ...}
continuation_token task_token(const std::string& task_id, const std::string& context_id);
/// The task id of a task_token, or "" when `token` is not one.
std::string task_of(const continuation_token& token);

class reply_reader {
public:
    /// `author`: the card's name. `with_tokens`: unfinished tasks give continuation tokens.
    reply_reader(std::string author, std::string agent_id, bool with_tokens);

    /// The updates one result says: a Message, a Task, a status-update or an artifact-update.
    /// Unknown kinds give one update holding only the raw result.
    std::vector<agent_response_update> read(const boost::json::value& result);

    /// A message came, or the task reached a terminal or interrupted state.
    bool finished() const noexcept { return answered_by_message_ || is_terminal_state(state_) || is_interrupted_state(state_); }
    const std::string& task_id() const noexcept { return task_id_; }
    const std::string& context_id() const noexcept { return context_id_; }
    /// "" after a message, else the task's last known state.
    const std::string& state() const noexcept { return state_; }
    /// The text of the last status message, for errors.
    const std::string& status_text() const noexcept { return status_text_; }

private:
    agent_response_update header(const boost::json::value& raw) const;
    agent_response_update contents_update(std::vector<content> contents, const boost::json::value& raw) const;
    void read_status(const boost::json::object& status, const boost::json::value& raw,
                     std::vector<agent_response_update>& out);

    std::string author_;
    std::string agent_id_;
    bool with_tokens_;
    std::string task_id_;
    std::string context_id_;
    std::string state_;
    std::string status_text_;
    bool artifacts_seen_ = false;
    bool answered_by_message_ = false;
};

} // namespace forma::a2a::detail
