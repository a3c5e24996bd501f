#include <forma/net/stream_error.hpp>

namespace forma {

stream_error::stream_error(stream_error_kind kind, const std::string& message)
    : error(message), kind_(kind) {}

stream_error::~stream_error() = default;

} // namespace forma
