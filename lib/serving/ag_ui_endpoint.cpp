// forma::serving::ag_ui_endpoint: an agent behind AG-UI, for front ends.
#include <forma/serving/ag_ui_endpoint.hpp>
#include <forma/agent/served_agent.hpp>

#include "../agent/task_follow.hpp"
#include "../json/json_members.hpp"
#include "../json/json_text.hpp"
#include "../net/media_type.hpp"
#include "ag_ui_events.hpp"
#include "ag_ui_input.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <map>

namespace forma::serving {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;

/// A request that cannot be run: its status and why.
struct refusal {
    unsigned status;
    std::string message;
};

/// The paused run that resume entries answer, and the answers as the run's next input.
struct resumption {
    agent_task paused;
    std::vector<chat_message> input;
    bool ends = false; ///< the question was cancelled: nothing more to run
};

// An approval's answer: true or false, or {approved, reason?}.
std::optional<function_approval_response_content> approval_answer(const function_approval_request_content& request,
                                                                   const detail::ag_ui_resume_entry& entry) {
    if (!entry.resolved) return request.reject("cancelled");
    if (entry.payload.is_bool()) return entry.payload.get_bool() ? request.approve() : request.reject();
    const json::object* answer = entry.payload.if_object();
    const json::value* approved = answer ? answer->if_contains("approved") : nullptr;
    if (!approved || !approved->is_bool()) return std::nullopt;
    return approved->get_bool() ? request.approve() : request.reject(json_detail::string_member(*answer, "reason"));
}

// What entries answer in a paused task: approval responses, or the question's answer as text.
resumption answers(agent_task paused, const std::vector<detail::ag_ui_resume_entry>& entries) {
    std::map<std::string, const detail::ag_ui_resume_entry*> by_key;
    for (const auto& e : entries) by_key[e.interrupt_id.substr(paused.id.size() + 1)] = &e;
    resumption out{.paused = std::move(paused), .input = {}};
    const std::vector<function_approval_request_content> requests = last_answer(out.paused).approval_requests();
    std::vector<content> said;
    if (requests.empty()) {
        const auto answer = by_key.find(std::string(detail::question_key));
        if (answer == by_key.end() || by_key.size() != 1)
            throw refusal{400, "resume must answer the interrupt " + detail::interrupt_id(out.paused.id, detail::question_key) + " alone"};
        const detail::ag_ui_resume_entry& e = *answer->second;
        if (!e.resolved) {
            out.ends = true;
            return out;
        }
        if (e.payload.is_null()) throw refusal{400, "the answer to " + e.interrupt_id + " needs a payload (a string)"};
        said.emplace_back(text_content(e.payload.is_string() ? std::string(e.payload.get_string()) : json::serialize(e.payload)));
    } else {
        for (const function_approval_request_content& request : requests) {
            const auto entry = by_key.find(request.id);
            if (entry == by_key.end())
                throw refusal{400, "the interrupt " + detail::interrupt_id(out.paused.id, request.id) + " is not answered: resume answers every interrupt of the run"};
            std::optional<function_approval_response_content> answer = approval_answer(request, *entry->second);
            if (!answer) throw refusal{400, "the answer to " + entry->second->interrupt_id + " must be {\"approved\": boolean, \"reason\"?: string}"};
            said.emplace_back(std::move(*answer));
            by_key.erase(entry);
        }
        if (!by_key.empty()) throw refusal{404, "the run has no interrupt " + by_key.begin()->second->interrupt_id};
    }
    out.input.emplace_back(chat_role::user(), std::move(said));
    return out;
}

} // namespace

struct ag_ui_endpoint::state {
    state(forma::agent& a, ag_ui_options o)
        : options(std::move(o)), core(a, options.tasks, options.sessions) {}

    ag_ui_options options;
    served_agent core;

    asio::awaitable<resumption> paused_run(const std::vector<detail::ag_ui_resume_entry>& entries, const std::string& owner) {
        const std::string& first = entries.front().interrupt_id;
        const std::size_t slash = first.find('/');
        if (slash == std::string::npos) throw refusal{404, "no paused run has the interrupt " + first}; // ids are "run/request"
        const std::string task_id = first.substr(0, slash);
        for (const auto& e : entries)
            if (e.interrupt_id.size() <= task_id.size() || e.interrupt_id.compare(0, task_id.size() + 1, task_id + "/") != 0)
                throw refusal{400, "resume entries must answer the interrupts of one run (" + e.interrupt_id + " is of another)"};
        std::optional<agent_task> paused = co_await core.load_owned(task_id, owner);
        if (!paused) throw refusal{404, "no paused run has the interrupt " + first};
        if (paused->state != task_state::input_required)
            throw refusal{409, "the run of the interrupt " + first + " is not waiting for an answer: it was answered already, or it ended"};
        co_return answers(std::move(*paused), entries);
    }

