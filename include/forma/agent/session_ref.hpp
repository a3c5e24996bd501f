#pragma once

#include <forma/agent/agent_session.hpp>
#include <forma/agent/session_id.hpp>

#include <cstddef>
#include <memory>
#include <utility>
#include <variant>

namespace forma {

/** Which session a run uses: none (a fresh one, for this run only), a session the caller
    holds, or the session an agent with a session_store keeps under an id (stored_agent).
*/
class session_ref {
public:
    session_ref() = default;
    session_ref(std::nullptr_t) {}
    session_ref(std::shared_ptr<agent_session> session) : ref_(std::move(session)) {}
    session_ref(session_id id) : ref_(std::move(id)) {}

    /// The caller's session; null for a fresh one or one named by id.
    const std::shared_ptr<agent_session>* held() const noexcept {
        return std::get_if<std::shared_ptr<agent_session>>(&ref_);
    }
    /// The id of a stored session; null otherwise.
    const session_id* stored() const noexcept { return std::get_if<session_id>(&ref_); }

private:
    std::variant<std::shared_ptr<agent_session>, session_id> ref_;
};

} // namespace forma
