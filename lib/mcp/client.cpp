// mcp::client: JSON-RPC 2.0 over a transport, a reader that hands each answer to its request.
#include <forma/mcp/client.hpp>
#include <forma/mcp/request_error.hpp>

#include "../json/json_rpc.hpp"
#include "../json/json_text.hpp"
#include "mcp_contents.hpp"
#include "sampling_wire.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
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

constexpr std::array supported_protocol_versions{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

// JSON-RPC error codes (JSON-RPC 2.0, section 5.1).

std::string seconds_text(std::chrono::milliseconds d) {
    const auto ms = d.count();
    return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
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
    std::map<std::string, std::shared_ptr<asio::cancellation_signal>> answering; // the server's requests being answered, by id
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
        const auto stops = answering; // no one to answer now
        for (const auto& [id, stop] : stops) stop->emit(asio::cancellation_type::terminal);
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
            break_connection("sent a message that is not a JSON-RPC object: " + json_detail::quoted(text.substr(0, 200)));
            return;
        }
        namespace rpc = json_detail::json_rpc;
        const rpc::message_view view = rpc::classify(message);
        if (view.kind == rpc::message_kind::request) {
            answer_server_request(*view.id, view.method, view.params);
            return;
        }
        if (view.kind == rpc::message_kind::notification) {
            notification(view.method, view.params);
            return;
        }
        if (view.kind != rpc::message_kind::response) {
            break_connection("sent a message that is neither a request, a notification nor an answer: " +
                             json_detail::quoted(text.substr(0, 200)));
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

    void answer_server_request(const json::value& id, std::string_view method, const json::value* params_value) {
        namespace rpc = json_detail::json_rpc;
        if (method == "ping") {
            post(rpc::result_reply(id, json::object()));
            return;
        }
        const bool sampling = method == "sampling/createMessage" && options.on_sampling;
        const bool elicitation = method == "elicitation/create" && options.on_elicitation;
        if (!sampling && !elicitation) {
            post(rpc::error_reply(id, rpc::method_not_found, "forma's MCP client does not offer " + json_detail::valid_utf8(method)));
            return;
        }
        const std::string key = json::serialize(id);
        if (answering.size() >= options.max_server_requests || answering.contains(key)) {
            post(rpc::error_reply(id, rpc::internal_error,
                                  "forma's MCP client answers " + std::to_string(options.max_server_requests) + " requests at once"));
            return;
        }
        const json::object params = params_value && params_value->is_object() ? params_value->get_object() : json::object();
        auto stop = std::make_shared<asio::cancellation_signal>();
        answering.emplace(key, stop);
        // The completion holds the signal: its slot is cleared when the answer ends, after the map let go.
        asio::co_spawn(executor, answer(shared_from_this(), id, sampling, params),
                       asio::bind_cancellation_slot(stop->slot(), [stop](std::exception_ptr) {}));
    }

    // Answers one sampling or elicitation request with the caller's handler; canceled (the server
    // gave up, the client closed), it answers nothing.
    static asio::awaitable<void> answer(std::shared_ptr<state> self, json::value id, bool sampling, json::object params) {
        namespace rpc = json_detail::json_rpc;
        std::string reply;
        bool canceled = false;
        try {
            if (sampling) {
                const sampling_result result = co_await self->options.on_sampling(detail::read_sampling_request(params, self->name));
                reply = rpc::result_reply(id, detail::sampling_result_json(result, self->server.protocol_version >= "2025-11-25"));
            } else {
                elicitation_request request = detail::read_elicitation_request(params, self->name);
                const json::object schema = request.requested_schema;
                const elicitation_result result = co_await self->options.on_elicitation(std::move(request));
                reply = rpc::result_reply(id, detail::elicitation_result_json(result, schema));
            }
        } catch (const mcp_error& e) {
            reply = rpc::error_reply(id, rpc::invalid_params, json_detail::valid_utf8(e.what()));
        } catch (const boost::system::system_error& e) {
            canceled = e.code() == asio::error::operation_aborted;
            reply = rpc::error_reply(id, rpc::internal_error, json_detail::valid_utf8(e.what()));
        } catch (const std::exception& e) {
            reply = rpc::error_reply(id, rpc::internal_error, json_detail::valid_utf8(e.what()));
        }
        self->answering.erase(json::serialize(id));
        if (!canceled && !self->closed && !self->broken) self->post(std::move(reply));
    }

    void notification(std::string_view method, const json::value* params_value) {
        const json::object* params = params_value && params_value->is_object() ? &params_value->get_object() : nullptr;
        if (method == "notifications/cancelled" && params) {
            if (const json::value* id = params->if_contains("requestId")) {
                if (const auto it = answering.find(json::serialize(*id)); it != answering.end()) it->second->emit(asio::cancellation_type::terminal);
            }
        } else if (method == "notifications/progress" && params && options.on_progress) {
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
        } else if (method == "notifications/resources/updated" && params && options.on_resource_updated) {
            if (const json::value* uri = params->if_contains("uri"); uri && uri->is_string()) {
                options.on_resource_updated(json_detail::valid_utf8(uri->get_string()));
            }
        }
    }

    // Every entry of every page of a list method, read by `read`; at most `limit` of them.
    template <class Entry, class Read>
    asio::awaitable<std::vector<Entry>> list_all(const char* method, const char* key, Read read, std::size_t limit);
    // completion/complete's values.
    asio::awaitable<std::vector<std::string>> completions(json::object reference, std::string argument, std::string value);

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
    json::object capabilities;
    if (s.options.on_sampling) capabilities["sampling"] = json::object();
    if (s.options.on_elicitation) capabilities["elicitation"] = json::object();
    json::object params{{"protocolVersion", latest_protocol_version},
                        {"capabilities", std::move(capabilities)},
                        {"clientInfo", {{"name", s.options.client_name}, {"version", s.options.client_version}}}};
    const json::value answer = co_await s.request("initialize", std::move(params), s.options.connect_timeout);
    if (!answer.is_object()) throw s.failure("answered initialize with a result that is not an object");
    const json::object& result = answer.get_object();
    const json::value* version = result.if_contains("protocolVersion");
    if (!version || !version->is_string()) throw s.failure("answered initialize without a protocolVersion");
    const std::string_view offered = version->get_string();
    if (std::find(supported_protocol_versions.begin(), supported_protocol_versions.end(), offered) ==
        supported_protocol_versions.end()) {
        throw s.failure("speaks MCP protocol version " + json_detail::quoted(offered) + ", which forma does not (it speaks " +
                        std::string(latest_protocol_version) + ", 2025-06-18, 2025-03-26 and 2024-11-05)");
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

template <class Entry, class Read>
asio::awaitable<std::vector<Entry>> client::state::list_all(const char* method, const char* key, Read read, std::size_t limit) {
    state& s = *this;
    std::vector<Entry> entries;
    std::set<std::string> cursors_seen;
    std::optional<std::string> cursor;
    for (;;) {
        json::object params;
        if (cursor) params["cursor"] = *cursor;
        const json::value answer = co_await s.request(method, std::move(params), s.options.request_timeout);
        const json::object* result = answer.if_object();
        const json::value* list = result ? result->if_contains(key) : nullptr;
        if (!list || !list->is_array()) throw s.failure(std::string("answered ") + method + " without a \"" + key + "\" array");
        for (const json::value& entry : list->get_array()) {
            entries.push_back(read(entry, s.name));
            if (entries.size() > limit) {
                throw s.failure("lists more than " + std::to_string(limit) + " " + key + " (client_options::max_tools)");
            }
        }
        const json::value* next = result->if_contains("nextCursor");
        if (!next || !next->is_string()) co_return entries;
        cursor = std::string(next->get_string());
        if (!cursors_seen.insert(*cursor).second) throw s.failure(std::string("repeats the ") + method + " cursor " + json_detail::quoted(*cursor));
    }
}

asio::awaitable<std::vector<tool_info>> client::list_tools() {
    co_return co_await state_->list_all<tool_info>("tools/list", "tools", &detail::read_tool_info, state_->options.max_tools);
}

asio::awaitable<std::vector<resource_info>> client::list_resources() {
    co_return co_await state_->list_all<resource_info>("resources/list", "resources", &detail::read_resource_info, state_->options.max_tools);
}

asio::awaitable<std::vector<resource_template_info>> client::list_resource_templates() {
    co_return co_await state_->list_all<resource_template_info>("resources/templates/list", "resourceTemplates",
                                                        &detail::read_resource_template_info, state_->options.max_tools);
}

asio::awaitable<std::vector<prompt_info>> client::list_prompts() {
    co_return co_await state_->list_all<prompt_info>("prompts/list", "prompts", &detail::read_prompt_info, state_->options.max_tools);
}

asio::awaitable<std::vector<resource_contents>> client::read_resource(std::string uri) {
    state& s = *state_;
    json::object params{{"uri", std::move(uri)}}; // named: g++ 12 miscompiles a braced argument of a co_await
    const json::value answer = co_await s.request("resources/read", std::move(params), s.options.request_timeout);
    const json::object* result = answer.if_object();
    const json::value* contents = result ? result->if_contains("contents") : nullptr;
    if (!contents || !contents->is_array()) throw s.failure("answered resources/read without a \"contents\" array");
    std::vector<resource_contents> out;
    for (const json::value& item : contents->get_array()) out.push_back(detail::read_resource_contents(item, s.name));
    co_return out;
}

asio::awaitable<void> client::subscribe(std::string uri) {
    json::object params{{"uri", std::move(uri)}};
    (void)co_await state_->request("resources/subscribe", std::move(params), state_->options.request_timeout);
}

asio::awaitable<void> client::unsubscribe(std::string uri) {
    json::object params{{"uri", std::move(uri)}};
    (void)co_await state_->request("resources/unsubscribe", std::move(params), state_->options.request_timeout);
}

asio::awaitable<prompt_result> client::get_prompt(std::string name, template_variables arguments) {
    state& s = *state_;
    json::object given;
    for (auto& [key, value] : arguments) given[key] = value;
    json::object params{{"name", std::move(name)}, {"arguments", std::move(given)}};
    const json::value answer = co_await s.request("prompts/get", std::move(params), s.options.request_timeout);
    if (!answer.is_object()) throw s.failure("answered prompts/get with a result that is not an object");
    co_return detail::read_prompt_result(answer.get_object(), s.name);
}

asio::awaitable<std::vector<std::string>> client::state::completions(json::object reference, std::string argument, std::string value) {
    state& s = *this;
    json::object params{{"ref", std::move(reference)}, {"argument", {{"name", std::move(argument)}, {"value", std::move(value)}}}};
    const json::value answer = co_await s.request("completion/complete", std::move(params), s.options.request_timeout);
    const json::object* result = answer.if_object();
    const json::value* completion = result ? result->if_contains("completion") : nullptr;
    const json::value* values = completion && completion->is_object() ? completion->get_object().if_contains("values") : nullptr;
    if (!values || !values->is_array()) throw s.failure("answered completion/complete without completion.values");
    std::vector<std::string> out;
    for (const json::value& v : values->get_array()) {
        if (v.is_string()) out.push_back(json_detail::valid_utf8(v.get_string()));
    }
    co_return out;
}

asio::awaitable<std::vector<std::string>> client::complete_prompt_argument(std::string prompt, std::string argument, std::string value) {
    json::object reference{{"type", "ref/prompt"}, {"name", std::move(prompt)}};
    co_return co_await state_->completions(std::move(reference), std::move(argument), std::move(value));
}

asio::awaitable<std::vector<std::string>> client::complete_template_variable(std::string uri_template, std::string variable, std::string value) {
    json::object reference{{"type", "ref/resource"}, {"uri", std::move(uri_template)}};
    co_return co_await state_->completions(std::move(reference), std::move(variable), std::move(value));
}

asio::awaitable<void> client::set_log_level(log_level level) {
    json::object params{{"level", to_string(level)}};
    (void)co_await state_->request("logging/setLevel", std::move(params), state_->options.request_timeout);
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
