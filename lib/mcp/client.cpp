// mcp::client: JSON-RPC 2.0 over a transport, a reader that hands each answer to its request.
#include <forma/mcp/client.hpp>
#include <forma/mcp/request_error.hpp>

#include "../json/json_rpc.hpp"
#include "../json/json_text.hpp"
#include "mcp_contents.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <set>

namespace forma::mcp {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;

constexpr std::array supported_protocol_versions{"2025-06-18", "2025-03-26", "2024-11-05"};

// JSON-RPC error codes (JSON-RPC 2.0, section 5.1).

std::string seconds_text(std::chrono::milliseconds d) {
    const auto ms = d.count();
    return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

std::string quoted(std::string_view text) {
    std::string out(1, '"');
    out += json_detail::valid_utf8(text);
    out += '"';
    return out;
}

} // namespace

struct client::state : std::enable_shared_from_this<state> {
    state(asio::any_io_executor ex, std::unique_ptr<transport> t, client_options o)
        : executor(std::move(ex)), link(std::move(t)), options(std::move(o)) {}

    // A request waiting for its answer: the reader stores it and cancels `signal`.
    struct pending_request {
        explicit pending_request(asio::any_io_executor ex) : signal(std::move(ex)) {}
        asio::steady_timer signal;
        std::string method;
        std::string tool; // for progress notifications
        std::optional<json::value> result;
        std::optional<mcp_error> failure;
        bool answered = false;
    };

    asio::any_io_executor executor;
    std::unique_ptr<transport> link;
    client_options options;
    server_info server;
    std::string name; // link->describe(), kept
    std::int64_t next_id = 1;
    std::map<std::int64_t, std::shared_ptr<pending_request>> pending;
    std::set<std::int64_t> abandoned; // timed out or cancelled: a late answer is expected
    std::deque<std::string> outbox;
    bool writing = false;
    bool connected = false;
    bool closed = false;
    std::optional<std::string> broken; // why no request can be made any more

    mcp_error failure(const std::string& what, std::optional<std::int64_t> code = {}) const {
        return mcp_error(name + ": " + what, name, code);
    }

    // Ends every waiting request with `why` (said of the server); later requests fail at once.
    void break_connection(const std::string& why) {
        std::string message = name + ": " + why;
        if (const std::string tail = closed ? std::string() : link->diagnostics(); !tail.empty()) {
            message += "; its stderr ends with: " + tail;
        }
        break_connection_with(std::move(message));
    }

    // The same, with a whole message that names the server already (the transport's).
    void break_connection_with(std::string message) {
        if (!broken) broken = std::move(message);
        for (auto& [id, request] : pending) {
            if (request->answered) continue;
            request->answered = true;
            request->failure = mcp_error(*broken, name);
            request->signal.cancel();
        }
    }

    // Messages go out one at a time, in order, from one writer.
    void post(std::string message) {
        outbox.push_back(std::move(message));
        if (writing) return;
        writing = true;
        asio::co_spawn(executor, write_all(shared_from_this()), asio::detached);
    }

    static asio::awaitable<void> write_all(std::shared_ptr<state> self) {
        while (!self->outbox.empty() && !self->broken) {
            std::string message = std::move(self->outbox.front());
            self->outbox.pop_front();
            try {
                co_await self->link->send(std::move(message));
            } catch (const request_error& e) {
                self->fail_request(e);
            } catch (const mcp_error& e) {
                self->break_connection_with(e.what());
            } catch (const std::exception& e) {
                self->break_connection(std::string("sending failed: ") + e.what());
            }
        }
        self->outbox.clear();
        self->writing = false;
    }

    // Fails the request `e` names alone: the connection is still good.
    void fail_request(const request_error& e) {
        const auto found = pending.find(e.request_id());
        if (found == pending.end() || found->second->answered) return;
        found->second->answered = true;
        found->second->failure = mcp_error(e.what(), name);
        found->second->signal.cancel();
    }

    static asio::awaitable<void> read_all(std::shared_ptr<state> self) {
        try {
            for (;;) {
                std::optional<std::string> message;
                try {
                    message = co_await self->link->receive();
                } catch (const request_error& e) {
                    self->fail_request(e);
                    continue;
                }
                if (!message) {
                    self->break_connection(self->closed ? "the client was closed" : "the server closed the connection");
                    co_return;
                }
                self->dispatch(*message);
                if (self->broken) co_return;
            }
        } catch (const mcp_error& e) {
            self->break_connection_with(e.what());
        } catch (const std::exception& e) {
            self->break_connection(self->closed ? "the client was closed" : std::string("reading failed: ") + e.what());
        }
    }

