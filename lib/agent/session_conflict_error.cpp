#include <forma/agent/session_conflict_error.hpp>

#include "../json/json_text.hpp"

namespace forma {

namespace {

std::string conflict_message(const session_id& id, std::uint64_t loaded, std::uint64_t stored) {
    std::string message = "the session \"" + json_detail::valid_utf8(id.str()) + "\" was ";
    message += loaded == 0 ? std::string("never loaded") : "loaded at version " + std::to_string(loaded);
    message += stored == 0 ? std::string(", but the store holds none now (erased or expired)")
                           : ", but the store holds version " + std::to_string(stored) + " (another writer saved first)";
    return message + ": nothing was saved; load it again, redo the run and save that";
}

} // namespace

session_conflict_error::session_conflict_error(forma::session_id id, std::uint64_t loaded_version,
                                               std::uint64_t stored_version)
    : error(conflict_message(id, loaded_version, stored_version)), session_id_(std::move(id)),
      loaded_version_(loaded_version), stored_version_(stored_version) {}

session_conflict_error::~session_conflict_error() = default;

} // namespace forma
