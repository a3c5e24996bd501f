// forma::a2a::server: an agent served over A2A 1.0 and 0.3 (JSON-RPC 2.0 over HTTP, SSE for
// streams). The methods work in 0.3 shapes; wire_v1 translates a 1.0 request and its answers.
#include <forma/a2a/server.hpp>
#include <forma/agent/served_agent.hpp>

#include "../agent/task_follow.hpp"
#include "../json/json_members.hpp"
#include "../json/json_rpc.hpp"
#include "../json/json_text.hpp"
#include "../model/json_support.hpp"
#include "../net/media_type.hpp"
#include "../text/ascii.hpp"
#include "push_notifier.hpp"
#include "task_wire.hpp"
#include "wire_v1.hpp"

#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <stdexcept>

namespace forma::a2a {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace rpc = json_detail::json_rpc;
namespace v1 = detail::v1;
using clock = std::chrono::steady_clock;

constexpr std::string_view card_path = "/.well-known/agent-card.json";
constexpr std::string_view answer_schema_extension = "https://forma.dev/a2a/extensions/answer-schema/v1";
// How long a stream waits for a task to change before it sends a comment (a dead peer shows then).

using rpc::internal_error;
using rpc::invalid_params;
using rpc::invalid_request;
using rpc::parse_error;
// A2A's own codes.
constexpr std::int64_t task_not_found = -32001;
constexpr std::int64_t task_not_cancelable = -32002;
constexpr std::int64_t push_notification_not_supported = -32003;
constexpr std::int64_t unsupported_operation = -32004;
constexpr std::int64_t extended_card_not_configured = -32007;
constexpr std::int64_t version_not_supported = -32009;

bool configures_push(std::string_view method) noexcept { return method.starts_with("tasks/pushNotificationConfig/"); }

bool streams(std::string_view method) noexcept { return method == "message/stream" || method == "tasks/resubscribe"; }

// ListTasks' page size: 1 to 100, 50 when not given.
constexpr std::int64_t default_page_size = 50;
constexpr std::int64_t max_page_size = 100;

/// A JSON-RPC error the dispatcher answers with.
struct rpc_failure {
    std::int64_t code;
    std::string message;
};

net::http_reply rpc_reply(std::string body) { return {.status = 200, .content_type = "application/json", .body = std::move(body)}; }

// One JSON-RPC request as answered: its id, and the version whose shapes its answers take.
struct rpc_call {
    json::value id;
    protocol_version version = protocol_version::v0_3;
    /// The owner of the tasks it reaches (the caller's): served_agent::owner_of.
    std::string owner{};

