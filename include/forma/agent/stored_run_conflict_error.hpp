#pragma once

#include <forma/agent/agent_session.hpp>
#include <forma/agent/session_conflict_error.hpp>
#include <forma/model/agent_response.hpp>

#include <optional>

namespace forma {

/** A run's session could not be saved: another instance saved the conversation first. The
    run's answer was not lost: it is here, with the session as the store holds it now. Nothing
    was merged; redo the run on current() (or show the user both) and save that.
*/
class stored_run_conflict_error : public session_conflict_error {
public:
    stored_run_conflict_error(const session_conflict_error& conflict, agent_response<> response,
                              std::optional<agent_session> current);
    ~stored_run_conflict_error() override;

    /// The answer of the run whose session was not saved.
    const agent_response<>& response() const noexcept { return response_; }
    /// The session as the store holds it after the other writer; nullopt when it was erased.
    const std::optional<agent_session>& current() const noexcept { return current_; }

private:
    agent_response<> response_;
    std::optional<agent_session> current_;
};

} // namespace forma
