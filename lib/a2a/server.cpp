// forma::a2a::server: an agent served over A2A 0.3 (JSON-RPC 2.0 over HTTP, SSE for streams).
#include <forma/a2a/server.hpp>

#include "../json/json_members.hpp"
#include "../json/json_rpc.hpp"
#include "../json/json_text.hpp"
#include "../net/media_type.hpp"
#include "../agent/task_runner.hpp"
#include "task_wire.hpp"

#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <stdexcept>

namespace forma::a2a {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace rpc = json_detail::json_rpc;
using clock = std::chrono::steady_clock;

constexpr std::string_view card_path = "/.well-known/agent-card.json";
constexpr std::string_view answer_schema_extension = "https://forma.dev/a2a/extensions/answer-schema/v1";
// How long a stream waits for a task to change before it sends a comment (a dead peer shows then).
constexpr std::chrono::seconds keep_alive_interval{15};

using rpc::internal_error;
using rpc::invalid_params;
using rpc::invalid_request;
using rpc::parse_error;
// A2A's own codes.
constexpr std::int64_t task_not_found = -32001;
constexpr std::int64_t task_not_cancelable = -32002;

/// A JSON-RPC error the dispatcher answers with.
struct rpc_failure {
    std::int64_t code;
    std::string message;
};

net::http_reply rpc_reply(std::string body) { return {.status = 200, .content_type = "application/json", .body = std::move(body)}; }

net::http_reply rpc_error_shape(unsigned status, std::string_view message) {
    const std::int64_t code = status < 500 ? invalid_request : internal_error;
    return {.status = status, .content_type = "application/json",
            .body = rpc::error_reply(nullptr, code, json_detail::valid_utf8(message))};
}

} // namespace

struct server::state {
    state(forma::agent& a, server_options o)
        : served(a), options(agent_detail::with_default_stores(a, std::move(o))), runner(a, options.tasks, options.sessions) {}

    forma::agent& served;
    server_options options;
    agent_detail::task_runner runner;

    bool as_data() const noexcept { return options.answer_format.has_value(); }

    json::object card(std::string_view url) const {
        json::array skills;
        const bool data = as_data();
        const json::array output_modes = data ? json::array{"application/json"} : json::array{"text/plain"};
        for (const agent_skill& s : options.skills)
            skills.push_back({{"id", s.id}, {"name", s.name}, {"description", s.description}, {"tags", json::array()}});
        const std::string name = options.name.empty() ? std::string(served.name()) : options.name;
        const std::string description = options.description.empty() ? std::string(served.description()) : options.description;
        if (skills.empty())
            skills.push_back({{"id", name.empty() ? "agent" : name}, {"name", name.empty() ? "agent" : name},
                              {"description", description}, {"tags", json::array()}, {"outputModes", output_modes}});
        json::object capabilities{{"streaming", true}, {"pushNotifications", false}, {"stateTransitionHistory", false}};
        if (data) {
            capabilities["extensions"] = json::array{
                {{"uri", answer_schema_extension}, {"description", "The JSON Schema of the agent's answer (a data part)"},
                 {"required", false}, {"params", {{"schema", options.answer_format->schema()}}}}};
        }
        return {{"protocolVersion", "0.3.0"},
                {"name", json_detail::valid_utf8(name)},
                {"description", json_detail::valid_utf8(description)},
                {"url", url},
                {"preferredTransport", "JSONRPC"},
                {"version", options.version},
                {"capabilities", std::move(capabilities)},
                {"defaultInputModes", json::array{"text/plain", "application/json"}},
                {"defaultOutputModes", output_modes},
                {"skills", std::move(skills)}};
    }

    // Starts the agent's run for a task (agent_detail::task_runner keeps it in the store).
    void start(const std::string& task_id, const std::string& context_id, std::vector<chat_message> input) {
        agent_run_options run_options;
        run_options.response_format = options.answer_format;
        runner.start(task_id, context_id, std::move(input), std::move(run_options));
    }

    // The task once it has stopped, or as it stands at `deadline`.
    asio::awaitable<agent_task> settle(const std::string& task_id, std::optional<clock::time_point> deadline) {
        std::optional<agent_task> task = co_await runner.settle(task_id, deadline);
        if (!task) throw rpc_failure{task_not_found, "the task " + task_id + " is gone"};
        co_return std::move(*task);
    }

    // ---- JSON-RPC methods -------------------------------------------------------------

