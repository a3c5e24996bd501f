#pragma once
// TLS over a non-blocking TCP socket, OpenSSL reading and writing the socket itself.
//
// Why not asio::ssl::stream: it keeps two 17 KiB record buffers per connection and OpenSSL
// a 2 x 17 KiB BIO pair, about 70 KiB per connection before any data, which puts a thousand
// concurrent streams far past their memory budget. Here OpenSSL owns the only buffers and
// releases them between records (SSL_MODE_RELEASE_BUFFERS). Each operation tries OpenSSL
// first and waits for the socket only when OpenSSL asks for it.

#include <boost/asio/append.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/compose.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/error.hpp>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <cerrno>
#include <cstddef>

namespace forma::net::detail {

class tls_stream {
public:
    using executor_type = boost::asio::ip::tcp::socket::executor_type;

    /// `socket` is connected and non-blocking; `ssl` is attached to its descriptor.
    tls_stream(boost::asio::ip::tcp::socket& socket, SSL* ssl) noexcept : socket_(socket), ssl_(ssl) {}

    executor_type get_executor() noexcept { return socket_.get_executor(); }

    template <class Token>
    auto async_handshake(Token&& token) {
        return run(
            [](SSL* ssl, std::size_t& done) {
                done = 0;
                return SSL_connect(ssl);
            },
            std::forward<Token>(token));
    }

    template <class MutableBuffers, class Token>
    auto async_read_some(const MutableBuffers& buffers, Token&& token) {
        const auto buffer = first_nonempty<boost::asio::mutable_buffer>(buffers);
        return run(
            [buffer](SSL* ssl, std::size_t& done) { return SSL_read_ex(ssl, buffer.data(), buffer.size(), &done); },
            std::forward<Token>(token), buffer.size() == 0);
    }

    template <class ConstBuffers, class Token>
    auto async_write_some(const ConstBuffers& buffers, Token&& token) {
        const auto buffer = first_nonempty<boost::asio::const_buffer>(buffers);
        return run(
            [buffer](SSL* ssl, std::size_t& done) { return SSL_write_ex(ssl, buffer.data(), buffer.size(), &done); },
            std::forward<Token>(token), buffer.size() == 0);
    }

private:
    template <class Buffer, class Buffers>
    static Buffer first_nonempty(const Buffers& buffers) {
        const auto end = boost::asio::buffer_sequence_end(buffers);
        for (auto it = boost::asio::buffer_sequence_begin(buffers); it != end; ++it) {
            Buffer buffer(*it);
            if (buffer.size() != 0) return buffer;
        }
        return Buffer();
    }

    // The error of a failed OpenSSL call, in the terms Beast and the connection expect.
    static boost::system::error_code error_of(int ssl_error, int saved_errno) {
        if (ssl_error == SSL_ERROR_ZERO_RETURN) return boost::asio::error::eof;
        if (ssl_error == SSL_ERROR_SYSCALL) {
            if (saved_errno == 0) return boost::asio::ssl::error::stream_truncated;
            return {saved_errno, boost::system::system_category()};
        }
        const unsigned long code = ERR_peek_last_error();
        ERR_clear_error();
        if (ERR_GET_REASON(code) == SSL_R_UNEXPECTED_EOF_WHILE_READING) return boost::asio::ssl::error::stream_truncated;
        if (code == 0) return boost::asio::ssl::error::unspecified_system_error;
        return {static_cast<int>(code), boost::asio::error::get_ssl_category()};
    }

    // Calls `attempt` until it succeeds, waiting for the socket when OpenSSL wants it to
    // be readable or writable. A result available at once is posted, not delivered from
    // inside the initiating call.
    template <class Attempt, class Token>
    auto run(Attempt attempt, Token&& token, bool nothing_to_do = false) {
        enum class stage { starting, waiting, delivering };
        return boost::asio::async_compose<Token, void(boost::system::error_code, std::size_t)>(
            [this, attempt, nothing_to_do, at = stage::starting, result = boost::system::error_code{},
             done = std::size_t{0}](auto& self, boost::system::error_code ec = {}) mutable {
                if (at == stage::delivering) return self.complete(result, done);
                if (ec) return self.complete(ec, 0);
                if (!nothing_to_do) {
                    ERR_clear_error();
                    errno = 0;
                    const int r = attempt(ssl_, done);
                    if (r <= 0) {
                        const int saved_errno = errno;
                        const int error = SSL_get_error(ssl_, r);
                        if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) {
                            at = stage::waiting;
                            return socket_.async_wait(error == SSL_ERROR_WANT_READ
                                                          ? boost::asio::ip::tcp::socket::wait_read
                                                          : boost::asio::ip::tcp::socket::wait_write,
                                                      std::move(self));
                        }
                        result = error_of(error, saved_errno);
                        done = 0;
                    }
                }
                if (at == stage::waiting) return self.complete(result, done);
                at = stage::delivering;
                boost::asio::post(socket_.get_executor(), std::move(self));
            },
            token, socket_);
    }

    boost::asio::ip::tcp::socket& socket_;
    SSL* ssl_;
};

} // namespace forma::net::detail
