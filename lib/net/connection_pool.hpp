#pragma once
// Kept-alive connections to one server, for the clients in lib/ (OpenAI, the MCP HTTP
// transport, the A2A agent). Not thread-safe: one executor.

#include "http_connection.hpp"

#include <forma/net/base_url.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <memory>
#include <vector>

namespace forma::net::detail {

class connection_pool {
public:
    /// `tls`: the client context for an https server, null for http.
    connection_pool(boost::asio::any_io_executor executor, base_url server, std::shared_ptr<ssl_ctx_st> tls,
                    std::size_t max_idle = 4);

    const base_url& server() const noexcept { return server_; }

    struct opened {
        std::unique_ptr<http_connection> connection;
        http_response_head head;
    };

    /** Sends `request` and reads the head of its response (interim 1xx responses skipped).
        A kept connection that the server closed meanwhile is replaced; nothing else is sent twice.
        @throws transport_error.
    */
    boost::asio::awaitable<opened> open(const http_request& request, const exchange_limits& limits);

    /// A kept connection on which nothing arrived since its last response, else a new one (not connected yet).
    std::unique_ptr<http_connection> take();

    /// Keeps a connection whose response was read to its end, for the next request.
    void give_back(std::unique_ptr<http_connection> connection);

    /// Closes the kept connections; later ones are not kept.
    void close() noexcept;

    std::size_t idle_count() const noexcept { return idle_.size(); }

private:
    boost::asio::any_io_executor executor_;
    base_url server_;
    std::shared_ptr<ssl_ctx_st> tls_;
    std::size_t max_idle_;
    std::vector<std::unique_ptr<http_connection>> idle_;
    bool closed_ = false;
};

} // namespace forma::net::detail