    asio::awaitable<void> run(net::server_request& request, net::response_writer& writer) {
        const std::string* type = request.header("Content-Type");
        if (!type || !net::detail::has_media_type(*type, net::detail::json_media_type)) {
            co_await writer.send(net::plain_json_error(415, "the body must be a RunAgentInput in JSON (Content-Type: application/json)"));
            co_return;
        }
        boost::system::error_code ec;
        const json::value body = json::parse(request.body, ec);
        std::optional<refusal> refused;
        detail::ag_ui_run_input input;
        std::optional<resumption> resumed;
        try {
            if (ec || !body.is_object()) throw refusal{400, ec ? "the body is not JSON: " + ec.message() : "the body must be a RunAgentInput object"};
            input = detail::read_run_input(body.get_object());
        } catch (const detail::request_error& e) {
            refused = refusal{400, e.param + ": " + e.message};
        } catch (const refusal& r) {
            refused = r;
        }
        const std::string owner = served_agent::owner_of("ag-ui", request.caller);
        if (!refused && !input.resume.empty()) {
            try {
                resumed = co_await paused_run(input.resume, owner);
                // Answered: a second resume of the same interrupts is refused, also one that
                // came at the same time (to another server of a fleet, say).
                const task_state answered = resumed->ends ? task_state::canceled : task_state::completed;
                const bool answered_here = co_await core.tasks()->transition(resumed->paused.id, task_state::input_required, answered);
                if (!answered_here)
                    throw refusal{409, "the run of the interrupt " + input.resume.front().interrupt_id + " was answered already"};
            } catch (const refusal& r) {
                refused = r;
            }
        }
        if (refused) {
            co_await writer.send(net::plain_json_error(refused->status, json_detail::valid_utf8(refused->message)));
            co_return;
        }

        detail::ag_ui_events events(input.thread_id, input.run_id);
        net::http_reply head{.status = 200, .content_type = "text/event-stream", .headers = {{"Cache-Control", "no-cache"}}};
        std::string context_id = make_unique_id();
        std::vector<chat_message> run_input = std::move(input.messages);
        if (resumed) {
            context_id = resumed->paused.context_id;
            run_input = std::move(resumed->input);
            if (resumed->ends) {
                co_await core.sessions()->erase(served_agent::session_of(resumed->paused));
                agent_task ended{.id = resumed->paused.id, .context_id = context_id, .owner = owner, .state = task_state::canceled};
                std::string text = sse(events.run_started());
                for (const json::object& e : events.finish(ended, false)) text += sse(e);
                co_await writer.start(std::move(head));
                co_await writer.write(text);
                co_await writer.finish();
                co_return;
            }
        }
        agent_task task{.id = make_unique_id(), .context_id = context_id, .owner = owner, .input = run_input};
        co_await core.tasks()->create(task);
        agent_run_options run_options;
        run_options.response_format = options.answer_format;
        if (!input.forwarded_props.empty()) run_options.additional_properties["ag_ui.forwarded_props"] = std::move(input.forwarded_props);
        core.start(task, std::move(run_input), std::move(run_options));

        std::exception_ptr gone; // the client went away, or the server stops
        std::optional<agent_task> final_task;
        try {
            co_await writer.start(std::move(head));
            co_await writer.write(sse(events.run_started()));
            final_task = co_await follow(writer, task.id, events);
        } catch (...) {
            gone = std::current_exception();
            core.stop(task.id);
        }
        if (gone || !final_task || final_task->state != task_state::input_required) {
            co_await asio::this_coro::reset_cancellation_state();
            co_await core.sessions()->erase(served_agent::session_of(task));
        }
        if (gone && writer.server_stopped() && writer.started()) {
            const json::object last{{"type", "RUN_ERROR"}, {"message", "the server is shutting down; the run was canceled"}, {"code", "server_shutting_down"}};
            writer.set_last_event(sse(last));
            co_return;
        }
        if (gone) std::rethrow_exception(gone);
        co_await writer.finish();
    }

    static std::string sse(const json::object& event) { return net::format_sse_event(json_detail::serialize_utf8(event)); }

    // The run's events as they are stored, until it stops; the task it left.
    asio::awaitable<std::optional<agent_task>> follow(net::response_writer& writer, const std::string& id, detail::ag_ui_events& events) {
        agent_detail::follow_position at;
        for (;;) {
            std::optional<task_changes> changes = co_await agent_detail::next_task_changes(*core.tasks(), writer, id, at);
            if (!changes) {
                const json::object lost{{"type", "RUN_ERROR"}, {"message", "the run's task is gone from the store"}, {"code", "task_lost"}};
                co_await writer.write(sse(lost));
                co_return std::nullopt;
            }
            std::string text;
            for (const agent_response_update& u : changes->updates)
                for (const json::object& e : events.add(u)) text += sse(e);
            std::optional<agent_task> task;
            if (has_stopped(changes->state)) {
                task = co_await core.tasks()->load(id);
                if (task)
                    for (const json::object& e : events.finish(*task, options.answer_format.has_value())) text += sse(e);
            }
            if (!text.empty()) co_await writer.write(text);
            if (task) co_return task;
        }
    }
};

ag_ui_endpoint::ag_ui_endpoint(forma::agent& served, ag_ui_options options) : state_(std::make_shared<state>(served, std::move(options))) {}

ag_ui_endpoint::~ag_ui_endpoint() = default;

net::http_routes ag_ui_endpoint::routes() const {
    net::http_routes routes;
    const auto s = state_;
    routes.add("POST", s->options.path,
               [s](net::server_request& r, net::response_writer& w) -> asio::awaitable<void> { co_await s->run(r, w); });
    return routes;
}

} // namespace forma::serving
