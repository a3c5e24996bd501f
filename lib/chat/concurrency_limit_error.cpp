#include <forma/chat/concurrency_limit_error.hpp>

namespace forma {

concurrency_limit_error::~concurrency_limit_error() = default;

} // namespace forma
