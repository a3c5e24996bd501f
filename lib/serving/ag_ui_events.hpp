#pragma once
// A served run's updates as AG-UI events: the run's start and end, text and reasoning messages
// (start, content, end), tool calls (start, args, end, result), the typed answer as a state
// snapshot, and a paused run's interrupts (approvals, a question).

#include <forma/agent/agent_task.hpp>
#include <forma/model/agent_response_update.hpp>

#include <boost/json/object.hpp>

#include <set>
#include <string>
#include <vector>

namespace forma::serving::detail {

/// The interrupt of a run paused for the caller: `<task id>/<approval request id>`, or
/// `<task id>/answer` for a question.
std::string interrupt_id(std::string_view task_id, std::string_view key);
inline constexpr std::string_view question_key = "answer";

class ag_ui_events {
public:
    ag_ui_events(std::string thread_id, std::string run_id);

    boost::json::object run_started() const;
    /// The events of one update of the run (the input's echo makes none).
    std::vector<boost::json::object> add(const agent_response_update& update);
    /** The events that end the run, from the task it left: RUN_FINISHED (with the usage, and
        for a typed answer a STATE_SNAPSHOT before it and the value as its result; for a paused
        run, the interrupt outcome; for a canceled one, the cancelled outcome) or RUN_ERROR.
    */
    std::vector<boost::json::object> finish(const agent_task& task, bool typed);

private:
    void close_text(std::vector<boost::json::object>& out);
    void close_reasoning(std::vector<boost::json::object>& out);
    void announce_call(const function_call_content& call, std::vector<boost::json::object>& out);
    std::string next_message_id();

    std::string thread_id_;
    std::string run_id_;
    std::size_t messages_ = 0;
    std::string text_id_;      ///< the open text message, or empty
    std::string reasoning_id_; ///< the open reasoning message, or empty
    std::string last_text_id_; ///< the parent of the tool calls that follow it
    std::set<std::string> announced_calls_;
};

} // namespace forma::serving::detail