    // Reads message/send's and message/stream's params, creates or resumes the task, starts its run.
    asio::awaitable<agent_task> begin(const json::object& params) {
        const json::value* message_value = params.if_contains("message");
        const json::object* message = message_value ? message_value->if_object() : nullptr;
        if (!message) throw rpc_failure{invalid_params, "params.message must be a message object"};
        std::string context_id = json_detail::string_member(*message, "contextId");
        const std::string answered_task = json_detail::string_member(*message, "taskId");
        std::vector<function_approval_request_content> waiting;
        std::optional<agent_task> task;
        if (!answered_task.empty()) {
            task = co_await options.tasks->load(answered_task);
            if (!task) throw rpc_failure{task_not_found, "no task " + answered_task};
            if (task->state != task_state::input_required)
                throw rpc_failure{invalid_params, "the task " + answered_task + " is " + std::string(to_string(task->state)) +
                                                      ", not waiting for input; send a message without taskId to start a new one"};
            if (!context_id.empty() && context_id != task->context_id)
                throw rpc_failure{invalid_params, "the task " + answered_task + " belongs to another context"};
            context_id = task->context_id;
            waiting = detail::task_view(*task).approval_requests();
        }
        std::vector<chat_message> input;
        try {
            input = detail::read_user_message(*message, waiting);
        } catch (const std::invalid_argument& e) {
            throw rpc_failure{invalid_params, e.what()};
        }
        if (context_id.empty()) context_id = make_unique_id();
        if (task) {
            for (const chat_message& m : input) task->input.push_back(m);
            co_await options.tasks->set_state(task->id, task_state::submitted);
        } else {
            agent_task fresh{.id = make_unique_id(), .context_id = context_id, .input = input};
            co_await options.tasks->create(fresh);
            task = std::move(fresh);
        }
        start(task->id, context_id, std::move(input));
        std::optional<agent_task> now = co_await options.tasks->load(task->id);
        co_return std::move(*now);
    }

    asio::awaitable<json::value> send(const json::object& params) {
        const agent_task started = co_await begin(params);
        bool blocking = true;
        if (const json::value* c = params.if_contains("configuration"); c && c->is_object())
            if (const json::value* b = c->get_object().if_contains("blocking"); b && b->is_bool()) blocking = b->get_bool();
        std::optional<clock::time_point> deadline;
        if (!blocking) deadline = clock::now() + options.task_after;
        const agent_task task = co_await settle(started.id, deadline);
        if (task.state == task_state::completed) co_return detail::answer_message(task, as_data());
        co_return detail::task_object(task, as_data());
    }

    asio::awaitable<agent_task> existing(const json::object& params) {
        const std::string id = json_detail::string_member(params, "id");
        if (id.empty()) throw rpc_failure{invalid_params, "params.id must name a task"};
        std::optional<agent_task> task = co_await options.tasks->load(id);
        if (!task) throw rpc_failure{task_not_found, "no task " + id};
        co_return std::move(*task);
    }

    asio::awaitable<json::value> cancel(const json::object& params) {
        const agent_task task = co_await existing(params);
        if (is_final(task.state))
            throw rpc_failure{task_not_cancelable, "the task " + task.id + " is " + std::string(to_string(task.state)) + " and cannot be canceled"};
        (void)co_await options.tasks->request_cancel(task.id);
        // Waiting for an answer, nothing runs it; a run elsewhere in a fleet is canceled by its
        // own instance, which watches the store.
        if (task.state == task_state::input_required) co_await options.tasks->set_state(task.id, task_state::canceled);
        else runner.cancel(task.id);
        co_return detail::task_object(co_await settle(task.id, clock::now() + std::chrono::seconds(5)), as_data());
    }

    // Sends `snapshot` and then the task's changes since as events, until it stops.
    asio::awaitable<void> follow(net::response_writer& writer, const json::value& rpc_id, agent_task snapshot) {
        auto send_event = [&](json::value event) -> asio::awaitable<void> {
            co_await writer.write(net::format_sse_event(rpc::result_reply(rpc_id, std::move(event))));
        };
        const std::string task_id = snapshot.id;
        std::optional<agent_task> task = std::move(snapshot);
        co_await send_event(detail::task_object(*task, as_data()));
        task_state sent = task->state;
        std::size_t next = task->updates.size();
        std::uint64_t version = task->version;
        bool artifact_started = !detail::task_view(*task).answer_text().empty();
        while (!has_stopped(sent)) {
            std::optional<task_changes> changes = co_await options.tasks->changes(task_id, next, version, keep_alive_interval);
            if (!changes) co_return;
            if (changes->version == version) {
                co_await writer.write(": keep-alive\n\n");
                continue;
            }
            version = changes->version;
            next = changes->next;
            if (!as_data()) {
                for (const agent_response_update& u : changes->updates) {
                    if (u.role && *u.role == chat_role::user()) continue;
                    std::string text;
                    for (const content& c : u.contents)
                        if (const auto* t = std::get_if<text_content>(&c)) text += t->text;
                    if (text.empty()) continue;
                    task->state = changes->state;
                    json::array parts{json::object{{"kind", "text"}, {"text", json_detail::valid_utf8(text)}}};
                    co_await send_event(detail::artifact_update(*task, std::move(parts), artifact_started, false));
                    artifact_started = true;
                }
            }
            if (changes->state != sent) {
                std::optional<agent_task> now = co_await options.tasks->load(task_id);
                if (!now) co_return;
                task = std::move(now);
                next = task->updates.size();
                version = task->version;
                sent = task->state;
                if (as_data() && sent == task_state::completed) {
                    json::array parts = detail::task_view(*task).answer_parts(true);
                    if (!parts.empty()) co_await send_event(detail::artifact_update(*task, std::move(parts), false, true));
                }
                co_await send_event(detail::status_update(*task, as_data()));
            }
        }
    }