    // A result of a method that works in 0.3 shapes; `wrapped`: 1.0 says what it is by its key.
    std::string result(json::value result_0_3, bool wrapped) const {
        if (version == protocol_version::v1_0) result_0_3 = v1::result(result_0_3, wrapped);
        return rpc::result_reply(id, std::move(result_0_3));
    }
    // 1.0 adds google.rpc.ErrorInfo to an A2A error.
    std::string error(std::int64_t code, std::string_view message) const {
        json::value data = version == protocol_version::v1_0 ? v1::error_data(code) : json::value(nullptr);
        return rpc::error_reply(id, code, message, std::move(data));
    }
};

// A task's history cut to its last `historyLength` messages (0.3 and 1.0: in params or in configuration).
void limit_history(json::value& result, const json::object& params) {
    const json::value* length = params.if_contains("historyLength");
    if (const json::value* c = params.if_contains("configuration"); !length && c && c->is_object())
        length = c->get_object().if_contains("historyLength");
    json::object* task = result.if_object();
    json::value* history = task ? task->if_contains("history") : nullptr;
    if (!length || !length->is_number() || !history || !history->is_array()) return;
    boost::system::error_code ec;
    const auto keep = length->to_number<std::int64_t>(ec);
    json::array& messages = history->get_array();
    if (ec) return;
    if (keep <= 0) messages.clear();
    else if (static_cast<std::size_t>(keep) < messages.size()) messages.erase(messages.begin(), messages.end() - keep);
}

// An integer member of params, or nullopt when absent. @throws rpc_failure when it is there but no integer.
std::optional<std::int64_t> integer_param(const json::object& params, std::string_view key) {
    const json::value* v = params.if_contains(key);
    if (!v || v->is_null()) return std::nullopt;
    boost::system::error_code ec;
    const std::int64_t n = v->is_number() ? v->to_number<std::int64_t>(ec) : 0;
    if (!v->is_number() || ec) throw rpc_failure{invalid_params, "params." + std::string(key) + " must be an integer"};
    return n;
}

// ListTasks' params as a store's query; nullopt when they name a state forma's tasks never take
// (1.0's rejected, auth-required): no task matches.
std::optional<task_query> list_query(const json::object& params, std::string owner) {
    task_query query{.owner = std::move(owner)};
    if (const json::value* c = params.if_contains("contextId"); c && !c->is_null()) {
        if (!c->is_string()) throw rpc_failure{invalid_params, "params.contextId must be a string"};
        query.context_id = c->get_string();
    }
    if (const json::value* given = params.if_contains("status"); given && !given->is_null()) {
        const json::value state = v1::legacy_state(*given);
        const std::string_view name = state.is_string() ? std::string_view(state.get_string()) : std::string_view();
        if (name == "unknown") {
            // TASK_STATE_UNSPECIFIED, proto's default: no filter
        } else if (const std::optional<task_state> s = task_state_from_string(name)) {
            query.state = *s;
        } else if (name == "rejected" || name == "auth-required") {
            return std::nullopt;
        } else {
            throw rpc_failure{invalid_params, "params.status names no task state (\"" + json_detail::valid_utf8(json::serialize(*given)) +
                                                  "\"); states are TASK_STATE_SUBMITTED, TASK_STATE_WORKING, ..."};
        }
    }
    const std::int64_t size = integer_param(params, "pageSize").value_or(default_page_size);
    if (size < 1 || size > max_page_size)
        throw rpc_failure{invalid_params, "params.pageSize must be 1 to 100, not " + std::to_string(size)};
    query.page_size = static_cast<std::size_t>(size);
    if (const json::value* token = params.if_contains("pageToken"); token && !token->is_null()) {
        if (!token->is_string()) throw rpc_failure{invalid_params, "params.pageToken must be a string"};
        query.page_token = token->get_string();
    }
    if (const json::value* after = params.if_contains("statusTimestampAfter"); after && !after->is_null()) {
        std::optional<std::chrono::system_clock::time_point> t;
        if (after->is_string()) t = model_detail::parse_time(after->get_string());
        if (!t)
            throw rpc_failure{invalid_params, "params.statusTimestampAfter must be an RFC 3339 time (\"2026-11-28T10:00:00Z\")"};
        query.updated_since = *t;
    }
    if (const std::optional<std::int64_t> n = integer_param(params, "historyLength"); n && *n < 0)
        throw rpc_failure{invalid_params, "params.historyLength must not be negative"};
    if (const json::value* a = params.if_contains("includeArtifacts"); a && !a->is_null() && !a->is_bool())
        throw rpc_failure{invalid_params, "params.includeArtifacts must be true or false"};
    return query;
}

net::http_reply rpc_error_shape(unsigned status, std::string_view message) {
    const std::int64_t code = status < 500 ? invalid_request : internal_error;
    return {.status = status, .content_type = "application/json",
            .body = rpc::error_reply(nullptr, code, json_detail::valid_utf8(message))};
}

} // namespace

struct server::state {
    state(forma::agent& a, server_options o)
        : options(std::move(o)), core(a, options.tasks, options.sessions) {
        if (options.push_notifications.enabled)
            notifier.emplace(a.get_executor(), core.tasks(), options.push_notifications, as_data());
    }

    server_options options;
    served_agent core;
    std::optional<detail::push_notifier> notifier; // with push notifications enabled

    bool as_data() const noexcept { return options.answer_format.has_value(); }

    // The URL the card names: public_url; else the request's Host where the operator lists it,
    // else the address the request reached. Never a Host the operator did not name.
    std::string card_url(const net::server_request& request) const {
        if (!options.public_url.empty()) return options.public_url;
        const std::string* host = request.header("Host");
        const bool listed = host && std::any_of(options.card_hosts.begin(), options.card_hosts.end(),
                                                [&](const std::string& h) { return text_detail::iequals(h, *host); });
        const std::string reached = request.local_address.empty() ? std::string("localhost") : request.local_address;
        return std::string(request.secure ? "https://" : "http://") + (listed ? *host : reached) + options.rpc_path;
    }

