// forma::a2a::agent: a remote A2A agent as a forma::agent.
#include <forma/a2a/agent.hpp>
#include <forma/model/agent_response_builder.hpp>

#include "../json/json_members.hpp"
#include "../model/json_support.hpp"
#include "a2a_parts.hpp"
#include "push_notifier.hpp"
#include "reply_reader.hpp"
#include "rpc_channel.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <deque>
#include <optional>

namespace forma::a2a {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using clock = std::chrono::steady_clock;

std::string seconds_text(std::chrono::milliseconds d) {
    const auto ms = d.count();
    return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

// What a session keeps of an A2A conversation (state["a2a"]): its context, and the task
// that waits for the caller's answer.
struct conversation {
    std::string context_id;
    std::string waiting_task_id;

    static conversation of(const agent_session& session) {
        conversation c;
        const json::value* kept = session.state.if_contains("a2a");
        if (!kept || !kept->is_object()) return c;
        const json::object& o = kept->get_object();
        if (const json::value* v = o.if_contains("context_id"); v && v->is_string()) c.context_id = std::string(v->get_string());
        if (const json::value* v = o.if_contains("task_id"); v && v->is_string()) c.waiting_task_id = std::string(v->get_string());
        return c;
    }

    static void remember(agent_session& session, const detail::reply_reader& reader) {
        json::object kept;
        if (!reader.context_id().empty()) kept["context_id"] = reader.context_id();
        if (detail::is_interrupted_state(reader.state())) kept["task_id"] = reader.task_id();
        session.state["a2a"] = std::move(kept);
    }
};

// A push notification config as the agent answered it, in either version's shape.
push_notification_config push_config_of(const json::value& given) {
    const json::object* o = given.if_object();
    if (!o) return {};
    detail::push_config c = detail::push_config_fields(*o);
    return {.id = std::move(c.id), .url = std::move(c.url), .token = std::move(c.token), .scheme = std::move(c.scheme),
            .credentials = std::move(c.credentials)};
}

} // namespace

struct agent::state {
    state(asio::any_io_executor ex, agent_options o)
        : executor(ex), options(std::move(o)), id(make_unique_id()), channel(ex, options) {}

    asio::any_io_executor executor;
    agent_options options;
    std::string id;
    detail::rpc_channel channel;
    agent_card card;
    bool connected = false;
    bool connecting = false;
    // Woken (canceled) when a connect() ends, for the runs that waited on it.
    asio::steady_timer connect_ended{executor, asio::steady_timer::time_point::max()};

    // One card read at a time: a second read would replace the channel's connection pool under
    // the first one's request.
    asio::awaitable<void> connect() {
        while (connecting) co_await connect_ended.async_wait(asio::as_tuple(asio::use_awaitable));
        if (connected) co_return;
        connecting = true;
        try {
            card = co_await channel.read_card();
            connected = true;
        } catch (...) {
            connecting = false;
            connect_ended.cancel();
            throw;
        }
        connecting = false;
        connect_ended.cancel();
    }

    detail::reply_reader reader(const agent_run_options& options) const {
        return detail::reply_reader(card.name, id, options.allow_background_responses);
    }

    std::string task_of(const continuation_token& token) const {
        std::string task = detail::task_of(token);
        if (task.empty()) throw channel.error("the continuation token is not one of an A2A task: " + token.to_string());
        return task;
    }

    // message/send's or message/stream's params: the new messages as one A2A message, in the
    // session's context (and in its waiting task).
    json::object send_params(const std::vector<chat_message>& messages, const agent_session& session, bool blocking) const {
        json::array parts = detail::to_parts(messages);
        if (parts.empty()) throw channel.error("a run needs a message with text, data or a file to send");
        const conversation kept = conversation::of(session);
        json::object message{{"kind", "message"}, {"messageId", make_unique_id()}, {"role", "user"}, {"parts", std::move(parts)}};
        if (!kept.context_id.empty()) message["contextId"] = kept.context_id;
        if (!kept.waiting_task_id.empty()) message["taskId"] = kept.waiting_task_id;
        return {{"message", std::move(message)}, {"configuration", {{"blocking", blocking}}}};
    }

