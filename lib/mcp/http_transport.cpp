// The MCP Streamable HTTP transport: each message is POSTed; answers come back as a JSON body
// or as an SSE stream, which a reader of its own hands to receive().
#include <forma/mcp/http_transport.hpp>
#include <forma/mcp/mcp_error.hpp>
#include <forma/mcp/request_error.hpp>
#include <forma/net/sse_event.hpp>
#include <forma/net/transport_error.hpp>

#include "../json/body_excerpt.hpp"
#include "../json/json_rpc.hpp"
#include "../net/connection_pool.hpp"
#include "../net/credentials.hpp"
#include "../net/event_reader.hpp"
#include "../net/media_type.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <deque>
#include <optional>
#include <set>

namespace forma::mcp {

namespace {

namespace asio = boost::asio;
using net::detail::exchange_limits;
using net::detail::header_list;
using net::detail::http_connection;
using net::detail::http_response_head;
using opened = net::detail::connection_pool::opened;

constexpr std::size_t error_excerpt = 300;
constexpr auto delete_timeout = std::chrono::seconds(2);

using json_detail::json_rpc::answers;
using json_detail::json_rpc::request_id_of;

// A session id must be visible ASCII (MCP, "Session Management").
bool is_visible_ascii(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x21 && c <= 0x7e; });
}

// What the transport shares with the readers of its answer streams, which may outlive it.
struct http_link : std::enable_shared_from_this<http_link> {
    http_link(asio::any_io_executor ex, http_server s)
        : executor(std::move(ex)), options(std::move(s)), server(net::parse_base_url(options.url)),
          target(server.path.empty() ? "/" : server.path), name("MCP server at " + json_detail::valid_utf8(options.url)),
          connections(executor, server, tls_context(server, options)), arrived(executor, asio::steady_timer::time_point::max()) {
        secrets.add_named(options.headers);
    }

    static std::shared_ptr<ssl_ctx_st> tls_context(const net::base_url& server, const http_server& options) {
        if (!server.tls) return nullptr;
        return net::detail::make_tls_client_context(options.trust);
    }

    asio::any_io_executor executor;
    http_server options;
    net::detail::credentials secrets;
    net::base_url server;
    std::string target;
    std::string name;
    net::detail::connection_pool connections;
    std::string session_id;
    std::string protocol_version;
    std::set<http_connection*> streams; // answer streams being read; close() ends them
    struct inbound {
        std::string text; // a message, or why request `failed` failed
        std::optional<std::int64_t> failed{};
    };
    std::deque<inbound> inbox;
    asio::steady_timer arrived; // cancelled when a message or a failure arrives
    int posts_answered = 0;
    bool listening = false;
    bool closed = false;

    mcp_error error(const std::string& what) const { return mcp_error(name + ": " + what, name); }

    // The error of a POST that failed: its request's alone when it carried one, else the connection's.
    [[noreturn]] void fail_post(std::optional<std::int64_t> request, const std::string& what) const {
        if (request) throw request_error(name + ": " + what, name, *request);
        throw error(what);
    }

    void deliver(std::string message) {
        inbox.push_back({std::move(message)});
        arrived.cancel();
    }

    // Request `id` has no answer to come: receive() says so, and the connection goes on.
    void fail_request(std::int64_t id, std::string why) {
        inbox.push_back({name + ": " + why, id});
        arrived.cancel();
    }

    // The messages of a JSON body: one message, or a batch of them.
    void deliver_body(std::string body) {
        for (std::string& message : json_detail::json_rpc::messages_of(std::move(body))) deliver(std::move(message));
    }

    header_list request_headers() const {
        header_list headers(options.headers.begin(), options.headers.end());
        if (!session_id.empty()) headers.emplace_back("Mcp-Session-Id", session_id);
        if (!protocol_version.empty()) headers.emplace_back("MCP-Protocol-Version", protocol_version);
        return headers;
    }

    exchange_limits head_limits() const {
        net::timeouts limits = options.timeouts;
        limits.total = std::chrono::milliseconds::zero();
        return {limits, std::nullopt};
    }

    // A streamed answer may be silent while the server works; the client's request timeout bounds it.
    exchange_limits stream_limits() const {
        exchange_limits limits = head_limits();
        limits.limits.idle = std::chrono::milliseconds::zero();
        return limits;
    }

    // Sends a request and reads its head; a failure is `request`'s when it is one.
    asio::awaitable<opened> open(std::string_view method, std::string_view body, std::string_view accept,
                                 const exchange_limits& limits, std::optional<std::int64_t> request = std::nullopt) {
        const header_list headers = request_headers();
        const net::detail::http_request http{
            .method = method, .target = target, .accept = accept, .headers = &headers, .body = body};
        try {
            co_return co_await connections.open(http, limits);
        } catch (const transport_error& e) {
            fail_post(request, std::string("the request failed: ") + e.what());
        }
    }

    // Takes the session id the server gave (in the answer to initialize).
    void keep_session(const http_response_head& head) {
        const std::string_view id = head.header("Mcp-Session-Id");
        if (id.empty() || !session_id.empty()) return;
        if (!is_visible_ascii(id)) throw error("gave a session id that is not visible ASCII");
        session_id = std::string(id);
    }

    // The body of an answer that is not 2xx, for its error.
    asio::awaitable<std::string> error_text(opened& answer) {
        std::string text;
        try {
            text = co_await answer.connection->read_body(error_excerpt * 4, head_limits());
        } catch (const transport_error&) {
            // The status says enough.
        }
        text = json_detail::body_excerpt(text, error_excerpt);
        co_return text.empty() ? std::string() : ": " + text;
    }