    // The 0.3 card carries 0.3's top-level url, and lists both versions' interfaces as the 1.0
    // card does, so that a 1.0 client that reads it without asking for 1.0 finds its interface.
    json::object card(std::string_view url, protocol_version version, bool extended = false) const {
        json::array skills;
        const bool data = as_data();
        const json::array output_modes = data ? json::array{"application/json"} : json::array{"text/plain"};
        using json_detail::valid_utf8;
        const auto add = [&skills](const agent_skill& s) {
            skills.push_back({{"id", valid_utf8(s.id)}, {"name", valid_utf8(s.name)}, {"description", valid_utf8(s.description)},
                              {"tags", json::array()}});
        };
        for (const agent_skill& s : options.skills) add(s);
        const std::string name = options.name.empty() ? std::string(core.served().name()) : options.name;
        const std::string description = options.description.empty() ? std::string(core.served().description()) : options.description;
        if (skills.empty())
            skills.push_back({{"id", valid_utf8(name.empty() ? "agent" : name)}, {"name", valid_utf8(name.empty() ? "agent" : name)},
                              {"description", valid_utf8(description)}, {"tags", json::array()}, {"outputModes", output_modes}});
        if (extended)
            for (const agent_skill& s : options.extended_skills) add(s);
        json::object capabilities{{"streaming", true}, {"pushNotifications", notifier.has_value()}};
        if (version == protocol_version::v0_3) capabilities["stateTransitionHistory"] = false;
        else if (has_extended_card()) capabilities["extendedAgentCard"] = true;
        if (data) {
            capabilities["extensions"] = json::array{
                {{"uri", answer_schema_extension}, {"description", "The JSON Schema of the agent's answer (a data part)"},
                 {"required", false}, {"params", {{"schema", options.answer_format->schema()}}}}};
        }
        json::array interfaces;
        for (const protocol_version v : {protocol_version::v1_0, protocol_version::v0_3})
            interfaces.push_back({{"url", valid_utf8(url)}, {"protocolBinding", "JSONRPC"}, {"protocolVersion", to_string(v)}});
        json::object card{{"name", valid_utf8(name)},
                          {"description", valid_utf8(description)},
                          {"supportedInterfaces", std::move(interfaces)},
                          {"version", valid_utf8(options.version)},
                          {"capabilities", std::move(capabilities)},
                          {"defaultInputModes", json::array{"text/plain", "application/json"}},
                          {"defaultOutputModes", output_modes},
                          {"skills", std::move(skills)}};
        if (version == protocol_version::v0_3) {
            card["protocolVersion"] = "0.3.0";
            card["url"] = valid_utf8(url);
            card["preferredTransport"] = "JSONRPC";
            if (has_extended_card()) card["supportsAuthenticatedExtendedCard"] = true;
        }
        return card;
    }

    bool has_extended_card() const noexcept { return !options.extended_skills.empty(); }

    // GetExtendedAgentCard: for a caller the authentication hook let in by name.
    json::value extended_card(const net::server_request& request, const rpc_call& call) const {
        if (!has_extended_card())
            throw rpc_failure{unsupported_operation, "this agent has no extended card; its card is at /.well-known/agent-card.json"};
        if (request.caller.empty())
            throw rpc_failure{extended_card_not_configured, "the extended card is for callers the server knows by name; "
                                                            "this request came without credentials that name one"};
        return card(card_url(request), call.version, true);
    }

    // Starts the agent's run for a task (served_agent keeps it in the store).
    void start(const agent_task& task, std::vector<chat_message> input) {
        agent_run_options run_options;
        run_options.response_format = options.answer_format;
        core.start(task, std::move(input), std::move(run_options));
    }

    // The task once it has stopped, or as it stands at `deadline`.
    asio::awaitable<agent_task> settle(const std::string& task_id, std::optional<clock::time_point> deadline) {
        std::optional<agent_task> task = co_await core.settle(task_id, deadline);
        if (!task) throw rpc_failure{task_not_found, "the task " + task_id + " is gone"};
        co_return std::move(*task);
    }

    // ---- JSON-RPC methods -------------------------------------------------------------

