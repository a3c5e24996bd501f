// forma::mcp::server: the transports (stdio, Streamable HTTP) around server_session.
#include <forma/mcp/server.hpp>

#include <forma/error.hpp>

#include "../json/json_rpc.hpp"
#include "../json/json_text.hpp"
#include "../net/media_type.hpp"
#include "../text/random_hex.hpp"
#include "ordered_writes.hpp"
#include "server_session.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/parse.hpp>

#include <chrono>
#include <map>
#include <unistd.h>

namespace forma::mcp {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace rpc = json_detail::json_rpc;

using rpc::invalid_request;
using rpc::parse_error;

net::http_reply json_reply(unsigned status, std::string body) {
    return {.status = status, .content_type = "application/json", .body = std::move(body)};
}

net::http_reply rpc_error_shape(unsigned status, std::string_view message) {
    return json_reply(status, rpc::error_reply(nullptr, invalid_request, json_detail::valid_utf8(message)));
}

} // namespace

struct server::state {
    state(asio::any_io_executor ex, std::vector<function_tool> tools, server_options options)
        : catalog(std::make_shared<detail::server_catalog>(detail::server_catalog{ex, std::move(tools), std::move(options)})) {}

    std::shared_ptr<detail::server_catalog> catalog;
    std::vector<std::weak_ptr<detail::server_session>> stdio_sessions;

    struct http_session {
        std::shared_ptr<detail::server_session> session;
        std::chrono::steady_clock::time_point last_used;
        std::string caller; // who initialized it (net::server_request::caller): only that caller reaches it
        std::shared_ptr<asio::steady_timer> stream_end{}; // the open GET stream's, canceled when the session ends

        // Cancels its calls and ends its GET stream.
        void end() const {
            session->cancel_all();
            if (stream_end) stream_end->expires_at(asio::steady_timer::time_point::min()); // ends a wait begun later too
        }
    };
    std::map<std::string, http_session> sessions;

    const server_options& options() const { return catalog->options; }

    bool idle_past_timeout(const http_session& s) const {
        if (s.stream_end) return false; // a client listening on its stream is not idle
        const auto idle = options().session_idle_timeout;
        return idle.count() > 0 && std::chrono::steady_clock::now() - s.last_used > idle;
    }

    // Ends the sessions idle past session_idle_timeout, then the idlest ones past max_sessions.
    void make_room() {
        for (auto it = sessions.begin(); it != sessions.end();) {
            if (!idle_past_timeout(it->second)) {
                ++it;
                continue;
            }
            it->second.end();
            it = sessions.erase(it);
        }
        while (!sessions.empty() && sessions.size() >= std::max<std::size_t>(options().max_sessions, 1)) {
            auto idlest = sessions.begin();
            for (auto it = sessions.begin(); it != sessions.end(); ++it)
                if (it->second.last_used < idlest->second.last_used) idlest = it;
            idlest->second.end();
            sessions.erase(idlest);
        }
    }

