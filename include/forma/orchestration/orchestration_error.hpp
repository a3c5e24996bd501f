#pragma once

#include <forma/error.hpp>
#include <forma/model/agent_response.hpp>

#include <cstddef>
#include <exception>
#include <string>

namespace forma {

/** An orchestration's run failed: a participant failed, or whoever chose the speakers (a group
    chat's manager or selector), or the checkpoint store (cause() holds the error), or the run
    broke one of the orchestration's limits (no cause). Nothing is lost: partial_response() holds
    what the run's earlier steps answered, the session keeps every message of them, and the
    session's orchestration state is at the step that did not finish, so the next run on the
    session goes on from there and asks nothing that finished again.
*/
class orchestration_error : public error {
public:
    orchestration_error(std::string message, std::string participant, std::size_t step, std::exception_ptr cause,
                        agent_response<> partial_response);
    ~orchestration_error() override;

    /** The name of the participant that failed, that the limit stopped, or of the group chat's
        manager that failed; empty for a selector function or a checkpoint store.
    */
    const std::string& participant() const noexcept { return participant_; }
    /// The step of the run that failed, counted from 1.
    std::size_t step() const noexcept { return step_; }
    /// The participant's own error; null when the orchestration stopped the run.
    const std::exception_ptr& cause() const noexcept { return cause_; }
    /// What the run answered before it failed.
    const agent_response<>& partial_response() const noexcept { return partial_; }

private:
    std::string participant_;
    std::size_t step_;
    std::exception_ptr cause_;
    agent_response<> partial_;
};

} // namespace forma