    // A task that failed, was rejected or canceled (unless a cancel asked for it), or asks
    // for authentication, is an error.
    void check(const detail::reply_reader& reader, bool canceled_is_fine = false) const {
        const std::string& state = reader.state();
        if (state.empty() || state == "completed" || state == "input-required" || state == "submitted" ||
            state == "working" || (state == "canceled" && canceled_is_fine)) {
            return;
        }
        const std::string said = reader.status_text().empty() ? std::string() : ": " + reader.status_text();
        if (state == "auth-required") {
            throw channel.error("the task " + reader.task_id() + " asks for authentication, which forma does not give" + said);
        }
        if (state == "failed" || state == "rejected" || state == "canceled") {
            throw channel.error("the task " + reader.task_id() + " " + (state == "failed" ? "failed" : "was " + state) + said);
        }
        throw channel.error("the task " + reader.task_id() + " is in a state forma does not know: \"" + state + "\"");
    }

    // Waits until the task has stopped (finished, or waiting for the caller): follows its
    // stream where the agent streams, else polls. Past task_timeout it is canceled.
    asio::awaitable<json::value> wait_for(const std::string& task_id) {
        const auto deadline = clock::now() + options.task_timeout;
        for (;;) {
            const json::object id{{"id", task_id}};
            json::value task = co_await channel.call("tasks/get", id, channel.limits());
            detail::reply_reader probe("", "", false);
            (void)probe.read(task);
            check(probe);
            if (probe.finished()) co_return task;
            if (clock::now() >= deadline) {
                try {
                    (void)co_await channel.call("tasks/cancel", id, channel.limits());
                } catch (const a2a_error&) {
                    // It may have ended meanwhile; the timeout is the error to report.
                }
                throw channel.error("the task " + task_id + " did not finish within " + seconds_text(options.task_timeout) +
                                    " (agent_options::task_timeout); it was canceled");
            }
            if (card.streaming) {
                try {
                    auto events = co_await channel.stream("tasks/resubscribe", id, channel.limits(deadline));
                    while (auto event = co_await events->next()) {
                        (void)probe.read(*event);
                        if (probe.finished()) break;
                    }
                } catch (const a2a_error&) {
                    // A silent task (idle timeout), the deadline, or a stream that broke:
                    // tasks/get says where the task stands.
                }
            } else {
                asio::steady_timer pause(executor, std::min(options.poll_interval,
                                                            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now())));
                co_await pause.async_wait(asio::use_awaitable);
            }
        }
    }

    // A whole run: sends the messages (or polls the token's task), waits unless background
    // answers are allowed, and reads the answer.
    asio::awaitable<agent_response<>> run_whole(std::vector<chat_message> messages, agent_session& session,
                                                const agent_run_options& options) {
        co_await connect();
        json::value result;
        if (options.continuation_token) {
            const json::object id{{"id", task_of(*options.continuation_token)}};
            result = co_await channel.call("tasks/get", id, channel.limits());
        } else {
            result = co_await channel.call("message/send", send_params(messages, session, false), channel.limits());
        }
        {
            detail::reply_reader probe = reader(options);
            (void)probe.read(result);
            check(probe); // a state no one knows is not waited for
            if (!probe.finished() && !options.allow_background_responses) result = co_await wait_for(probe.task_id());
        }
        detail::reply_reader reader = this->reader(options);
        agent_response<> response = to_agent_response(reader.read(result));
        response.raw_representation = result;
        check(reader);
        conversation::remember(session, reader);
        for (auto& m : messages) session.history.push_back(std::move(m));
        session.history.insert(session.history.end(), response.messages.begin(), response.messages.end());
        co_return response;
    }
};

// A streamed run: message/stream (or tasks/resubscribe for a token), each event read as
// updates; the session learns the conversation when the stream ends.
class agent::streaming_run final : public update_source {
public:
    streaming_run(std::shared_ptr<state> s, std::vector<chat_message> messages, std::shared_ptr<agent_session> session,
                  agent_run_options options)
        : state_(std::move(s)), messages_(std::move(messages)), session_(std::move(session)), options_(std::move(options)),
          reader_("", "", false) {}

