#include "http_connection.hpp"
#include "../text/ascii.hpp"
#include "tls_stream.hpp"

#include <forma/error.hpp>
#include <forma/net/transport_error.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <sys/socket.h>

#include <cerrno>

#include <limits>
#include <tuple>

namespace forma::net::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using std::chrono::milliseconds;
using clock = std::chrono::steady_clock;

using text_detail::iequals;

namespace {

constexpr std::size_t max_header_bytes = 16 * 1024;
constexpr std::size_t body_chunk_bytes = 8 * 1024;
constexpr int max_interim_responses = 8;
constexpr auto as_result = asio::as_tuple(asio::use_awaitable);

std::string format_ms(milliseconds d) {
    return d.count() % 1000 == 0 ? std::to_string(d.count() / 1000) + " s" : std::to_string(d.count()) + " ms";
}

bool is_closed_error(const error_code& ec) {
    return ec == asio::error::eof || ec == asio::error::connection_reset || ec == asio::error::connection_aborted ||
           ec == asio::error::broken_pipe || ec == asio::error::not_connected || ec == asio::ssl::error::stream_truncated ||
           ec == http::error::end_of_stream || ec == http::error::partial_message;
}

} // namespace

std::string_view http_response_head::header(std::string_view name) const noexcept {
    for (const auto& [key, value] : headers)
        if (iequals(key, name)) return value;
    return {};
}

struct http_connection::impl : std::enable_shared_from_this<impl> {
    enum class phase { resolve, connect, handshake, write, read_head, read_body };

    impl(asio::any_io_executor ex, const base_url& url, std::shared_ptr<SSL_CTX> context)
        : executor(ex), server(url), where(url.authority()), tls(std::move(context)), resolver(ex), socket(ex), watchdog(ex) {}

    ~impl() { close(); }

    asio::any_io_executor executor;
    base_url server;
    std::string where; // "host:port", for messages
    std::shared_ptr<SSL_CTX> tls;
    tcp::resolver resolver;
    std::function<bool(const asio::ip::address&)> allowed; // empty: every address
    tcp::socket socket;
    ssl_handle ssl;
    std::optional<tls_stream> secure; // over socket and ssl; Beast's operations keep a reference to it
    asio::steady_timer watchdog; // closes the socket when the armed timeout expires
    std::uint64_t armings = 0;   // tells a stale expiry from the current one
    bool timed_out = false;
    beast::flat_buffer buffer{max_header_bytes};
    std::optional<http::response_parser<http::buffer_body>> parser;
    std::unique_ptr<char[]> chunk;
    milliseconds armed{0};    // the timeout of the pending operation, for messages
    bool armed_by_deadline = false;
    bool open = false;
    bool body_done = true;
    int in_flight = 0;          // operations on the connection not yet completed
    bool parser_closed = false; // closed while an operation was in flight: its end drops the parser

    /* Held across each operation: the connection's state (socket, buffer, parser) lives until the
       operation's completion has run, even when the connection is closed or dropped meanwhile, as
       when a caller gives up on a request whose response had already arrived: its completion,
       queued, still reads into the parser. */
    struct operation_guard {
        explicit operation_guard(impl& d) : keep(d.shared_from_this()) { ++keep->in_flight; }
        ~operation_guard() {
            if (--keep->in_flight == 0 && keep->parser_closed) {
                keep->parser_closed = false;
                keep->parser.reset();
            }
        }
        operation_guard(const operation_guard&) = delete;
        operation_guard& operator=(const operation_guard&) = delete;
        std::shared_ptr<impl> keep;
    };

    template <class Operation>
    auto on_stream(Operation&& operation) {
        return secure ? operation(*secure) : operation(socket);
    }

    // An operation's error, or timed_out when the watchdog ended it.
    error_code outcome(const error_code& ec) const {
        return timed_out && ec ? error_code(asio::error::timed_out) : ec;
    }

    // After an operation: a timer left armed would keep the io_context running long after.
    void disarm() {
        ++armings;
        watchdog.cancel();
    }