    // POST: one message from the client.
    asio::awaitable<void> post(net::server_request& request, net::response_writer& writer) {
        const std::string* content_type = request.header("Content-Type");
        if (!content_type || !net::detail::has_media_type(*content_type, net::detail::json_media_type)) {
            co_await writer.send(rpc_error_shape(415, "an MCP message is JSON: Content-Type must be application/json"));
            co_return;
        }
        boost::system::error_code ec;
        json::value message = json::parse(request.body, ec);
        if (ec) {
            co_await writer.send(json_reply(400, rpc::error_reply(nullptr, parse_error, "the body is not JSON: " + ec.message())));
            co_return;
        }
        if (!message.is_object()) {
            co_await writer.send(rpc_error_shape(400, "send one JSON-RPC message per request (batches are not taken)"));
            co_return;
        }
        const rpc::checked_message checked = rpc::classify_received(message);
        if (checked.view.kind == rpc::message_kind::invalid) {
            co_await writer.send(json_reply(400, rpc::error_reply(rpc::answer_id(message), invalid_request, checked.problem)));
            co_return;
        }
        const rpc::message_view& view = checked.view;
        // Refused before a session answers: in JSON-RPC's shape, with the message's id.
        const auto refusal = [&message](unsigned status, const std::string& why) {
            return json_reply(status, rpc::error_reply(rpc::answer_id(message), invalid_request, why));
        };
        std::shared_ptr<detail::server_session> session;
        std::string session_id;
        if (view.kind == rpc::message_kind::request && view.method == "initialize") {
            make_room();
            session = std::make_shared<detail::server_session>(catalog);
            session_id = text_detail::random_hex_id();
            sessions[session_id] = {session, std::chrono::steady_clock::now(), request.caller};
        } else {
            const std::string* given = request.header("Mcp-Session-Id");
            if (!given) {
                co_await writer.send(refusal(400, "an Mcp-Session-Id header is needed after initialize"));
                co_return;
            }
            auto it = sessions.find(*given);
            if (it != sessions.end() && idle_past_timeout(it->second)) {
                it->second.end();
                sessions.erase(it);
                it = sessions.end();
            }
            if (it == sessions.end() || it->second.caller != request.caller) {
                co_await writer.send(refusal(404, "the session " + json_detail::valid_utf8(*given) + " is unknown or has ended; initialize again"));
                co_return;
            }
            if (const std::string* version = request.header("MCP-Protocol-Version");
                version && !detail::supported_protocol_version(*version)) {
                co_await writer.send(refusal(400, "the MCP protocol version " + json_detail::valid_utf8(*version) + " is not one this server speaks"));
                co_return;
            }
            it->second.last_used = std::chrono::steady_clock::now();
            session = it->second.session;
            session_id = *given;
        }
        if (view.kind != rpc::message_kind::request) {
            detail::server_session::notify_function no_notifications;
            (void)co_await session->handle(message, std::move(no_notifications));
            net::http_reply accepted{.status = 202, .content_type = {}};
            co_await writer.send(std::move(accepted));
            co_return;
        }
        // The answer is JSON, unless the server sends something first (progress, a log, a request
        // of its own): then an event stream of those messages, the answer last. A call that asked
        // for progress gets its stream's head at once, for clients that wait for a head.
        const std::vector<std::pair<std::string, std::string>> session_header{{"Mcp-Session-Id", session_id}};
        auto stream_head = [&session_header] {
            net::http_reply head{.status = 200, .content_type = "text/event-stream", .headers = session_header};
            head.headers.emplace_back("Cache-Control", "no-cache");
            return head;
        };
        bool streaming = detail::server_session::wants_progress(message);
        if (streaming) co_await writer.start(stream_head());
        detail::ordered_writes events(catalog->executor, [&writer, &stream_head, started = streaming](std::string m) mutable -> asio::awaitable<void> {
            if (!started) {
                started = true;
                co_await writer.start(stream_head());
            }
            co_await writer.write(net::format_sse_event(m, "message"));
        });
        detail::server_session::notify_function to_events = [&events, &streaming](std::string m) {
            streaming = true;
            events.push(std::move(m));
        };
        std::optional<std::string> answer;
        std::exception_ptr failure;
        try {
            answer = co_await session->handle(message, to_events);
        } catch (...) {
            failure = std::current_exception();
        }
        if (writer.server_stopped() && (failure || !answer)) {
            // Stopped before it was answered (the call canceled): the answer says so.
            failure = nullptr;
            answer = rpc::error_reply(*view.id, rpc::internal_error, "the server is shutting down; the request was not finished");
            co_await asio::this_coro::reset_cancellation_state();
        }
        if (failure) {
            // The writes hold `writer`: wait for them before this frame goes.
            co_await asio::this_coro::reset_cancellation_state();
            co_await events.drained();
            std::rethrow_exception(failure);
        }
        if (!streaming) {
            // A canceled call gets no answer: 202 and no body, as for a notification.
            net::http_reply reply = answer ? json_reply(200, std::move(*answer)) : net::http_reply{.status = 202, .content_type = {}};
            reply.headers = session_header;
            co_await writer.send(std::move(reply));
            co_return;
        }
        if (answer) events.push(std::move(*answer));
        // The writes hold `writer`: wait for them even when the request is canceled (the server
        // stops), or they would write through a writer gone with this frame.
        co_await asio::this_coro::reset_cancellation_state();
        co_await events.drained();
        co_await writer.finish();
    }