    // Reads message/send's and message/stream's params, creates or resumes the task, starts its run.
    asio::awaitable<agent_task> begin(const json::object& params, const std::string& owner, protocol_version version) {
        const json::value* message_value = params.if_contains("message");
        const json::object* message = message_value ? message_value->if_object() : nullptr;
        if (!message) throw rpc_failure{invalid_params, "params.message must be a message object"};
        std::string context_id = json_detail::string_member(*message, "contextId");
        const std::string answered_task = json_detail::string_member(*message, "taskId");
        std::vector<function_approval_request_content> waiting;
        std::optional<agent_task> task;
        if (!answered_task.empty()) {
            task = co_await core.load_owned(answered_task, owner);
            if (!task) throw rpc_failure{task_not_found, "the task " + answered_task + " was not found"};
            if (task->state != task_state::input_required)
                throw rpc_failure{is_final(task->state) ? unsupported_operation : invalid_params,
                                  "the task " + answered_task + " is " + std::string(to_string(task->state)) +
                                      ", not waiting for input; send a message without taskId to start a new one"};
            if (!context_id.empty() && context_id != task->context_id)
                throw rpc_failure{invalid_params, "the task " + answered_task + " belongs to another context"};
            context_id = task->context_id;
            waiting = detail::task_view(*task).approval_requests();
        }
        std::vector<chat_message> input;
        std::optional<detail::push_config> push;
        try {
            input = detail::read_user_message(*message, waiting);
            push = push_config_of(params, version);
        } catch (const std::invalid_argument& e) {
            throw rpc_failure{invalid_params, e.what()};
        }
        if (context_id.empty()) context_id = make_unique_id();
        if (task) {
            // Two answers at once (to two servers of a fleet, say): the first one counts.
            const bool answered_here = co_await core.tasks()->transition(task->id, task_state::input_required, task_state::submitted);
            if (!answered_here)
                throw rpc_failure{invalid_params, "the task " + answered_task + " was answered already, by another message"};
        } else {
            agent_task fresh{.id = make_unique_id(), .context_id = context_id, .owner = owner, .input = input};
            co_await core.tasks()->create(fresh);
            task = std::move(fresh);
        }
        if (push) {
            push->task_id = task->id;
            (void)notifier->add(std::move(*push), *task);
        }
        start(*task, std::move(input));
        std::optional<agent_task> now = co_await core.tasks()->load(task->id);
        co_return std::move(*now);
    }

    // The webhook a send's configuration gives (0.3: pushNotificationConfig, 1.0: taskPushNotificationConfig).
    std::optional<detail::push_config> push_config_of(const json::object& params, protocol_version version) const {
        const json::value* c = params.if_contains("configuration");
        const json::object* configuration = c ? c->if_object() : nullptr;
        const json::value* given = nullptr;
        for (const char* key : {"pushNotificationConfig", "taskPushNotificationConfig"})
            if (configuration && !given) given = configuration->if_contains(key);
        if (!given || given->is_null()) return std::nullopt;
        if (!notifier) throw push_refused();
        if (!given->is_object()) throw std::invalid_argument("configuration's push notification config must be an object");
        return detail::read_push_config(given->get_object(), {}, version, options.push_notifications);
    }

    static rpc_failure push_refused() {
        return {push_notification_not_supported, "this agent does not send push notifications (server_options::push_notifications)"};
    }

    // tasks/pushNotificationConfig/set, get, list, delete (1.0: Create-, Get-, List-, DeleteTaskPushNotificationConfig(s)).
    asio::awaitable<json::value> configure_push(std::string_view method, const json::object& params, const rpc_call& call) {
        if (!notifier) throw push_refused();
        const bool v1_0 = call.version == protocol_version::v1_0;
        const std::string_view operation = method.substr(method.rfind('/') + 1);
        const std::string task_key = v1_0 || operation == "set" ? "taskId" : "id";
        const std::string task_id = json_detail::string_member(params, task_key);
        if (task_id.empty()) throw rpc_failure{invalid_params, "params." + task_key + " must name a task"};
        const std::optional<agent_task> task = co_await core.load_owned(task_id, call.owner);
        if (!task) throw rpc_failure{task_not_found, "the task " + task_id + " was not found"};
        const auto shown = [&](detail::push_config c) {
            c.version = call.version;
            return detail::push_config_object(c);
        };
        if (operation == "set") {
            const json::value* nested = params.if_contains("pushNotificationConfig");
            const json::object* given = v1_0 ? &params : nested ? nested->if_object() : nullptr;
            if (!given) throw rpc_failure{invalid_params, "params.pushNotificationConfig must be an object"};
            detail::push_config config;
            try {
                config = detail::read_push_config(*given, task_id, call.version, options.push_notifications);
            } catch (const std::invalid_argument& e) {
                throw rpc_failure{invalid_params, e.what()};
            }
            co_return shown(notifier->add(std::move(config), *task));
        }
        if (operation == "list") {
            json::array configs;
            for (const detail::push_config& c : notifier->of_task(task_id)) configs.push_back(shown(c));
            if (!v1_0) co_return configs;
            co_return json::object{{"configs", std::move(configs)}, {"nextPageToken", ""}};
        }
        const std::string config_id = json_detail::string_member(params, v1_0 ? "id" : "pushNotificationConfigId");
        if (operation == "delete") {
            (void)notifier->remove(task_id, config_id); // deleting what is gone is done too
            co_return v1_0 ? json::value(json::object()) : json::value(nullptr);
        }
        std::optional<detail::push_config> found;
        if (config_id.empty() && !v1_0) {
            // 0.3 asks for a task's config without naming one: its first
            const std::vector<detail::push_config> all = notifier->of_task(task_id);
            if (!all.empty()) found = all.front();
        } else {
            found = notifier->find(task_id, config_id);
        }
        if (!found) throw rpc_failure{invalid_params, "the task " + task_id + " has no push notification config \"" + json_detail::valid_utf8(config_id) + "\""};
        co_return shown(*found);
    }

