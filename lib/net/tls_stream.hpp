#pragma once
// TLS over a non-blocking TCP socket, OpenSSL reading and writing the socket itself.
//
// Why not asio::ssl::stream: it keeps two 17 KiB record buffers per connection and OpenSSL
// a 2 x 17 KiB BIO pair, about 70 KiB per connection before any data, which puts a thousand
// concurrent streams far past their memory budget. Here OpenSSL owns the only buffers and
// releases them between records (SSL_MODE_RELEASE_BUFFERS). Each operation tries OpenSSL
// first and waits for the socket only when OpenSSL asks for it.

#include <forma/error.hpp>

#include <boost/asio/append.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/compose.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <sys/socket.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace forma::net::detail {

/// What OpenSSL's last error says, taken off its error queue: the reason of a failed TLS setup.
inline std::string openssl_reason() {
    char text[256];
    ERR_error_string_n(ERR_get_error(), text, sizeof text);
    ERR_clear_error();
    return text;
}

/** A TLS context as forma's clients and servers make one: `configured`'s own context when the
    user gave one, else a new one for `method`, TLS 1.2 at least, that frees OpenSSL's record
    buffers while a connection waits (most of a stream's life).
    @throws error saying it cannot make the `what` context.
*/
inline std::shared_ptr<SSL_CTX> tls_context_for(const std::shared_ptr<boost::asio::ssl::context>& configured,
                                                const SSL_METHOD* method, std::string_view what) {
    if (configured) return std::shared_ptr<SSL_CTX>(configured, configured->native_handle());
    std::shared_ptr<SSL_CTX> context(SSL_CTX_new(method), &SSL_CTX_free);
    if (!context) throw error("cannot make a " + std::string(what) + " context: " + openssl_reason());
    SSL_CTX_set_min_proto_version(context.get(), TLS1_2_VERSION);
    SSL_CTX_set_mode(context.get(), SSL_MODE_RELEASE_BUFFERS | SSL_MODE_ENABLE_PARTIAL_WRITE |
                                        SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    return context;
}

/** A BIO over a socket descriptor that writes with MSG_NOSIGNAL. OpenSSL's own socket BIO
    writes with write(), which raises SIGPIPE (ending the process) when the peer has closed
    the connection; a library must not do that, nor ask its users to ignore the signal.
*/
class socket_bio {
public:
    /// A BIO for `fd` (not owned), or null when OpenSSL fails.
    static BIO* make(int fd) {
        BIO* bio = BIO_new(method());
        if (bio) BIO_set_data(bio, reinterpret_cast<void*>(static_cast<std::intptr_t>(fd)));
        return bio;
    }

private:
    static int fd_of(BIO* bio) { return static_cast<int>(reinterpret_cast<std::intptr_t>(BIO_get_data(bio))); }

    static bool would_block() { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR; }

    static int write(BIO* bio, const char* data, int size) {
        BIO_clear_retry_flags(bio);
        const ssize_t n = ::send(fd_of(bio), data, static_cast<std::size_t>(size), MSG_NOSIGNAL);
        if (n < 0 && would_block()) BIO_set_retry_write(bio);
        return static_cast<int>(n);
    }

    static int read(BIO* bio, char* data, int size) {
        BIO_clear_retry_flags(bio);
        const ssize_t n = ::recv(fd_of(bio), data, static_cast<std::size_t>(size), 0);
        if (n < 0 && would_block()) BIO_set_retry_read(bio);
        return static_cast<int>(n);
    }

    static long control(BIO*, int command, long, void*) { return command == BIO_CTRL_FLUSH ? 1 : 0; }

    static int create(BIO* bio) {
        BIO_set_init(bio, 1);
        return 1;
    }

    static BIO_METHOD* method() {
        static BIO_METHOD* const methods = [] {
            BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "forma socket");
            BIO_meth_set_write(m, &socket_bio::write);
            BIO_meth_set_read(m, &socket_bio::read);
            BIO_meth_set_ctrl(m, &socket_bio::control);
            BIO_meth_set_create(m, &socket_bio::create);
            return m;
        }();
        return methods;
    }
};

class tls_stream {
public:
    using executor_type = boost::asio::ip::tcp::socket::executor_type;

    /// `socket` is connected and non-blocking; `ssl` reads and writes it through a socket_bio.
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

    /// The server's side of the handshake.
    template <class Token>
    auto async_accept(Token&& token) {
        return run(
            [](SSL* ssl, std::size_t& done) {
                done = 0;
                return SSL_accept(ssl);
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