    // GET: the stream of what the server sends outside any request (resources/updated), one a session.
    asio::awaitable<void> listen(net::server_request& request, net::response_writer& writer) {
        const std::string* given = request.header("Mcp-Session-Id");
        auto it = given ? sessions.find(*given) : sessions.end();
        if (it != sessions.end() && (it->second.caller != request.caller || idle_past_timeout(it->second))) it = sessions.end();
        if (it == sessions.end()) {
            net::http_reply refused = given ? rpc_error_shape(404, "the session is unknown or has ended; initialize again")
                                            : rpc_error_shape(400, "an Mcp-Session-Id header is needed");
            co_await writer.send(std::move(refused));
            co_return;
        }
        if (it->second.stream_end) {
            co_await writer.send(rpc_error_shape(409, "the session has a stream open already"));
            co_return;
        }
        const std::shared_ptr<detail::server_session> session = it->second.session;
        auto stream_end = std::make_shared<asio::steady_timer>(catalog->executor, asio::steady_timer::time_point::max());
        it->second.stream_end = stream_end;
        net::http_reply head{.status = 200, .content_type = "text/event-stream", .headers = {{"Mcp-Session-Id", *given}}};
        head.headers.emplace_back("Cache-Control", "no-cache");
        detail::ordered_writes events(catalog->executor, [&writer](std::string m) -> asio::awaitable<void> {
            co_await writer.write(net::format_sse_event(m, "message"));
        });
        const std::string session_id = *given;
        try {
            co_await writer.start(std::move(head));
            session->set_unsolicited([events](std::string m) mutable { events.push(std::move(m)); });
            // Until the session ends (stream_end expires), the client leaves or the server stops
            // (this handler canceled).
            co_await stream_end->async_wait(asio::as_tuple(asio::use_awaitable));
        } catch (...) {
        }
        session->set_unsolicited({});
        if (const auto open = sessions.find(session_id); open != sessions.end() && open->second.stream_end == stream_end) {
            open->second.stream_end.reset();
            open->second.last_used = std::chrono::steady_clock::now();
        }
        // The writes hold `writer`: wait for them even when canceled.
        co_await asio::this_coro::reset_cancellation_state();
        co_await events.drained();
        if (events.failed()) co_return;
        try {
            co_await writer.finish();
        } catch (const std::exception&) {
            // the client is gone: nothing to end
        }
    }

    asio::awaitable<void> end_session(net::server_request& request, net::response_writer& writer) {
        const std::string* given = request.header("Mcp-Session-Id");
        auto it = given ? sessions.find(*given) : sessions.end();
        if (it != sessions.end() && it->second.caller != request.caller) it = sessions.end();
        if (it == sessions.end()) {
            net::http_reply refused = given ? rpc_error_shape(404, "the session is unknown or has ended")
                                            : rpc_error_shape(400, "an Mcp-Session-Id header is needed");
            co_await writer.send(std::move(refused));
            co_return;
        }
        it->second.end();
        sessions.erase(it);
        net::http_reply ended{.status = 200, .content_type = {}};
        co_await writer.send(std::move(ended));
    }
};

server::server(asio::any_io_executor executor, std::vector<function_tool> tools, server_options options)
    : state_(std::make_shared<state>(std::move(executor), std::move(tools), std::move(options))) {}

server::~server() {
    for (auto& [id, s] : state_->sessions) s.end();
}

std::size_t server::sessions() const noexcept { return state_->sessions.size(); }

namespace {

template <class Items, class Key>
void refuse_twice(const Items& items, const Key& key, std::string_view what, const std::string& name) {
    if (std::any_of(items.begin(), items.end(), [&](const auto& item) { return key(item) == name; })) {
        throw error("the MCP server serves a " + std::string(what) + " \"" + name + "\" already");
    }
}

void require(bool present, std::string_view what) {
    if (!present) throw error("an MCP " + std::string(what) + " is needed");
}

} // namespace

void server::add(server_tool tool) {
    require(!tool.name.empty() && bool(tool.invoke), "server_tool needs a name and an invoke function");
    if (state_->catalog->has_tool(tool.name)) throw error("the MCP server serves a tool \"" + tool.name + "\" already");
    state_->catalog->server_tools.push_back(std::move(tool));
}

void server::add(resource r) {
    require(!r.uri.empty() && !r.name.empty() && bool(r.read), "resource needs a uri, a name and a read function");
    refuse_twice(state_->catalog->resources, [](const resource& x) { return x.uri; }, "resource", r.uri);
    state_->catalog->resources.push_back(std::move(r));
}