    asio::awaitable<json::value> send(const json::object& params, const rpc_call& call) {
        const std::string& owner = call.owner;
        const agent_task started = co_await begin(params, owner, call.version);
        bool blocking = true;
        if (const json::value* c = params.if_contains("configuration"); c && c->is_object())
            if (const json::value* b = c->get_object().if_contains("blocking"); b && b->is_bool()) blocking = b->get_bool();
        std::optional<clock::time_point> deadline;
        if (!blocking) deadline = clock::now() + options.task_after;
        const agent_task task = co_await settle(started.id, deadline);
        if (task.state == task_state::completed && options.answer_with_message) co_return detail::answer_message(task, as_data());
        json::value result = detail::task_object(task, as_data());
        limit_history(result, params);
        co_return result;
    }

    asio::awaitable<agent_task> existing(const json::object& params, const std::string& owner) {
        const std::string id = json_detail::string_member(params, "id");
        if (id.empty()) throw rpc_failure{invalid_params, "params.id must name a task"};
        std::optional<agent_task> task = co_await core.load_owned(id, owner);
        if (!task) throw rpc_failure{task_not_found, "the task " + id + " was not found"};
        co_return std::move(*task);
    }

    asio::awaitable<json::value> cancel(const json::object& params, const std::string& owner) {
        const agent_task task = co_await existing(params, owner);
        if (is_final(task.state))
            throw rpc_failure{task_not_cancelable, "the task " + task.id + " is " + std::string(to_string(task.state)) + " and cannot be canceled"};
        co_await core.cancel(task);
        co_return detail::task_object(co_await settle(task.id, clock::now() + std::chrono::seconds(5)), as_data());
    }

    // ListTasks: the caller's tasks, the most recently updated first, a page at a time.
    asio::awaitable<json::value> list(const json::object& params, const std::string& owner) {
        std::optional<task_query> query = list_query(params, owner);
        task_page page;
        if (query) {
            try {
                page = co_await core.tasks()->list(std::move(*query));
            } catch (const std::invalid_argument& e) {
                throw rpc_failure{invalid_params, e.what()};
            }
        }
        const json::value* include = params.if_contains("includeArtifacts");
        const bool with_artifacts = include && include->is_bool() && include->get_bool();
        json::array tasks;
        for (const agent_task& t : page.tasks) {
            json::value task = detail::task_object(t, as_data());
            limit_history(task, params);
            if (!with_artifacts) task.get_object().erase("artifacts");
            tasks.push_back(std::move(task));
        }
        const std::size_t size = tasks.size();
        co_return json::object{{"tasks", std::move(tasks)}, {"nextPageToken", page.next_page_token}, {"pageSize", size},
                               {"totalSize", page.total}};
    }

