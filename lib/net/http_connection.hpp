#pragma once
// One HTTP/1.1 client connection (TLS or plain), for the chat clients in lib/.
// Declared without Beast so that only http_connection.cpp pays for its headers.

#include <forma/net/base_url.hpp>
#include <forma/net/timeouts.hpp>

#include "tls_client.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/address.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace forma::net::detail {

using header_list = std::vector<std::pair<std::string, std::string>>;

struct http_request {
    std::string_view method = "POST";
    std::string_view target{};
    std::string_view content_type = "application/json";
    std::string_view accept = "application/json";
    /// Beyond Host, User-Agent, Content-Type, Content-Length and Accept.
    const header_list* headers = nullptr;
    std::string_view body{};
};

struct http_response_head {
    unsigned status = 0;
    header_list headers{};
    /// The value of header `name` (case-insensitive), or "" when absent.
    std::string_view header(std::string_view name) const noexcept;
};

/// The timeouts of one exchange and the point in time the whole exchange must end by.
struct exchange_limits {
    timeouts limits{};
    std::optional<std::chrono::steady_clock::time_point> deadline{};
};

/** A connection to one server, reused for sequential requests.
    Every operation runs on the connection's executor, honours the awaiting
    coroutine's cancellation slot, and throws transport_error (closing the
    connection) on failure, boost::system::system_error on cancellation.
*/
class http_connection {
public:
    /// `tls` is the client context for an https server, null for http.
    http_connection(boost::asio::any_io_executor executor, const base_url& server, std::shared_ptr<ssl_ctx_st> tls);
    ~http_connection();

    http_connection(const http_connection&) = delete;
    http_connection& operator=(const http_connection&) = delete;

    /** Connects only to the addresses `allowed` accepts among those the host resolves to (the
        address checked is the one connected to: no second lookup can swap it); none accepted is
        a transport_error of kind connect. For a URL a caller gave, such as a webhook's.
    */
    void only_to(std::function<bool(const boost::asio::ip::address&)> allowed);

    /// Whether the connection is open (it may still have been closed by the server).
    bool is_open() const noexcept;

    /// Connects (resolve, TCP, TLS handshake) unless open.
    boost::asio::awaitable<void> connect(const exchange_limits& limits);

    /// Writes the request and reads the response's head.
    boost::asio::awaitable<http_response_head> send(const http_request& request, const exchange_limits& limits);

    /// The next bytes of the body, valid until the next call; empty once the body has ended.
    boost::asio::awaitable<std::string_view> read_some(const exchange_limits& limits);

    /// The rest of the body; past `max_size` bytes, transport_error (body_too_large).
    boost::asio::awaitable<std::string> read_body(std::size_t max_size, const exchange_limits& limits);

    /** The last response was read to exactly its end, nothing came after it, and both sides
        keep the connection. Anything else closed it.
    */
    bool reusable() const noexcept;

    /** For a kept connection about to carry a request: true when nothing arrived since its
        last response. Bytes (an answer to no request) or the server's close end it: closed, false.
    */
    bool quiet() noexcept;

    /// Closes at once (no TLS close_notify: the peer may be gone).
    void close() noexcept;

private:
    struct impl;
    std::shared_ptr<impl> impl_; // shared with its timeout's handler
};

} // namespace forma::net::detail
