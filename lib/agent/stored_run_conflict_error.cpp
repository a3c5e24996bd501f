#include <forma/agent/stored_run_conflict_error.hpp>

namespace forma {

stored_run_conflict_error::stored_run_conflict_error(const session_conflict_error& conflict, agent_response<> response,
                                                     std::optional<agent_session> current)
    : session_conflict_error(conflict), response_(std::move(response)), current_(std::move(current)) {}

stored_run_conflict_error::~stored_run_conflict_error() = default;

} // namespace forma
