#include <forma/a2a/a2a_error.hpp>
#include <forma/registered_secret.hpp>

namespace forma::a2a {

a2a_error::a2a_error(const std::string& message, std::string agent_url, std::optional<std::int64_t> code)
    : error(message), agent_url_(redact_secrets(agent_url)), code_(code) {}

a2a_error::~a2a_error() = default;

} // namespace forma::a2a
