// The only translation unit of the local model server that sees Beast and Asio SSL
// (they cost ~45 s to compile): transport only; the answers come from generated_answer.

#include <forma/testing/model_server.hpp>

#include "../text/ascii.hpp"
#include "generated_answer.hpp"
#include "messages_endpoint.hpp"
#include "responses_endpoint.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/string_body.hpp>

#include <openssl/ssl.h>

#include <algorithm>
#include <deque>
#include <exception>
#include <map>
#include <mutex>

namespace forma::testing {

using text_detail::iequals;

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using boost::system::error_code;

// The longest a server-side close waits for the peer to finish sending (see linger_close).
constexpr std::chrono::seconds linger_time{1};
// How often a gated reply's wait asks its gate again (see scripted_reply::chunk_gate).
constexpr std::chrono::milliseconds gate_slice{20};

const std::string* find_header(const scripted_reply& reply, std::string_view name) {
    for (const auto& [key, value] : reply.headers)
        if (iequals(key, name)) return &value;
    return nullptr;
}

/// One accepted connection. Its socket and timer are closed by stop() to end whatever waits on them.
struct connection {
    connection(tcp::socket s, asio::ssl::context* ssl) : socket(std::move(s)), timer(socket.get_executor()) {
        if (ssl) tls.emplace(socket, *ssl);
    }

    /// Closes the TCP socket at once: no close_notify, so that a drop looks like a network failure.
    void close() noexcept {
        error_code ignored;
        socket.close(ignored);
        timer.cancel();
    }