    asio::awaitable<std::optional<agent_response_update>> next() override {
        if (!started_) {
            started_ = true;
            co_await start();
        }
        for (;;) {
            if (!pending_.empty()) {
                agent_response_update u = std::move(pending_.front());
                pending_.pop_front();
                co_return u;
            }
            if (!events_) co_return std::nullopt;
            // (No co_await in a conditional expression: GCC 12 miscompiles it.)
            std::optional<json::value> event = std::move(first_);
            first_.reset();
            if (!event) event = co_await events_->next();
            if (!event) {
                events_.reset();
                finish();
                continue;
            }
            for (auto& u : reader_.read(*event)) {
                answer_.add(u);
                pending_.push_back(std::move(u));
            }
            state_->check(reader_);
        }
    }

private:
    asio::awaitable<void> start() {
        state& s = *state_;
        co_await s.connect();
        reader_ = s.reader(options_);
        if (!s.card.streaming) {
            co_await replay_whole();
            co_return;
        }
        if (options_.continuation_token) {
            const json::object id{{"id", s.task_of(*options_.continuation_token)}};
            bool refused = false;
            try {
                events_ = co_await s.channel.stream("tasks/resubscribe", id, s.channel.limits());
                first_ = co_await events_->next();
            } catch (const a2a_error&) {
                refused = true; // a finished task cannot be followed (the SDK answers -32004)
            }
            if (refused) {
                events_.reset();
                co_await replay_whole();
            }
        } else {
            events_ = co_await s.channel.stream("message/stream", s.send_params(messages_, *session_, false), s.channel.limits());
        }
    }

    // The whole answer, as updates: for an agent that does not stream, or a finished task.
    asio::awaitable<void> replay_whole() {
        agent_response<> whole = co_await state_->run_whole(std::move(messages_), *session_, options_);
        for (auto& u : whole.to_updates()) pending_.push_back(std::move(u));
        return_whole_ = true;
    }

    void finish() {
        if (return_whole_) return;
        state& s = *state_;
        if (!reader_.finished() && !options_.allow_background_responses) {
            throw s.channel.error("ended the stream of task " + reader_.task_id() + " while it was " + reader_.state());
        }
        conversation::remember(*session_, reader_);
        for (auto& m : messages_) session_->history.push_back(std::move(m));
        const agent_response<>& answer = answer_.response();
        session_->history.insert(session_->history.end(), answer.messages.begin(), answer.messages.end());
    }

    std::shared_ptr<state> state_;
    std::vector<chat_message> messages_;
    std::shared_ptr<agent_session> session_;
    agent_run_options options_;
    detail::reply_reader reader_;
    agent_response_builder answer_;
    std::unique_ptr<detail::rpc_channel::result_stream> events_;
    std::optional<json::value> first_; // read by start()
    std::deque<agent_response_update> pending_;
    bool started_ = false;
    bool return_whole_ = false;
};

agent::agent(asio::any_io_executor executor, agent_options options)
    : state_(std::make_shared<state>(std::move(executor), std::move(options))) {}

agent::~agent() = default;

asio::awaitable<void> agent::connect() { co_await state_->connect(); }

const agent_card& agent::card() const noexcept { return state_->card; }

asio::awaitable<agent_response<>> agent::cancel(const continuation_token& token) {
    state& s = *state_;
    co_await s.connect();
    const json::object id{{"id", s.task_of(token)}};
    json::value result = co_await s.channel.call("tasks/cancel", id, s.channel.limits());
    detail::reply_reader reader = s.reader({});
    agent_response<> response = to_agent_response(reader.read(result));
    response.raw_representation = std::move(result);
    s.check(reader, true);
    co_return response;
}

