#pragma once
// Reading an A2A server's JSON-RPC answers in tests.

#include <boost/json/value.hpp>

#include <cstdint>

namespace forma_test {

/// The answer's error code; 0 when it is no error.
inline std::int64_t error_code_of(const boost::json::value& reply) {
    const boost::json::object* o = reply.if_object();
    const boost::json::value* error = o ? o->if_contains("error") : nullptr;
    return error && error->is_object() ? error->at("code").as_int64() : 0;
}

} // namespace forma_test