    tcp::socket socket;
    std::optional<asio::ssl::stream<tcp::socket&>> tls;
    asio::steady_timer timer;
};

using request_parser = http::request_parser<http::string_body>;

// Runs `operation(stream)` on the connection's TLS stream or its plain socket.
template <class Operation>
auto on_stream(connection& c, Operation&& operation) {
    return c.tls ? operation(*c.tls) : operation(c.socket);
}

asio::awaitable<void> read_request(connection& c, beast::flat_buffer& buffer, request_parser& parser,
                                   error_code& ec) {
    co_await on_stream(c, [&](auto& stream) {
        return http::async_read(stream, buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
    });
}

asio::awaitable<void> read_header(connection& c, beast::flat_buffer& buffer, request_parser& parser,
                                  error_code& ec) {
    co_await on_stream(c, [&](auto& stream) {
        return http::async_read_header(stream, buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
    });
}

asio::awaitable<void> write_bytes(connection& c, std::string_view bytes, error_code& ec) {
    const asio::const_buffer buffer(bytes.data(), bytes.size());
    co_await on_stream(c, [&](auto& stream) {
        return asio::async_write(stream, buffer, asio::redirect_error(asio::use_awaitable, ec));
    });
}

/// Reads and drops what comes (raw TCP: the TLS session is over) until the peer leaves or the socket is closed.
asio::awaitable<void> drain(connection& c) {
    char sink[4096];
    for (;;) {
        error_code ec;
        co_await c.socket.async_read_some(asio::buffer(sink), asio::redirect_error(asio::use_awaitable, ec));
        if (ec) co_return;
    }
}

/** A graceful close by the server: stop sending, then read until the peer closes (at most
    linger_time). Closing with unread input would reset the connection, and a reset can
    discard the reply the peer has not read yet (a 413 sent before the body was read).
*/
asio::awaitable<void> linger_close(std::shared_ptr<connection> c) {
    error_code ignored;
    c->socket.shutdown(tcp::socket::shutdown_send, ignored);
    c->timer.expires_after(linger_time);
    c->timer.async_wait([c](error_code ec) {
        if (!ec) c->close();
    });
    co_await drain(*c);
    c->close();
}

std::string head_of(const scripted_reply& reply, bool chunked, bool close_after) {
    std::string reason(http::obsolete_reason(http::int_to_status(reply.status)));
    if (reason == "<unknown-status>") reason = "Status";
    std::string head = "HTTP/1.1 " + std::to_string(reply.status) + " " + reason + "\r\n";
    if (!reply.content_type.empty()) head += "Content-Type: " + reply.content_type + "\r\n";
    for (const auto& [name, value] : reply.headers) head += name + ": " + value + "\r\n";
    if (chunked && !find_header(reply, "Transfer-Encoding")) head += "Transfer-Encoding: chunked\r\n";
    if (!chunked && !find_header(reply, "Content-Length"))
        head += "Content-Length: " + std::to_string(reply.body.size()) + "\r\n";
    if (close_after && !find_header(reply, "Connection")) head += "Connection: close\r\n";
    head += "\r\n";
    return head;
}

/// Writes `reply` as raw bytes; false when the connection failed or was closed meanwhile.
asio::awaitable<bool> send(connection& c, const scripted_reply& reply, bool close_after) {
    if (reply.status == 0) co_return true; // a server that never answers
    const bool chunked = !reply.chunks.empty() || find_header(reply, "Transfer-Encoding");
    std::string bytes = head_of(reply, chunked, close_after);
    error_code ec;
    if (!chunked) {
        bytes += reply.body;
        co_await write_bytes(c, bytes, ec);
        co_return !ec;
    }
    co_await write_bytes(c, bytes, ec);
    bool first = true;
    for (std::size_t i = 0; i < reply.chunks.size(); ++i) {
        const std::string& chunk = reply.chunks[i];
        if (ec) co_return false;
        if (chunk.empty()) continue; // a zero-size chunk would end the body
        std::chrono::milliseconds delay = first ? std::chrono::milliseconds(0) : reply.chunk_delay;
        if (!reply.chunk_delays.empty())
            delay = i < reply.chunk_delays.size() ? reply.chunk_delays[i] : std::chrono::milliseconds(0);
        // A gated chunk's wait is cut in slices, so that a closed gate ends the reply soon.
        const auto due = std::chrono::steady_clock::now() + delay;
        bool open = true;
        for (;;) {
            open = !reply.chunk_gate || reply.chunk_gate(i);
            const auto left = due - std::chrono::steady_clock::now();
            if (!open || left <= std::chrono::steady_clock::duration::zero()) break;
            using duration = std::chrono::steady_clock::duration;
            c.timer.expires_after(reply.chunk_gate ? std::min<duration>(left, gate_slice) : left);
            co_await c.timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            if (ec || !c.socket.is_open()) co_return false;
        }
        if (!open) break;
        first = false;
        char size[24];
        const int n = std::snprintf(size, sizeof size, "%zx\r\n", chunk.size());
        bytes.assign(size, static_cast<std::size_t>(n)).append(chunk).append("\r\n");
        co_await write_bytes(c, bytes, ec);
    }
    if (!ec && reply.ending == reply_ending::complete) co_await write_bytes(c, "0\r\n\r\n", ec);
    co_return !ec;
}

received_request to_received(request_parser& parser) {
    auto& message = parser.get();
    received_request request{.method = std::string(message.method_string()),
                             .target = std::string(message.target()),
                             .headers = {},
                             .body = std::move(message.body())};
    for (const auto& field : message)
        request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    return request;
}

} // namespace

struct model_server::state {
    state(asio::any_io_executor ex, model_server_options o)
        : executor(std::move(ex)), options(std::move(o)), acceptor(executor) {}

    scripted_reply pick_reply(const received_request& request);
    // Members, so that they may name this private class.
    static asio::awaitable<void> accept_loop(std::shared_ptr<state> s);
    static asio::awaitable<void> serve(std::shared_ptr<state> s, std::shared_ptr<connection> c, std::uint64_t id);
    bool is_stopped() const {
        std::lock_guard lock(mutex);
        return stopped;
    }
    void forget(std::uint64_t id) {
        std::lock_guard lock(mutex);
        open.erase(id);
    }

    asio::any_io_executor executor;
    model_server_options options;
    std::string certificate;
    std::optional<asio::ssl::context> ssl;
    tcp::acceptor acceptor;
    tcp::endpoint bound; // kept: the acceptor forgets it once closed

    // What the public members read and write, possibly from another thread.
    mutable std::mutex mutex;
    std::deque<scripted_reply> queue;
    std::shared_ptr<const model_server::handler> reply_handler;
    std::vector<received_request> received;
    std::uint64_t next_request_number = 0; // numbers generated answers; clear_requests keeps it
    std::size_t accepted = 0;
    std::uint64_t next_id = 0;
    std::map<std::uint64_t, std::shared_ptr<connection>> open;
    bool stopped = false;

    detail::responses_endpoint responses; // stored responses; locks on its own
};

// Records the request, then asks the handler, the queue and the generator in turn.
scripted_reply model_server::state::pick_reply(const received_request& request) {
    std::shared_ptr<const model_server::handler> h;
    std::size_t index = 0;
    {
        std::lock_guard lock(mutex);
        index = next_request_number++;
        received.push_back(request);
        h = reply_handler;
    }
    try {
        if (h && *h)
            if (std::optional<scripted_reply> reply = (*h)(request)) return std::move(*reply);
        {
            std::lock_guard lock(mutex);
            if (!queue.empty()) {
                scripted_reply reply = std::move(queue.front());
                queue.pop_front();
                return reply;
            }
        }
        detail::generation generation{options, index};
        generation.seed += index;
        if (detail::serves_messages(request.target))
            return detail::generate_message(request.method, request.target, request.body, generation);
        if (detail::responses_endpoint::serves(request.target))
            return responses.answer(request.method, request.target, request.body, generation,
                                    std::chrono::steady_clock::now());
        return detail::generate_answer(request.method, request.target, request.body, generation);
    } catch (const std::exception& e) {
        // A throwing handler is a test's bug: say so to the client rather than drop the connection.
        return scripted_reply::error(500, "server_error", std::string("the model server failed: ") + e.what());
    }
}

asio::awaitable<void> model_server::state::serve(std::shared_ptr<model_server::state> s,
                                                 std::shared_ptr<connection> c, std::uint64_t id) {
    struct cleanup {
        model_server::state& s;
        connection& c;
        std::uint64_t id;
        ~cleanup() {
            c.close();
            s.forget(id);
        }
    } guard{*s, *c, id};

    error_code ec;
    if (c->tls) {
        co_await c->tls->async_handshake(asio::ssl::stream_base::server,
                                         asio::redirect_error(asio::use_awaitable, ec));
        if (ec) co_return;
    }
    beast::flat_buffer buffer;
    for (;;) {
        request_parser parser;
        parser.body_limit(s->options.max_request_size);
        co_await read_header(*c, buffer, parser, ec);
        // curl asks before sending a large body; a body over the limit fails above, before this.
        if (!ec && iequals(parser.get()[http::field::expect], "100-continue"))
            co_await write_bytes(*c, "HTTP/1.1 100 Continue\r\n\r\n", ec);
        if (!ec) co_await read_request(*c, buffer, parser, ec);
        if (ec) {
            // The peer left, or stop() closed the socket: nothing to answer.
            if (ec.category() != error_code(http::error::end_of_stream).category() || ec == http::error::end_of_stream ||
                ec == http::error::partial_message)
                co_return;
            const bool too_large = ec == http::error::body_limit || ec == http::error::buffer_overflow ||
                                   ec == http::error::header_limit;
            const scripted_reply reply =
                too_large ? scripted_reply::error(413, "invalid_request_error",
                                                  "The request is larger than this server accepts (" +
                                                      std::to_string(s->options.max_request_size) + " bytes).")
                          : scripted_reply::error(400, "invalid_request_error",
                                                  "The request is not valid HTTP: " + ec.message() + ".");
            if (co_await send(*c, reply, true)) co_await linger_close(c);
            co_return;
        }
        const bool keep_alive = parser.get().keep_alive();
        const received_request request = to_received(parser);
        const scripted_reply reply = s->pick_reply(request);
        const std::string* connection_header = find_header(reply, "Connection");
        const bool close_after = !keep_alive || (connection_header && iequals(*connection_header, "close"));
        if (!co_await send(*c, reply, close_after)) co_return;
        switch (reply.ending) {
        case reply_ending::drop:
            co_return; // the guard closes the socket
        case reply_ending::stall:
            co_await drain(*c);
            co_return;
        case reply_ending::complete:
            break;
        }
        if (close_after || reply.status == 0) {
            co_await linger_close(c);
            co_return;
        }
    }
}

asio::awaitable<void> model_server::state::accept_loop(std::shared_ptr<model_server::state> s) {
    asio::steady_timer backoff(s->executor);
    for (;;) {
        error_code ec;
        tcp::socket socket = co_await s->acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
        if (s->is_stopped() || !s->acceptor.is_open()) co_return;
        if (ec) {
            // Out of descriptors and the like: wait a little rather than spin.
            backoff.expires_after(std::chrono::milliseconds(10));
            co_await backoff.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            continue;
        }
        // Replies go out in several small writes (head, chunks): with Nagle's algorithm each
        // one after the first waits for the client's delayed ACK, some 40 ms per reply.
        socket.set_option(tcp::no_delay(true), ec);
        auto c = std::make_shared<connection>(std::move(socket), s->ssl ? &*s->ssl : nullptr);
        std::uint64_t id = 0;
        {
            std::lock_guard lock(s->mutex);
            id = s->next_id++;
            ++s->accepted;
            s->open.emplace(id, c);
        }
        asio::co_spawn(s->executor, serve(s, std::move(c), id), asio::detached);
    }
}

model_server::model_server(boost::asio::any_io_executor executor, model_server_options options)
    : state_(std::make_shared<state>(std::move(executor), std::move(options))) {
    state& s = *state_;
    if (s.options.tls) {
        forma::testing::certificate_pem pem = s.options.certificate ? *s.options.certificate : make_self_signed_certificate();
        s.ssl.emplace(asio::ssl::context::tls_server);
        s.ssl->use_certificate_chain(asio::buffer(pem.certificate));
        s.ssl->use_private_key(asio::buffer(pem.private_key), asio::ssl::context::pem);
        SSL_CTX* native = s.ssl->native_handle();
        const int min = s.options.versions == tls_versions::tls13_only ? TLS1_3_VERSION : TLS1_2_VERSION;
        const int max = s.options.versions == tls_versions::tls12_only ? TLS1_2_VERSION : TLS1_3_VERSION;
        SSL_CTX_set_min_proto_version(native, min);
        SSL_CTX_set_max_proto_version(native, max);
        s.certificate = std::move(pem.certificate);
    }
    error_code ec;
    const asio::ip::address address = s.options.address == "localhost"
                                          ? asio::ip::address(asio::ip::address_v4::loopback())
                                          : asio::ip::make_address(s.options.address, ec);
    if (ec) throw boost::system::system_error(ec, "model_server: '" + s.options.address + "' is not an IP address");
    const tcp::endpoint endpoint(address, s.options.port);
    s.acceptor.open(endpoint.protocol());
    s.acceptor.set_option(tcp::acceptor::reuse_address(true));
    s.acceptor.bind(endpoint, ec);
    if (ec)
        throw boost::system::system_error(ec, "model_server: cannot listen on " + s.options.address + " port " +
                                                  std::to_string(s.options.port));
    s.acceptor.listen();
    s.bound = s.acceptor.local_endpoint();
    asio::co_spawn(s.executor, state::accept_loop(state_), asio::detached);
}

model_server::~model_server() { stop(); }

unsigned short model_server::port() const noexcept { return state_->bound.port(); }

std::string model_server::base_url() const {
    asio::ip::address address = state_->bound.address();
    // A wildcard address is not one to connect to (nor in the certificate): name the loopback instead.
    if (address.is_unspecified())
        address = address.is_v6() ? asio::ip::address(asio::ip::address_v6::loopback())
                                  : asio::ip::address(asio::ip::address_v4::loopback());
    const std::string host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
    return std::string(state_->options.tls ? "https" : "http") + "://" + host + ":" + std::to_string(port()) + "/v1";
}

const std::string& model_server::certificate_pem() const noexcept { return state_->certificate; }

void model_server::enqueue(scripted_reply reply) {
    std::lock_guard lock(state_->mutex);
    state_->queue.push_back(std::move(reply));
}

void model_server::set_handler(handler h) {
    auto shared = std::make_shared<const handler>(std::move(h));
    std::lock_guard lock(state_->mutex);
    state_->reply_handler = std::move(shared);
}

std::vector<received_request> model_server::requests() const {
    std::lock_guard lock(state_->mutex);
    return state_->received;
}

void model_server::clear_requests() {
    std::lock_guard lock(state_->mutex);
    state_->received.clear();
    state_->received.shrink_to_fit();
}

std::size_t model_server::connections_accepted() const noexcept {
    std::lock_guard lock(state_->mutex);
    return state_->accepted;
}

std::size_t model_server::open_connections() const noexcept {
    std::lock_guard lock(state_->mutex);
    return state_->open.size();
}

void model_server::stop() {
    std::map<std::uint64_t, std::shared_ptr<connection>> open;
    {
        std::lock_guard lock(state_->mutex);
        if (state_->stopped) return;
        state_->stopped = true;
        open.swap(state_->open);
    }
    error_code ignored;
    state_->acceptor.close(ignored);
    for (auto& [id, c] : open) c->close();
}

} // namespace forma::testing