asio::awaitable<remote_task_page> agent::list_tasks(task_list_query query) {
    state& s = *state_;
    co_await s.connect();
    json::object params{{"includeArtifacts", query.include_artifacts}};
    if (!query.context_id.empty()) params["contextId"] = query.context_id;
    if (!query.state.empty()) params["status"] = query.state;
    if (query.updated_since) params["statusTimestampAfter"] = model_detail::format_time(*query.updated_since);
    if (query.page_size) params["pageSize"] = *query.page_size;
    if (!query.page_token.empty()) params["pageToken"] = query.page_token;
    if (query.history_length) params["historyLength"] = *query.history_length;
    const json::value result = co_await s.channel.call("tasks/list", std::move(params), s.channel.limits());
    const json::object* list = result.if_object();
    const json::value* tasks = list ? list->if_contains("tasks") : nullptr;
    if (!tasks || !tasks->is_array()) throw s.channel.error("answered ListTasks without a \"tasks\" array");
    remote_task_page page;
    for (const json::value& t : tasks->get_array()) {
        const json::object* task = t.if_object();
        if (!task) continue;
        std::string id = json_detail::string_member(*task, "id");
        std::string context_id = json_detail::string_member(*task, "contextId");
        remote_task listed{.id = id, .context_id = context_id, .token = detail::task_token(id, context_id), .raw = *task};
        if (const json::value* status = task->if_contains("status"); status && status->is_object()) {
            listed.state = json_detail::string_member(status->get_object(), "state");
            listed.updated = model_detail::parse_time(json_detail::string_member(status->get_object(), "timestamp"));
        }
        page.tasks.push_back(std::move(listed));
    }
    if (const json::value* total = list->if_contains("totalSize"); total && total->is_int64() && total->get_int64() > 0)
        page.total = static_cast<std::size_t>(total->get_int64());
    page.next_page_token = json_detail::string_member(*list, "nextPageToken");
    co_return page;
}

asio::awaitable<agent_card> agent::read_extended_card() {
    state& s = *state_;
    co_await s.connect();
    const json::value result = co_await s.channel.call("agent/getAuthenticatedExtendedCard", json::object(), s.channel.limits());
    if (!result.is_object()) throw s.channel.error("answered GetExtendedAgentCard with something that is not a card");
    agent_card extended = s.channel.card_of(result.get_object(), "GetExtendedAgentCard");
    extended.url = s.card.url;
    extended.spoken_version = s.card.spoken_version;
    s.card = extended;
    co_return extended;
}

asio::awaitable<push_notification_config> agent::set_push_notification(const continuation_token& task, push_notification_config config) {
    state& s = *state_;
    co_await s.connect();
    const detail::push_config given{.id = std::move(config.id), .task_id = s.task_of(task), .url = std::move(config.url),
                                    .token = std::move(config.token), .scheme = std::move(config.scheme),
                                    .credentials = std::move(config.credentials), .version = s.card.spoken_version};
    json::object params = detail::push_config_object(given);
    const json::value result = co_await s.channel.call("tasks/pushNotificationConfig/set", std::move(params), s.channel.limits());
    co_return push_config_of(result);
}

asio::awaitable<std::vector<push_notification_config>> agent::push_notifications(const continuation_token& task) {
    state& s = *state_;
    co_await s.connect();
    const bool v1_0 = s.card.spoken_version == protocol_version::v1_0;
    json::object params{{v1_0 ? "taskId" : "id", s.task_of(task)}};
    const json::value result = co_await s.channel.call("tasks/pushNotificationConfig/list", std::move(params), s.channel.limits());
    const json::array* listed = result.if_array();
    if (const json::object* o = result.if_object())
        if (const json::value* configs = o->if_contains("configs")) listed = configs->if_array();
    std::vector<push_notification_config> configs;
    if (listed)
        for (const json::value& c : *listed) configs.push_back(push_config_of(c));
    co_return configs;
}

asio::awaitable<void> agent::delete_push_notification(const continuation_token& task, std::string id) {
    state& s = *state_;
    co_await s.connect();
    const bool v1_0 = s.card.spoken_version == protocol_version::v1_0;
    json::object params{{v1_0 ? "taskId" : "id", s.task_of(task)}, {v1_0 ? "id" : "pushNotificationConfigId", std::move(id)}};
    (void)co_await s.channel.call("tasks/pushNotificationConfig/delete", std::move(params), s.channel.limits());
}

agent::executor_type agent::get_executor() const { return state_->executor; }

std::string_view agent::id() const noexcept { return state_->id; }

std::string_view agent::name() const noexcept { return state_->connected ? state_->card.name : state_->options.base_url; }

std::string_view agent::description() const noexcept { return state_->card.description; }

asio::awaitable<agent_response<>> agent::run_core(agent_run run) {
    co_return co_await state_->run_whole(std::move(run.messages), *run.session, run.options);
}

update_stream agent::run_streaming_core(agent_run run) {
    return update_stream(state_->executor,
                         std::make_unique<streaming_run>(state_, std::move(run.messages), std::move(run.session), std::move(run.options)));
}

} // namespace forma::a2a
