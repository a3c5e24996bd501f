#pragma once
// A stand-in Redis server on loopback for the faults a real one will not make: it answers the
// first command it reads with `answer` (raw RESP), then sends `filler` over and over until
// `filler_bytes` are out, then keeps the connection open and silent. Runs on the test's io_context.

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>

namespace forma_test {

class fake_resp_server {
public:
    fake_resp_server(boost::asio::io_context& io, std::string answer, std::string filler = {}, std::size_t filler_bytes = 0)
        : acceptor_(io, {boost::asio::ip::make_address("127.0.0.1"), 0}), answer_(std::move(answer)),
          filler_(std::move(filler)), filler_bytes_(filler_bytes) {
        boost::asio::co_spawn(io, serve(), boost::asio::detached);
    }
    unsigned short port() const { return acceptor_.local_endpoint().port(); }
    /// Bytes of `answer` and `filler` written so far.
    std::size_t sent() const noexcept { return sent_; }

private:
    boost::asio::awaitable<void> serve() {
        namespace asio = boost::asio;
        auto [ec, socket] = co_await acceptor_.async_accept(asio::as_tuple(asio::use_awaitable));
        if (ec) co_return;
        char request[256];
        (void)co_await socket.async_read_some(asio::buffer(request), asio::as_tuple(asio::use_awaitable));
        if (!answer_.empty()) {
            auto [write_error, n] = co_await asio::async_write(socket, asio::buffer(answer_), asio::as_tuple(asio::use_awaitable));
            sent_ += n;
            if (write_error) co_return;
        }
        for (std::size_t left = filler_bytes_; left > 0 && !filler_.empty();) {
            const std::size_t n = std::min(left, filler_.size());
            auto [write_error, written] =
                co_await asio::async_write(socket, asio::buffer(filler_.data(), n), asio::as_tuple(asio::use_awaitable));
            sent_ += written;
            if (write_error) co_return; // the client closed the connection
            left -= n;
        }
        kept_ = std::move(socket);
    }

    boost::asio::ip::tcp::acceptor acceptor_;
    std::string answer_;
    std::string filler_;
    std::size_t filler_bytes_;
    std::size_t sent_ = 0;
    std::optional<boost::asio::ip::tcp::socket> kept_;
};

} // namespace forma_test
