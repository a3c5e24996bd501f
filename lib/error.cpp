#include <forma/error.hpp>
#include <forma/registered_secret.hpp>

namespace forma {

error::error(const std::string& message) : std::runtime_error(redact_secrets(message)) {}
error::error(const char* message) : std::runtime_error(redact_secrets(message)) {}
error::~error() = default; // anchors the vtable in the library

} // namespace forma
