#pragma once

#include <forma/mcp/mcp_error.hpp>

#include <cstdint>
#include <string>

namespace forma::mcp {

/** One request failed and the connection to the server is still good: thrown by a transport
    whose messages are exchanges of their own (HTTP: a POST answered with what cannot be read,
    an answer stream that broke) from send() or receive(). The client fails that request alone
    (its caller gets an mcp_error with this message); any other error from a transport ends
    the connection, failing every request.
*/
class request_error : public mcp_error {
public:
    request_error(const std::string& message, std::string server, std::int64_t request_id);
    ~request_error() override;

    /// The JSON-RPC id of the request that failed.
    std::int64_t request_id() const noexcept { return request_id_; }

private:
    std::int64_t request_id_;
};

} // namespace forma::mcp
