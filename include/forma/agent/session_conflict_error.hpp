#pragma once

#include <forma/agent/session_id.hpp>
#include <forma/error.hpp>

#include <cstdint>

namespace forma {

/** A save found a newer version of the session in the store: another writer saved first.
    Nothing was written. Load the session again, redo the run on it, and save that.
*/
class session_conflict_error : public error {
public:
    session_conflict_error(forma::session_id id, std::uint64_t loaded_version, std::uint64_t stored_version);
    ~session_conflict_error() override;

    const forma::session_id& session_id() const noexcept { return session_id_; }
    /// The version the session being saved was loaded at (0: it was never stored).
    std::uint64_t loaded_version() const noexcept { return loaded_version_; }
    /// The version the store holds (0: none, e.g. erased meanwhile).
    std::uint64_t stored_version() const noexcept { return stored_version_; }

private:
    forma::session_id session_id_;
    std::uint64_t loaded_version_;
    std::uint64_t stored_version_;
};

} // namespace forma
