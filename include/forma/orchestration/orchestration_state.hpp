#pragma once

#include <boost/json/conversion.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace forma {

/// Where an orchestration stands between two runs on one session.
enum class orchestration_status {
    /// The last run ended: the next run starts a new one.
    idle,
    /// A run was cut short (a participant failed, or the process died): the next run goes on
    /// from `speakers`, after adding its own messages to the conversation; with no `speakers`
    /// (choosing them failed), it chooses them again, its counters as they were.
    running,
    /// A participant waits for the caller (its approval requests were the run's answer): the
    /// next run brings the answers to `speakers`, and the orchestration goes on from there.
    waiting,
};

/** What a participant that keeps state in its session (a remote A2A agent: its context, a task
    that waits for an answer) has of the conversation between its steps.
*/
struct participant_memory {
    /// Messages of the conversation it has seen: the next step gives it only its view of the rest
    /// as new messages (the part seen goes in as its session's history).
    std::size_t seen = 0;
    /// Its session's state after its last step, given back to it at its next.
    boost::json::object state;

    friend bool operator==(const participant_memory&, const participant_memory&) = default;
};

/** An orchestration's place in a conversation, kept in the session's state under
    orchestration::state_key as JSON, so that another process resumes it: a checkpoint.

    JSON: `{"kind", "status", "speakers", "step", "handoffs", "rounds", "fan_out_start",
    "participants"?: {name: {"seen", "state"}}}`.
*/
struct orchestration_state {
    /// The orchestration's kind ("handoff", "sequential", "concurrent", "group_chat"); a session
    /// of one kind is refused by another.
    std::string kind;
    orchestration_status status = orchestration_status::idle;
    /** Who speaks next, by name: the participant that has the conversation (handoff), the next
        in line (sequential, group chat), those still to answer (concurrent).
    */
    std::vector<std::string> speakers;
    /// Steps (participant turns) of the current run so far.
    std::size_t step = 0;
    /// Handoffs in the current run (handoff_orchestration).
    std::size_t handoffs = 0;
    /// Rounds of the current run (group_chat_orchestration).
    std::size_t rounds = 0;
    /// Messages of the conversation before the current run's new ones: where a fan-out's
    /// answers start (concurrent_orchestration).
    std::size_t fan_out_start = 0;
    /// The participants whose sessions keep state, by name (chat agents keep none: each step
    /// gives them the whole conversation in a fresh session).
    std::map<std::string, participant_memory, std::less<>> participants;

    friend bool operator==(const orchestration_state&, const orchestration_state&) = default;
};

void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const orchestration_state& state);
/// @throws json_error naming the offending member.
orchestration_state tag_invoke(boost::json::value_to_tag<orchestration_state>, const boost::json::value& json);

} // namespace forma