    // The next operations must end within `timeout`, and before the exchange's deadline.
    void arm(milliseconds timeout, const exchange_limits& limits, phase during) {
        // The watchdog expired just as the previous operation succeeded (a loaded io_context
        // ran its handler first): the connection is shut down, so that is where this exchange ends.
        if (timed_out) fail(asio::error::timed_out, during, limits);
        armed = timeout;
        armed_by_deadline = false;
        if (limits.deadline) {
            const auto left = std::chrono::duration_cast<milliseconds>(*limits.deadline - clock::now());
            if (left <= milliseconds::zero()) {
                armed_by_deadline = true;
                fail(asio::error::timed_out, during, limits);
            }
            if (timeout == milliseconds::zero() || left < timeout) {
                armed = left;
                armed_by_deadline = true;
            }
        }
        const std::uint64_t arming = ++armings;
        if (armed == milliseconds::zero()) {
            watchdog.cancel();
            return;
        }
        watchdog.expires_after(armed);
        watchdog.async_wait([weak = weak_from_this(), arming](const error_code& ec) {
            if (ec) return;
            const auto self = weak.lock();
            if (!self || self->armings != arming) return;
            // Shut down, not only cancelled: a multi-step operation between two socket waits
            // would otherwise start its next wait with no timer. Not closed: OpenSSL reads and
            // writes the descriptor by number, and a closed number is soon another connection's.
            self->timed_out = true;
            self->open = false; // never reused, even when the operation it ends succeeded
            self->resolver.cancel();
            error_code ignored;
            self->socket.cancel(ignored);
            self->socket.shutdown(tcp::socket::shutdown_both, ignored);
        });
    }

    bool response_started() const { return (parser && parser->got_some()) || buffer.size() > 0; }

    [[noreturn]] void fail(const error_code& ec, phase during, const exchange_limits& limits) {
        const bool before_response = during < phase::read_head || (during == phase::read_head && !response_started());
        if (during == phase::handshake && ec != asio::error::operation_aborted && ec != asio::error::timed_out) {
            transport_error failure = tls_failure(ec); // reads the verification result before close()
            close();
            throw failure;
        }
        close();
        if (ec == asio::error::operation_aborted)
            throw boost::system::system_error(ec, "the request to " + where + " was cancelled");
        if (ec == asio::error::timed_out) {
            std::string message;
            if (armed_by_deadline)
                message = "the request to " + where + " took longer than " + format_ms(limits.limits.total) +
                          " (total timeout)";
            else if (during <= phase::handshake)
                message = "connecting to " + where + " took longer than " + format_ms(armed) + " (connect timeout)";
            else
                message = "no bytes from " + where + " for " + format_ms(armed) + " (idle timeout)";
            throw transport_error(transport_error_kind::timeout, message, ec, before_response);
        }
        switch (during) {
        case phase::resolve:
            throw transport_error(transport_error_kind::connect,
                                  "cannot resolve the host name of " + where + ": " + ec.message(), ec, true);
        case phase::connect:
            throw transport_error(transport_error_kind::connect, "cannot connect to " + where + ": " + ec.message(),
                                  ec, true);
        default: break;
        }
        if (ec == http::error::body_limit)
            throw transport_error(transport_error_kind::body_too_large,
                                  "the response from " + where + " is larger than its limit", ec, before_response);
        if (is_closed_error(ec)) {
            const char* when = during == phase::write       ? "while the request was being sent"
                               : during == phase::read_head ? "before the response's headers"
                                                            : "in the middle of the response body";
            throw transport_error(transport_error_kind::closed, where + " closed the connection " + std::string(when),
                                  ec, before_response);
        }
        if (ec.category() == http::make_error_code(http::error::bad_version).category())
            throw transport_error(transport_error_kind::protocol,
                                  "the response from " + where + " is not valid HTTP/1.1: " + ec.message(), ec,
                                  before_response);
        throw transport_error(transport_error_kind::closed, "the connection to " + where + " failed: " + ec.message(),
                              ec, before_response);
    }

    transport_error tls_failure(const error_code& ec) {
        return transport_error(transport_error_kind::tls, tls_handshake_failure(ssl.get(), where, ec), ec, true);
    }

    void prepare_tls() {
        ssl = start_tls_session(tls.get(), socket.native_handle(), server.host);
        secure.emplace(socket, ssl.get());
    }

    // The response has been read to exactly its framing: the connection is kept only when both
    // sides keep it and nothing came after it (RFC 9112 section 9.3: bytes past the framing are
    // never the next answer).
    void end_response() {
        body_done = true;
        const bool kept = parser->keep_alive() && buffer.size() == 0;
        parser.reset();
        if (!kept) close();
    }