    // Reads the messages of a stream: the answer to `request`, or the server's own (GET, no request).
    static asio::awaitable<void> read_stream(std::shared_ptr<http_link> self, std::unique_ptr<http_connection> connection,
                                             std::optional<std::int64_t> request) {
        // Unlisted however the frame ends, destroyed unresumed included (the io_context's shutdown).
        struct listed {
            http_link& link;
            http_connection* stream;
            ~listed() { link.streams.erase(stream); }
        } listing{*self, connection.get()};
        self->streams.insert(listing.stream);
        net::detail::event_reader events(*connection, self->options.max_message_size, self->stream_limits());
        std::optional<std::string> broken;
        bool answered = false;
        try {
            while (std::optional<net::sse_event> event = co_await events.next()) {
                if (event->type != "message" || event->data.empty()) continue;
                answered = answered || (request && answers(event->data, *request));
                self->deliver(std::move(event->data));
            }
        } catch (const std::exception& e) {
            broken = e.what();
        }
        if (!broken) {
            self->connections.give_back(std::move(connection));
        } else if (!self->closed && request && !answered) {
            // The server's own stream may end at any time; an answer's stream may not before the answer.
            self->fail_request(*request, "the connection broke while an answer was streamed (" +
                                             json_detail::valid_utf8(*broken) + ")");
        }
    }

    // The stream of the server's own messages (HTTP GET), where it offers one.
    static asio::awaitable<void> listen(std::shared_ptr<http_link> self) {
        try {
            const std::string_view no_body;
            opened answer = co_await self->open("GET", no_body, "text/event-stream", self->head_limits());
            if (answer.head.status == 200 &&
                net::detail::has_media_type(answer.head.header("Content-Type"), net::detail::event_stream_media_type)) {
                co_await read_stream(self, std::move(answer.connection), std::nullopt);
            }
        } catch (const std::exception&) {
            // No stream of its own (405) or none now: answers still come on the POSTs.
        }
    }

    asio::awaitable<void> post(std::string message) {
        if (closed) throw error("the transport is closed");
        const std::optional<std::int64_t> request = request_id_of(message);
        opened answer = co_await open("POST", message, "application/json, text/event-stream", head_limits(), request);
        const unsigned status = answer.head.status;
        if (status == 404 && !session_id.empty()) {
            throw error("ended the session (HTTP 404): connect a new client to start another");
        }
        if (status / 100 != 2) {
            const std::string said = co_await error_text(answer);
            fail_post(request, "answered HTTP " + std::to_string(status) + said);
        }
        keep_session(answer.head);
        if (status == 200 && net::detail::has_media_type(answer.head.header("Content-Type"), net::detail::event_stream_media_type)) {
            asio::co_spawn(executor, read_stream(shared_from_this(), std::move(answer.connection), request),
                           asio::detached);
        } else {
            std::string body;
            try {
                body = co_await answer.connection->read_body(options.max_message_size, head_limits());
            } catch (const transport_error& e) {
                fail_post(request, std::string("the answer could not be read: ") + e.what());
            }
            connections.give_back(std::move(answer.connection));
            if (status == 200) deliver_body(std::move(body));
        }
        // The first POST is initialize, the second the notification that ends the handshake.
        if (++posts_answered == 2 && options.listen && !listening && !session_id.empty()) {
            listening = true;
            asio::co_spawn(executor, listen(shared_from_this()), asio::detached);
        }
    }

    asio::awaitable<std::optional<std::string>> next_message() {
        for (;;) {
            if (!inbox.empty()) {
                inbound next = std::move(inbox.front());
                inbox.pop_front();
                if (next.failed) throw request_error(next.text, name, *next.failed);
                co_return std::move(next.text);
            }
            if (closed) co_return std::nullopt;
            arrived.expires_at(asio::steady_timer::time_point::max());
            boost::system::error_code ec;
            co_await arrived.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        }
    }

    void stop_streams() {
        closed = true;
        for (http_connection* stream : streams) stream->close();
        connections.close();
        arrived.cancel();
    }

    // Ends the session on the server (it may refuse: 405), within a short limit.
    asio::awaitable<void> end_session() {
        if (session_id.empty()) co_return;
        exchange_limits limits = head_limits();
        limits.limits.idle = std::min<std::chrono::milliseconds>(limits.limits.idle, delete_timeout);
        limits.deadline = std::chrono::steady_clock::now() + delete_timeout;
        try {
            const std::string_view no_body;
            opened answer = co_await open("DELETE", no_body, "application/json", limits);
            answer.connection->close();
        } catch (const std::exception&) {
            // The server is gone or busy: the session ends when it forgets it.
        }
    }
};

class http_transport final : public transport {
public:
    http_transport(asio::any_io_executor executor, http_server server)
        : link_(std::make_shared<http_link>(std::move(executor), std::move(server))) {}

    ~http_transport() override { link_->stop_streams(); }

    asio::awaitable<void> start() override { co_return; } // the first POST connects

    asio::awaitable<void> send(std::string message) override {
        const auto keep_alive = link_;
        co_await keep_alive->post(std::move(message));
    }

    asio::awaitable<std::optional<std::string>> receive() override {
        const auto keep_alive = link_;
        co_return co_await keep_alive->next_message();
    }

    asio::awaitable<void> close() override {
        const auto keep_alive = link_;
        if (keep_alive->closed) co_return;
        keep_alive->stop_streams();
        co_await keep_alive->end_session();
    }

    void use_protocol_version(const std::string& version) override { link_->protocol_version = version; }

    std::string describe() const override { return link_->name; }

private:
    std::shared_ptr<http_link> link_;
};

} // namespace

std::unique_ptr<transport> make_http_transport(boost::asio::any_io_executor executor, http_server server) {
    return std::make_unique<http_transport>(std::move(executor), std::move(server));
}

} // namespace forma::mcp