    void dispatch(const std::string& text) {
        boost::system::error_code ec;
        json::value message = json::parse(text, ec);
        if (ec || !message.is_object()) {
            break_connection("sent a message that is not a JSON-RPC object: " + quoted(text.substr(0, 200)));
            return;
        }
        namespace rpc = json_detail::json_rpc;
        const rpc::message_view view = rpc::classify(message);
        if (view.kind == rpc::message_kind::request) {
            answer_server_request(*view.id, view.method);
            return;
        }
        if (view.kind == rpc::message_kind::notification) {
            notification(view.method, view.params);
            return;
        }
        if (view.kind != rpc::message_kind::response) {
            break_connection("sent a message that is neither a request, a notification nor an answer: " +
                             quoted(text.substr(0, 200)));
            return;
        }
        const std::int64_t id = *view.response_id;
        const auto found = pending.find(id);
        if (found == pending.end() || found->second->answered) {
            if (abandoned.erase(id) == 0) {
                break_connection("answered a request it was never sent (id " + std::to_string(id) + ")");
            }
            return;
        }
        pending_request& request = *found->second;
        request.answered = true;
        rpc::response_outcome answer = rpc::outcome(message.get_object());
        if (answer.error) {
            request.failure = failure(request.method + " failed: " + answer.error->text, answer.error->code);
        } else if (answer.result) {
            request.result = std::move(*answer.result);
        } else {
            request.failure = failure("answered " + request.method + " with neither a result nor an error");
        }
        request.signal.cancel();
    }

    void answer_server_request(const json::value& id, std::string_view method) {
        if (method == "ping") {
            post(json_detail::json_rpc::result_reply(id, json::object()));
            return;
        }
        post(json_detail::json_rpc::error_reply(id, json_detail::json_rpc::method_not_found,
                                               "forma's MCP client does not offer " + std::string(method)));
    }

    void notification(std::string_view method, const json::value* params_value) {
        const json::object* params = params_value && params_value->is_object() ? &params_value->get_object() : nullptr;
        if (method == "notifications/progress" && params && options.on_progress) {
            const json::value* token = params->if_contains("progressToken");
            const json::value* value = params->if_contains("progress");
            if (!token || !token->is_int64() || !value || !value->is_number()) return;
            const auto found = pending.find(token->get_int64());
            if (found == pending.end()) return;
            progress p{found->second->tool, value->to_number<double>()};
            if (const json::value* total = params->if_contains("total"); total && total->is_number()) {
                p.total = total->to_number<double>();
            }
            if (const json::value* text = params->if_contains("message"); text && text->is_string()) {
                p.message = json_detail::valid_utf8(text->get_string());
            }
            options.on_progress(p);
        } else if (method == "notifications/message" && params && options.on_log) {
            log_message log;
            if (const json::value* level = params->if_contains("level"); level && level->is_string()) {
                log.level = json_detail::valid_utf8(level->get_string());
            }
            if (const json::value* logger = params->if_contains("logger"); logger && logger->is_string()) {
                log.logger = json_detail::valid_utf8(logger->get_string());
            }
            if (const json::value* data = params->if_contains("data")) log.data = *data;
            options.on_log(log);
        } else if (method == "notifications/tools/list_changed" && options.on_tools_changed) {
            options.on_tools_changed();
        }
    }

