#include <forma/json/rpc_error.hpp>
#include <forma/registered_secret.hpp>

namespace forma {

rpc_error::rpc_error(const std::string& message, std::string peer, std::optional<std::int64_t> code)
    : error(message), peer_(redact_secrets(peer)), code_(code) {}

rpc_error::~rpc_error() = default;

} // namespace forma
