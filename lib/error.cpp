#include <forma/error.hpp>

namespace forma {

error::error(const std::string& message) : std::runtime_error(message) {}
error::error(const char* message) : std::runtime_error(message) {}
error::~error() = default; // anchors the vtable in the library

} // namespace forma
