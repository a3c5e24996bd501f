#pragma once

#include <forma/agent/agent.hpp>
#include <forma/agent/session_store.hpp>
#include <forma/orchestration/orchestration_error.hpp>
#include <forma/orchestration/orchestration_state.hpp>

#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma {

/// What every orchestration is besides its participants: its name, and where it checkpoints.
struct orchestration_options {
    /// A random one when empty.
    std::string id{};
    std::string name{};
    std::string description{};
    /** Saves the session after every step (and opens sessions by id from it): a process that
        dies mid-run loses at most the step that was running, and a run on the session in any
        process goes on from there. Unset: the session lives only as long as the caller holds
        it (or a stored_agent over the orchestration saves it after the run).
    */
    std::shared_ptr<session_store> checkpoints{};
};

/** Many agents as one agent: the base of handoff_orchestration, sequential_orchestration,
    concurrent_orchestration and group_chat_orchestration.

    A run goes in steps; each step gives one participant (several, for a fan-out) the
    conversation so far and adds its answer to it. The session's history is the shared
    conversation, every participant's messages in it under the participant's name
    (`author_name`), and its state holds where the orchestration stands
    (orchestration_state), so that a run can stop and another go on:
    - a participant that asks for approvals, or asks a question (awaits_input: a remote A2A
      agent's task in `input-required`), ends the run with its requests or its question
      (primary output); the next run on the session brings the answers to it, and the
      orchestration goes on;
    - a participant that fails ends the run with an orchestration_error naming it; the next
      run tries that step again.
    With `checkpoints`, the session is saved before every step.

    A participant runs in a fresh session of its own holding the conversation it is given (a
    participant whose session keeps state, as a remote A2A agent keeps its context, gets that
    state back and only the part of the conversation it has not seen),
    with the run's chat options, its trace (under a telemetry_agent over the orchestration,
    each step is an `invoke_agent {participant}` span under the orchestration's) and, where the
    orchestration says it may answer last, the run's response format: `run<T>` reads the last
    answer as a T. A stream yields every participant's updates under its name, and merged it
    equals the whole run's response. The participants must outlive the orchestration.
*/
class orchestration : public agent {
public:
    /// The session state's member that holds the orchestration_state.
    static constexpr std::string_view state_key = "orchestration";

    ~orchestration() override;

    executor_type get_executor() const override;
    std::string_view id() const noexcept override { return options_.id; }
    std::string_view name() const noexcept override { return options_.name; }
    std::string_view description() const noexcept override { return options_.description; }

    const std::vector<std::shared_ptr<agent>>& participants() const noexcept { return participants_; }
    /// The participant named `name`, or null.
    agent* participant(std::string_view name) const noexcept;

    /// The session's orchestration state; an idle one of this kind when it has none.
    /// @throws error for a session of another kind of orchestration, json_error for a broken state.
    orchestration_state state_of(const agent_session& session) const;

    /** The most validation retries any participant may make, and at least 1 with several
        participants: an earlier participant's answer (prose before the last one's T) is, for a
        stream of run<T>, an answer another follows, not an error.
    */
    std::size_t max_output_retries(const agent_run_options& run_options) const override;

    /// With `checkpoints`: the stored session, or a new one under `id`. Without: error.
    boost::asio::awaitable<std::shared_ptr<agent_session>> open_session(session_id id) override;

protected:
    /** @throws error without participants, with a null one, or with two participants of one
        name (names say who spoke, so they must be unique and not empty).
    */
    orchestration(std::string kind, std::vector<std::shared_ptr<agent>> participants, orchestration_options options);

    /// A run as the orchestration's kind sees it: the conversation, the run's options, the state.
    struct turn {
        const std::vector<chat_message>& conversation;
        const agent_run_options& options;
        orchestration_state& state;
    };

    /// A new run starts (the state was idle): reset the kind's own counters.
    virtual void begin(orchestration_state& state) const = 0;

    /// The participants (indices) of the next step, in order; none ends the run. Called after the
    /// run's new messages joined the conversation and after each step that did not stop it.
    virtual boost::asio::awaitable<std::vector<std::size_t>> next_speakers(turn t) = 0;

    /// What participant `speaker` is given: by default the whole conversation.
    virtual std::vector<chat_message> view(std::size_t speaker, const turn& t) const;

    /** The options of `speaker`'s run (made from the run's: its chat options, context and
        additional properties); `may_answer_last` says whether the run's response format applies.
        By default: true for every speaker.
    */
    virtual bool may_answer_last(std::size_t speaker, const turn& t) const;

    /// Changes `options` for `speaker` (handoff tools, for one); by default nothing.
    virtual void prepare(std::size_t speaker, agent_run_options& options, const turn& t) const;

    /** After `speaker` answered `response`: what the orchestration adds to the conversation after
        the answer (a handoff), and the state's change. To end the run on a limit, throw an
        orchestration_error with the message and the participant: the messages of its partial
        response are added still, and the run ends with it (its step and partial response the run's).
    */
    virtual std::vector<chat_message> after(std::size_t speaker, const agent_response<>& response, turn& t) = 0;

    /// At the end of a run that was not stopped: a last message (an aggregation), or none.
    virtual std::optional<chat_message> conclude(turn& t);

    /// The index of the participant named `name`.
    /// @throws error when there is none.
    std::size_t index_of(std::string_view name) const;

    boost::asio::awaitable<agent_response<>> run_core(agent_run run) final;
    update_stream run_streaming_core(agent_run run) final;

private:
    class engine;
    class streamed_run;

    std::string kind_;
    std::vector<std::shared_ptr<agent>> participants_;
    orchestration_options options_;
};

} // namespace forma