    asio::awaitable<void> stream(net::response_writer& writer, const json::value& rpc_id, const json::object& params, bool resubscribe) {
        const agent_task task = resubscribe ? co_await existing(params) : co_await begin(params);
        net::http_reply head{.status = 200, .content_type = "text/event-stream", .headers = {{"Cache-Control", "no-cache"}}};
        co_await writer.start(std::move(head));
        co_await follow(writer, rpc_id, task);
        co_await writer.finish();
    }

    // One JSON-RPC request, answered whole or as a stream.
    asio::awaitable<void> dispatch(net::server_request& request, net::response_writer& writer) {
        const std::string* content_type = request.header("Content-Type");
        if (!content_type || !net::detail::has_media_type(*content_type, net::detail::json_media_type)) {
            co_await writer.send(rpc_error_shape(415, "an A2A request is JSON: Content-Type must be application/json"));
            co_return;
        }
        boost::system::error_code ec;
        json::value body = json::parse(request.body, ec);
        if (ec) {
            co_await writer.send(rpc_reply(rpc::error_reply(nullptr, parse_error, "the body is not JSON: " + ec.message())));
            co_return;
        }
        if (body.is_array()) {
            co_await writer.send(rpc_reply(rpc::error_reply(nullptr, invalid_request, "A2A takes one request per body, not a batch")));
            co_return;
        }
        const rpc::message_view message = rpc::classify(body);
        if (message.kind != rpc::message_kind::request || !message.id) {
            co_await writer.send(rpc_reply(rpc::error_reply(message.id ? *message.id : json::value(nullptr), invalid_request,
                                                            "the body is not a JSON-RPC 2.0 request with an id and a method")));
            co_return;
        }
        const json::value id = *message.id;
        const std::string method(message.method);
        const json::object no_params;
        const json::object* params = message.params && message.params->is_object() ? &message.params->get_object() : &no_params;
        if (message.params && !message.params->is_object()) {
            co_await writer.send(rpc_reply(rpc::error_reply(id, invalid_params, "params must be an object")));
            co_return;
        }
        std::optional<rpc_failure> failed;
        try {
            if (method == "message/send") {
                json::value result = co_await send(*params);
                co_await writer.send(rpc_reply(rpc::result_reply(id, std::move(result))));
            } else if (method == "message/stream" || method == "tasks/resubscribe") {
                co_await stream(writer, id, *params, method == "tasks/resubscribe");
            } else if (method == "tasks/get") {
                const agent_task task = co_await existing(*params);
                co_await writer.send(rpc_reply(rpc::result_reply(id, detail::task_object(task, as_data()))));
            } else if (method == "tasks/cancel") {
                json::value result = co_await cancel(*params);
                co_await writer.send(rpc_reply(rpc::result_reply(id, std::move(result))));
            } else {
                failed = rpc_failure{rpc::method_not_found, "the method " + method + " is not one this A2A agent serves"};
            }
        } catch (rpc_failure& f) {
            failed = std::move(f);
        }
        if (!failed) co_return;
        std::string text = rpc::error_reply(id, failed->code, json_detail::valid_utf8(failed->message));
        if (writer.started()) co_await writer.write(net::format_sse_event(text)); // an error inside a stream
        else co_await writer.send(rpc_reply(std::move(text)));
        if (writer.started()) co_await writer.finish();
    }
};

server::server(forma::agent& served, server_options options) : state_(std::make_shared<state>(served, std::move(options))) {}

server::~server() = default;

json::object server::card(std::string_view url) const { return state_->card(url); }

std::size_t server::running_tasks() const noexcept { return state_->runner.running(); }

net::http_routes server::routes() const {
    net::http_routes routes;
    routes.shape_errors(&rpc_error_shape);
    const auto s = state_;
    routes.add("GET", std::string(card_path), [s](net::server_request& request, net::response_writer& writer) -> asio::awaitable<void> {
        std::string url = s->options.public_url;
        if (url.empty()) {
            const std::string* host = request.header("Host");
            url = std::string(request.secure ? "https://" : "http://") + (host ? *host : std::string("localhost")) + s->options.rpc_path;
        }
        net::http_reply card{.body = json::serialize(s->card(url))};
        co_await writer.send(std::move(card));
    });
    routes.add("POST", s->options.rpc_path, [s](net::server_request& request, net::response_writer& writer) -> asio::awaitable<void> {
        co_await s->dispatch(request, writer);
    });
    return routes;
}

} // namespace forma::a2a