    // One request and its answer's result. The caller's cancellation and the timeout
    // cancel it on the server too.
    asio::awaitable<json::value> request(std::string method, json::object params, std::chrono::milliseconds timeout,
                                         std::string tool = {}) {
        const auto keep_alive = shared_from_this(); // the frame may outlive the client
        if (closed) throw failure("the client is closed");
        if (broken) throw mcp_error(*broken, name);
        if (!connected && method != "initialize") throw failure("connect() was not called, or did not succeed");
        const std::int64_t id = next_id++;
        auto waiting = std::make_shared<pending_request>(executor);
        waiting->method = method;
        waiting->tool = std::move(tool);
        waiting->signal.expires_after(timeout);
        pending.emplace(id, waiting);
        struct forget {
            state* s;
            std::int64_t id;
            ~forget() { s->pending.erase(id); }
        } forget_on_exit{this, id};
        if (!waiting->tool.empty()) params["_meta"] = {{"progressToken", id}};
        post(json_detail::json_rpc::request(id, method, std::move(params)));

        boost::system::error_code ec;
        co_await waiting->signal.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        if (waiting->answered) {
            if (waiting->failure) throw *waiting->failure;
            co_return std::move(*waiting->result);
        }
        // Not answered: cancelled by the caller, or out of time. The server is told.
        waiting->answered = true;
        abandoned.insert(id);
        const bool cancelled = ec == asio::error::operation_aborted;
        post(json_detail::json_rpc::notification(
            "notifications/cancelled", {{"requestId", id}, {"reason", cancelled ? "cancelled by the client" : "timed out"}}));
        if (cancelled) throw boost::system::system_error(asio::error::operation_aborted);
        throw failure("did not answer " + method + " within " + seconds_text(timeout));
    }
};

client::client(asio::any_io_executor executor, std::unique_ptr<transport> link, client_options options)
    : state_(std::make_shared<state>(std::move(executor), std::move(link), std::move(options))) {
    state_->name = state_->link->describe();
}

client::~client() {
    if (state_->closed) return;
    // Still open: close in the background; the state lives until it is done.
    asio::co_spawn(state_->executor, [s = state_]() -> asio::awaitable<void> {
        co_await client::close_state(s);
    }, asio::detached);
}

asio::awaitable<void> client::connect() {
    state& s = *state_;
    if (s.connected) co_return;
    co_await s.link->start();
    asio::co_spawn(s.executor, state::read_all(state_), asio::detached);
    json::object params{{"protocolVersion", latest_protocol_version},
                        {"capabilities", json::object()},
                        {"clientInfo", {{"name", s.options.client_name}, {"version", s.options.client_version}}}};
    const json::value answer = co_await s.request("initialize", std::move(params), s.options.connect_timeout);
    if (!answer.is_object()) throw s.failure("answered initialize with a result that is not an object");
    const json::object& result = answer.get_object();
    const json::value* version = result.if_contains("protocolVersion");
    if (!version || !version->is_string()) throw s.failure("answered initialize without a protocolVersion");
    const std::string_view offered = version->get_string();
    if (std::find(supported_protocol_versions.begin(), supported_protocol_versions.end(), offered) ==
        supported_protocol_versions.end()) {
        throw s.failure("speaks MCP protocol version " + quoted(offered) + ", which forma does not (it speaks " +
                        std::string(latest_protocol_version) + ", 2025-03-26 and 2024-11-05)");
    }
    server_info info;
    info.protocol_version = std::string(offered);
    if (const json::value* server = result.if_contains("serverInfo"); server && server->is_object()) {
        const json::object& o = server->get_object();
        if (const json::value* n = o.if_contains("name"); n && n->is_string()) info.name = json_detail::valid_utf8(n->get_string());
        if (const json::value* v = o.if_contains("version"); v && v->is_string()) info.version = json_detail::valid_utf8(v->get_string());
    }
    if (const json::value* caps = result.if_contains("capabilities"); caps && caps->is_object()) info.capabilities = caps->get_object();
    if (const json::value* text = result.if_contains("instructions"); text && text->is_string()) {
        info.instructions = json_detail::valid_utf8(text->get_string());
    }
    s.link->use_protocol_version(info.protocol_version);
    s.server = std::move(info);
    s.connected = true;
    s.post(json_detail::json_rpc::notification("notifications/initialized", {}));
}

const server_info& client::server() const noexcept { return state_->server; }

asio::awaitable<std::vector<tool_info>> client::list_tools() {
    state& s = *state_;
    std::vector<tool_info> tools;
    std::set<std::string> cursors_seen;
    std::optional<std::string> cursor;
    for (;;) {
        json::object params;
        if (cursor) params["cursor"] = *cursor;
        const json::value answer = co_await s.request("tools/list", std::move(params), s.options.request_timeout);
        const json::object* result = answer.if_object();
        const json::value* list = result ? result->if_contains("tools") : nullptr;
        if (!list || !list->is_array()) throw s.failure("answered tools/list without a \"tools\" array");
        for (const json::value& entry : list->get_array()) {
            tools.push_back(detail::read_tool_info(entry, s.name));
            if (tools.size() > s.options.max_tools) {
                throw s.failure("lists more than " + std::to_string(s.options.max_tools) + " tools (client_options::max_tools)");
            }
        }
        const json::value* next = result->if_contains("nextCursor");
        if (!next || !next->is_string()) co_return tools;
        cursor = std::string(next->get_string());
        if (!cursors_seen.insert(*cursor).second) throw s.failure("repeats the tools/list cursor " + quoted(*cursor));
    }
}

asio::awaitable<call_result> client::call_tool(std::string name, json::object arguments) {
    state& s = *state_;
    json::object params{{"name", name}, {"arguments", std::move(arguments)}};
    const json::value answer = co_await s.request("tools/call", std::move(params), s.options.request_timeout, name);
    if (!answer.is_object()) throw s.failure("answered tools/call with a result that is not an object");
    co_return detail::read_call_result(answer.get_object(), s.name);
}

asio::awaitable<void> client::ping() {
    (void)co_await state_->request("ping", json::object(), state_->options.request_timeout);
}

asio::awaitable<void> client::close() { co_await close_state(state_); }

asio::awaitable<void> client::close_state(std::shared_ptr<state> s) {
    if (s->closed) co_return;
    s->closed = true;
    s->break_connection("the client was closed");
    co_await s->link->close();
}

std::string client::describe() const { return state_->name; }

asio::any_io_executor client::get_executor() const noexcept { return state_->executor; }

std::string call_result::text() const {
    std::string out;
    for (const content& c : contents) {
        if (const auto* t = std::get_if<text_content>(&c)) {
            if (!out.empty()) out += '\n';
            out += t->text;
        }
    }
    return out;
}

} // namespace forma::mcp