void server::add(resource_template t) {
    require(!t.uri_template.empty() && !t.name.empty() && bool(t.read), "resource_template needs a uri_template, a name and a read function");
    refuse_twice(state_->catalog->templates, [](const resource_template& x) { return x.uri_template; }, "resource template", t.uri_template);
    state_->catalog->templates.push_back(std::move(t));
}

void server::add(prompt p) {
    require(!p.name.empty() && bool(p.get), "prompt needs a name and a get function");
    refuse_twice(state_->catalog->prompts, [](const prompt& x) { return x.name; }, "prompt", p.name);
    state_->catalog->prompts.push_back(std::move(p));
}

void server::resource_updated(const std::string& uri) {
    auto& stdio = state_->stdio_sessions;
    std::erase_if(stdio, [](const auto& s) { return s.expired(); });
    for (const auto& weak : stdio) weak.lock()->resource_updated(uri);
    for (auto& [id, s] : state_->sessions) s.session->resource_updated(uri);
}

net::http_routes server::routes() const {
    net::http_routes routes;
    routes.shape_errors(&rpc_error_shape);
    const auto s = state_;
    const std::string& path = s->options().path;
    routes.add("POST", path, [s](net::server_request& r, net::response_writer& w) -> asio::awaitable<void> { co_await s->post(r, w); });
    routes.add("GET", path, [s](net::server_request& r, net::response_writer& w) -> asio::awaitable<void> { co_await s->listen(r, w); });
    routes.add("DELETE", path, [s](net::server_request& r, net::response_writer& w) -> asio::awaitable<void> { co_await s->end_session(r, w); });
    return routes;
}

asio::awaitable<void> server::serve_stdio(int input_fd, int output_fd) {
    const auto s = state_;
    const asio::any_io_executor executor = s->catalog->executor;
    asio::posix::stream_descriptor input(executor, ::dup(input_fd));
    auto output = std::make_shared<asio::posix::stream_descriptor>(executor, ::dup(output_fd));
    detail::ordered_writes writes(executor, [output](std::string m) -> asio::awaitable<void> {
        m += '\n';
        co_await asio::async_write(*output, asio::buffer(m), asio::use_awaitable);
    });
    auto session = std::make_shared<detail::server_session>(s->catalog);
    auto notify = [writes](std::string m) mutable { writes.push(std::move(m)); };
    session->set_unsolicited(notify);
    s->stdio_sessions.push_back(session);
    std::string buffer;
    std::size_t running = 0;
    asio::steady_timer calls_done(executor);
    for (;;) {
        boost::system::error_code ec;
        const std::size_t n = co_await asio::async_read_until(input, asio::dynamic_buffer(buffer), '\n',
                                                              asio::redirect_error(asio::use_awaitable, ec));
        if (ec) break; // the client closed our input: the session is over
        std::string line = buffer.substr(0, n - 1);
        buffer.erase(0, n);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        json::value message = json::parse(line, ec);
        if (ec) {
            writes.push(rpc::error_reply(nullptr, parse_error, "the line is not JSON: " + ec.message()));
            continue;
        }
        // Each message runs on its own, so that a long call does not hold up a cancellation.
        ++running;
        asio::co_spawn(executor,
                       [](std::shared_ptr<detail::server_session> session, json::value message, decltype(notify) notify,
                          detail::ordered_writes writes, std::size_t& running, asio::steady_timer& done) -> asio::awaitable<void> {
                           std::optional<std::string> answer;
                           try {
                               answer = co_await session->handle(message, notify);
                           } catch (const std::exception& e) {
                               const json::value* id = message.is_object() ? message.get_object().if_contains("id") : nullptr;
                               answer = rpc::error_reply(id ? *id : json::value(nullptr), rpc::internal_error, e.what());
                           }
                           if (answer) writes.push(std::move(*answer));
                           if (--running == 0) done.cancel();
                       }(session, std::move(message), notify, writes, running, calls_done),
                       asio::detached);
    }
    // The calls hold `running` and `calls_done`: wait for them even when this wait is canceled
    // (an awaitable throws at once in a canceled coroutine, which would free both under them).
    co_await asio::this_coro::reset_cancellation_state();
    session->cancel_all();
    while (running > 0) {
        calls_done.expires_at(asio::steady_timer::time_point::max());
        co_await calls_done.async_wait(asio::as_tuple(asio::use_awaitable));
    }
    co_await writes.drained();
}

} // namespace forma::mcp
