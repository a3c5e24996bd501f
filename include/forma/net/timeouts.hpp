#pragma once

#include <chrono>

namespace forma::net {

/** How long an HTTP exchange may take. A zero duration means no limit.
    An expired timeout ends the exchange with transport_error
    (transport_error_kind::timeout) and closes its connection.
*/
struct timeouts {
    /// Resolving, connecting (to each address in turn) and the TLS handshake, together. A
    /// system resolver that hangs delays the error until getaddrinfo returns.
    std::chrono::milliseconds connect{std::chrono::seconds(10)};
    /** The longest wait for the next bytes of a response: before its headers
        (the model may think before answering) and between streamed chunks.
    */
    std::chrono::milliseconds idle{std::chrono::seconds(120)};
    /// A whole request from its first attempt to its last byte, retries and waits included.
    std::chrono::milliseconds total{std::chrono::minutes(10)};
};

} // namespace forma::net
