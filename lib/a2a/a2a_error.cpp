#include <forma/a2a/a2a_error.hpp>

namespace forma::a2a {

a2a_error::a2a_error(const std::string& message, std::string agent_url, std::optional<std::int64_t> code)
    : rpc_error(message, std::move(agent_url), code) {}

a2a_error::~a2a_error() = default;

} // namespace forma::a2a
