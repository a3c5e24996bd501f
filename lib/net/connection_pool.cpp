#include "connection_pool.hpp"

#include <forma/net/transport_error.hpp>

namespace forma::net::detail {

connection_pool::connection_pool(boost::asio::any_io_executor executor, base_url server, std::shared_ptr<ssl_ctx_st> tls,
                                 std::size_t max_idle)
    : executor_(std::move(executor)), server_(std::move(server)), tls_(std::move(tls)), max_idle_(max_idle) {}

std::unique_ptr<http_connection> connection_pool::take() {
    while (!idle_.empty()) {
        auto connection = std::move(idle_.back());
        idle_.pop_back();
        if (connection->quiet()) return connection;
    }
    return std::make_unique<http_connection>(executor_, server_, tls_);
}

boost::asio::awaitable<connection_pool::opened> connection_pool::open(const http_request& request,
                                                                      const exchange_limits& limits) {
    for (;;) {
        auto connection = take();
        const bool reused = connection->is_open();
        try {
            co_await connection->connect(limits);
            http_response_head head = co_await connection->send(request, limits);
            co_return opened{std::move(connection), std::move(head)};
        } catch (const transport_error& e) {
            // A kept connection the server closed as the request went out: the next one (in
            // the end a new one, which is never retried), so that nothing is sent twice for free.
            if (!reused || !e.before_response() || e.kind() != transport_error_kind::closed) throw;
        }
    }
}

void connection_pool::give_back(std::unique_ptr<http_connection> connection) {
    if (!closed_ && connection->reusable() && idle_.size() < max_idle_) idle_.push_back(std::move(connection));
}

void connection_pool::close() noexcept {
    closed_ = true;
    idle_.clear();
}

} // namespace forma::net::detail