    // Sends `snapshot` and then the task's changes since as events, until it stops.
    asio::awaitable<void> follow(net::response_writer& writer, const rpc_call& call, agent_task snapshot) {
        auto send_event = [&](json::value event) -> asio::awaitable<void> {
            co_await writer.write(net::format_sse_event(call.result(std::move(event), true)));
        };
        const std::string task_id = snapshot.id;
        std::optional<agent_task> task = std::move(snapshot);
        co_await send_event(detail::task_object(*task, as_data()));
        task_state sent = task->state;
        agent_detail::follow_position at{task->updates.size(), task->version};
        bool artifact_started = !detail::task_view(*task).answer_text().empty();
        while (!has_stopped(sent)) {
            std::optional<task_changes> changes = co_await agent_detail::next_task_changes(*core.tasks(), writer, task_id, at);
            if (!changes) co_return;
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
                std::optional<agent_task> now = co_await core.tasks()->load(task_id);
                if (!now) co_return;
                task = std::move(now);
                at = {task->updates.size(), task->version};
                sent = task->state;
                if (as_data() && sent == task_state::completed) {
                    json::array parts = detail::task_view(*task).answer_parts(true);
                    if (!parts.empty()) co_await send_event(detail::artifact_update(*task, std::move(parts), false, true));
                }
                co_await send_event(detail::status_update(*task, as_data()));
            }
        }
    }

    asio::awaitable<void> stream(net::response_writer& writer, const rpc_call& call, const json::object& params, bool resubscribe) {
        agent_task task; // (no co_await in a conditional expression: g++ 12 frees a wrong pointer)
        if (resubscribe) task = co_await existing(params, call.owner);
        else task = co_await begin(params, call.owner, call.version);
        if (resubscribe && is_final(task.state))
            throw rpc_failure{unsupported_operation, "the task " + task.id + " is " + std::string(to_string(task.state)) +
                                                         ": there is nothing to follow; GetTask reads it"};
        net::http_reply head{.status = 200, .content_type = "text/event-stream", .headers = {{"Cache-Control", "no-cache"}}};
        co_await writer.start(std::move(head));
        co_await follow(writer, call, task);
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
        const rpc::checked_message checked = rpc::classify_received(body);
        const rpc::message_view& message = checked.view;
        if (message.kind != rpc::message_kind::request) {
            const std::string why = checked.problem.empty() ? "an A2A request has an id: every method is answered" : checked.problem;
            co_await writer.send(rpc_reply(rpc::error_reply(rpc::answer_id(body), invalid_request, why)));
            co_return;
        }
        rpc_call call{.id = *message.id, .owner = served_agent::owner_of("a2a", request.caller)};
        std::string method(message.method);
        if (std::optional<rpc_failure> refused = read_version(request, method, call)) {
            co_await writer.send(rpc_reply(call.error(refused->code, refused->message)));
            co_return;
        }
        const json::object no_params;
        if (message.params && !message.params->is_object()) {
            co_await writer.send(rpc_reply(call.error(invalid_params, "params must be an object")));
            co_return;
        }
        const json::object* given = message.params ? &message.params->get_object() : &no_params;
        json::object translated;
        if (call.version == protocol_version::v1_0) translated = v1::legacy_params(*given);
        const json::object& params = call.version == protocol_version::v1_0 ? translated : *given;
        std::optional<rpc_failure> failed;
        try {
            if (method == "message/send") {
                json::value result = co_await send(params, call);
                co_await writer.send(rpc_reply(call.result(std::move(result), true)));
            } else if (method == "message/stream" || method == "tasks/resubscribe") {
                co_await stream(writer, call, params, method == "tasks/resubscribe");
            } else if (method == "tasks/get") {
                const agent_task task = co_await existing(params, call.owner);
                json::value result = detail::task_object(task, as_data());
                limit_history(result, params);
                co_await writer.send(rpc_reply(call.result(std::move(result), false)));
            } else if (method == "tasks/cancel") {
                json::value result = co_await cancel(params, call.owner);
                co_await writer.send(rpc_reply(call.result(std::move(result), false)));
            } else if (method == "tasks/list") {
                json::value result = co_await list(params, call.owner);
                co_await writer.send(rpc_reply(call.result(std::move(result), false)));
            } else if (method == "agent/getAuthenticatedExtendedCard") {
                co_await writer.send(rpc_reply(call.result(extended_card(request, call), false)));
            } else if (configures_push(method)) {
                json::value result = co_await configure_push(method, params, call);
                co_await writer.send(rpc_reply(call.result(std::move(result), false)));
            } else {
                failed = rpc_failure{rpc::method_not_found, "the method " + method + " is not one this A2A agent serves"};
            }
        } catch (rpc_failure& f) {
            failed = std::move(f);
        } catch (const std::exception& e) {
            // A store that refuses (a limit it names) or fails: said with the request's id, unless
            // the answer had begun (a write to the peer failed) or the client left. The server's
            // stop is said too, in the stream or as the answer.
            const auto* system = dynamic_cast<const boost::system::system_error*>(&e);
            if (writer.server_stopped()) failed = rpc_failure{internal_error, "the server is shutting down: the answer ends before the task did"};
            else if (writer.started() || (system && system->code() == asio::error::operation_aborted)) throw;
            else failed = rpc_failure{internal_error, "the agent could not take the request: " + json_detail::valid_utf8(e.what())};
        }
        if (!failed) co_return;
        std::string text = call.error(failed->code, failed->message);
        if (writer.server_stopped() && writer.started()) {
            writer.set_last_event(net::format_sse_event(text));
            co_return;
        }
        if (writer.server_stopped()) co_await asio::this_coro::reset_cancellation_state(); // to answer after the stop canceled it
        if (streams(method) && !writer.started()) {
            // A streaming method answers in events, its errors too (A2A SDK clients read no JSON answer to one).
            net::http_reply head{.status = 200, .content_type = "text/event-stream", .headers = {{"Cache-Control", "no-cache"}}};
            co_await writer.start(std::move(head));
        }
        if (writer.started()) { // an error inside a stream
            co_await writer.write(net::format_sse_event(text));
            co_await writer.finish();
        } else {
            co_await writer.send(rpc_reply(std::move(text)));
        }
    }

    /** The version of a request: its A2A-Version header's, else 1.0 for a 1.0 method name and 0.3
        for the rest. A 1.0 request's method becomes its 0.3 name, which the dispatcher serves.
    */
    static std::optional<rpc_failure> read_version(const net::server_request& request, std::string& method, rpc_call& call) {
        const std::string* header = request.header(v1::version_header);
        const std::optional<std::string_view> legacy_name = v1::legacy_method_of(method);
        if (header) {
            const std::optional<protocol_version> named = v1::version_named(*header);
            if (!named) {
                call.version = protocol_version::v1_0;
                return rpc_failure{version_not_supported, "this agent speaks A2A 1.0 and 0.3, not \"" + *header + "\" (the A2A-Version header)"};
            }
            call.version = *named;
        } else if (legacy_name) {
            call.version = protocol_version::v1_0;
        }
        if (call.version == protocol_version::v1_0) {
            if (const auto new_name = v1::method_of(method))
                return rpc_failure{rpc::method_not_found, "A2A 1.0 names the method " + method + " " + std::string(*new_name)};
            if (legacy_name) method = *legacy_name;
        } else if (legacy_name) {
            return rpc_failure{rpc::method_not_found,
                               "A2A 0.3 names the method " + method + " " + std::string(*legacy_name) + "; send A2A-Version: 1.0 to use 1.0's names"};
        }
        return std::nullopt;
    }
};