    [[noreturn]] void fail_protocol(const std::string& what) {
        close();
        throw transport_error(transport_error_kind::protocol, where + " " + what,
                              make_error_code(http::error::bad_version), false);
    }

    void close() noexcept {
        open = false;
        body_done = true;
        if (in_flight == 0)
            parser.reset();
        else
            parser_closed = true; // when the operation has ended (operation_guard)
        watchdog.cancel();
        error_code ignored;
        socket.shutdown(tcp::socket::shutdown_both, ignored);
        socket.close(ignored);
        secure.reset();
        ssl.reset();
    }
};

http_connection::http_connection(asio::any_io_executor executor, const base_url& server,
                                 std::shared_ptr<SSL_CTX> tls)
    : impl_(std::make_shared<impl>(std::move(executor), server, std::move(tls))) {}

http_connection::~http_connection() = default;

void http_connection::only_to(std::function<bool(const asio::ip::address&)> allowed) { impl_->allowed = std::move(allowed); }

bool http_connection::is_open() const noexcept { return impl_->open; }

bool http_connection::reusable() const noexcept { return impl_->open && impl_->body_done && !impl_->parser; }

bool http_connection::quiet() noexcept {
    impl& d = *impl_;
    if (!d.open) return false;
    char byte = 0;
    bool silent = false;
    if (d.ssl) {
        // Reads pending TLS records (a session ticket is fine), the socket being non-blocking.
        ERR_clear_error();
        const int peeked = SSL_peek(d.ssl.get(), &byte, 1);
        silent = peeked <= 0 && SSL_get_error(d.ssl.get(), peeked) == SSL_ERROR_WANT_READ;
        ERR_clear_error();
    } else {
        const ssize_t peeked = ::recv(d.socket.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
        silent = peeked < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
    }
    if (!silent) d.close();
    return silent;
}

void http_connection::close() noexcept { impl_->close(); }

asio::awaitable<void> http_connection::connect(const exchange_limits& limits) {
    impl& d = *impl_;
    if (d.open) co_return;
    d.close();
    d.buffer.clear();
    d.timed_out = false;

    // One timeout for resolving, connecting and the handshake together.
    d.arm(limits.limits.connect, limits, impl::phase::resolve);
    const std::string port = std::to_string(d.server.port);
    const impl::operation_guard resolving(d);
    auto [resolve_error, endpoints] = co_await d.resolver.async_resolve(d.server.host, port, as_result);
    if (resolve_error) d.fail(d.outcome(resolve_error), impl::phase::resolve, limits);
    // Address by address (not asio::async_connect, which goes on to the next address after
    // the watchdog has ended the first): the timeout bounds them all together.
    error_code connect_error = asio::error::host_not_found;
    bool refused = false;
    for (const auto& entry : endpoints) {
        if (d.allowed && !d.allowed(entry.endpoint().address())) {
            refused = true;
            continue;
        }
        error_code ignored;
        d.socket.close(ignored);
        std::tie(connect_error) = co_await d.socket.async_connect(entry.endpoint(), as_result);
        if (!connect_error || d.timed_out || connect_error == asio::error::operation_aborted) break;
    }
    if (connect_error == asio::error::host_not_found && refused) {
        d.close();
        throw transport_error(transport_error_kind::connect,
                              "refused to connect to " + d.where + ": it resolves only to addresses this request may not reach",
                              make_error_code(asio::error::access_denied), true);
    }
    if (connect_error) d.fail(d.outcome(connect_error), impl::phase::connect, limits);
    error_code ignored;
    d.socket.set_option(tcp::no_delay(true), ignored);

    if (d.tls) {
        d.socket.non_blocking(true, ignored);
        d.prepare_tls();
        auto [handshake_error, unused] = co_await d.secure->async_handshake(as_result);
        if (handshake_error) d.fail(d.outcome(handshake_error), impl::phase::handshake, limits);
    }
    d.disarm();
    d.open = true;
}

asio::awaitable<http_response_head> http_connection::send(const http_request& request,
                                                          const exchange_limits& limits) {
    impl& d = *impl_;
    http::request<http::string_body> message{http::string_to_verb(request.method), request.target, 11};
    message.set(http::field::host, d.server.host_header());
    message.set(http::field::user_agent, "forma/0.1");
    message.set(http::field::accept, request.accept);
    if (request.headers)
        for (const auto& [name, value] : *request.headers) message.set(name, value);
    if (!request.body.empty() || request.method == "POST") {
        message.set(http::field::content_type, request.content_type);
        message.body() = std::string(request.body);
    }
    message.prepare_payload();

    const impl::operation_guard exchanging(d);
    d.arm(limits.limits.idle, limits, impl::phase::write);
    auto [write_error, written] = co_await d.on_stream(
        [&](auto& stream) { return http::async_write(stream, message, as_result); });
    const error_code write_failure = write_error ? d.outcome(write_error) : error_code();
    if (write_failure) {
        // A server may answer before it has read the whole request (a 413, a 401) and close: its
        // answer, when it arrived, says more than the broken write, and that the request was seen.
        if (!is_closed_error(write_failure)) d.fail(write_failure, impl::phase::write, limits);
        d.open = false; // the connection ends with this exchange, whatever comes
    }

    d.body_done = false;
    // Interim (1xx) responses come before the final one and have no body: each is read and
    // skipped (RFC 9110 section 15.2), up to a limit. A 101 switches to a protocol never asked for.
    for (int interim = 0;; ++interim) {
        d.parser.emplace();
        d.parser->body_limit(std::numeric_limits<std::uint64_t>::max()); // read_body enforces its own limit
        d.parser->header_limit(max_header_bytes);
        d.arm(limits.limits.idle, limits, impl::phase::read_head);
        auto [read_error, read] = co_await d.on_stream(
            [&](auto& stream) { return http::async_read_header(stream, d.buffer, *d.parser, as_result); });
        if (read_error) {
            if (write_failure && !d.response_started()) d.fail(write_failure, impl::phase::write, limits);
            d.fail(d.outcome(read_error), impl::phase::read_head, limits);
        }
        d.disarm();
        const unsigned status = d.parser->get().result_int();
        if (status / 100 != 1) break;
        if (status == 101)
            d.fail_protocol("answered 101 Switching Protocols to a request that asked for no upgrade");
        if (interim == max_interim_responses)
            d.fail_protocol("sent more than " + std::to_string(max_interim_responses) +
                            " interim (1xx) responses before its answer");
    }

    http_response_head head;
    const auto& response = d.parser->get();
    head.status = response.result_int();
    for (const auto& field : response) head.headers.emplace_back(field.name_string(), field.value());
    if (d.parser->is_done()) d.end_response();
    co_return head;
}

asio::awaitable<std::string_view> http_connection::read_some(const exchange_limits& limits) {
    impl& d = *impl_;
    if (d.body_done) co_return std::string_view{};
    if (!d.chunk) d.chunk = std::make_unique<char[]>(body_chunk_bytes);
    const impl::operation_guard reading(d);
    for (;;) {
        auto& body = d.parser->get().body();
        body.data = d.chunk.get();
        body.size = body_chunk_bytes;
        d.arm(limits.limits.idle, limits, impl::phase::read_body);
        auto [read_error, read] = co_await d.on_stream(
            [&](auto& stream) { return http::async_read_some(stream, d.buffer, *d.parser, as_result); });
        if (read_error == asio::ssl::error::stream_truncated && d.parser->need_eof() && !d.timed_out) {
            // A body that ends with the connection, closed without TLS close_notify: Beast ends
            // such a body only on a clean eof.
            error_code ignored;
            d.parser->put_eof(ignored);
            read_error = {};
        }
        if (read_error && read_error != http::error::need_buffer)
            d.fail(d.outcome(read_error), impl::phase::read_body, limits);
        d.disarm();
        const std::size_t got = body_chunk_bytes - d.parser->get().body().size;
        if (d.parser->is_done()) d.end_response();
        if (got > 0 || d.body_done) co_return std::string_view(d.chunk.get(), got);
    }
}

asio::awaitable<std::string> http_connection::read_body(std::size_t max_size, const exchange_limits& limits) {
    std::string body;
    for (;;) {
        const std::string_view bytes = co_await read_some(limits);
        if (bytes.empty()) break;
        if (body.size() + bytes.size() > max_size) {
            impl_->close();
            throw transport_error(transport_error_kind::body_too_large,
                                  "the response from " + impl_->where + " is larger than its limit of " +
                                      std::to_string(max_size) + " bytes",
                                  http::error::body_limit, false);
        }
        body.append(bytes);
    }
    co_return body;
}

} // namespace forma::net::detail
