#include <forma/net/transport_error.hpp>

namespace forma {

transport_error::transport_error(transport_error_kind kind, const std::string& message,
                                 boost::system::error_code code, bool before_response)
    : error(message), kind_(kind), code_(code), before_response_(before_response) {}

transport_error::~transport_error() = default;

} // namespace forma