server::server(forma::agent& served, server_options options) : state_(std::make_shared<state>(served, std::move(options))) {}

server::~server() = default;

json::object server::card(std::string_view url, protocol_version version) const { return state_->card(url, version); }

std::size_t server::running_tasks() const noexcept { return state_->core.running(); }

push_delivery_counts server::push_deliveries() const noexcept {
    return state_->notifier ? state_->notifier->counts() : push_delivery_counts{};
}

net::http_routes server::routes() const {
    net::http_routes routes;
    routes.shape_errors(&rpc_error_shape);
    const auto s = state_;
    const auto serve_card = [s](net::server_request& request, net::response_writer& writer) -> asio::awaitable<void> {
        const std::string url = s->card_url(request);
        const std::string* asked = request.header(v1::version_header);
        const protocol_version version = asked ? v1::version_named(*asked).value_or(protocol_version::v0_3) : protocol_version::v0_3;
        net::http_reply card{.body = json_detail::serialize_utf8(s->card(url, version)), .headers = {{"Vary", std::string(v1::version_header)}}};
        co_await writer.send(std::move(card));
    };
    routes.add("GET", std::string(card_path), serve_card);
    // Also beside the endpoint, where clients given the endpoint's URL look ("<url>/.well-known/agent-card.json").
    routes.add("GET", s->options.rpc_path + std::string(card_path), serve_card);
    routes.add("POST", s->options.rpc_path, [s](net::server_request& request, net::response_writer& writer) -> asio::awaitable<void> {
        co_await s->dispatch(request, writer);
    });
    return routes;
}

} // namespace forma::a2a
