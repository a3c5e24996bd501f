#include <forma/agent/served_agent.hpp>

#include <forma/agent/in_memory_session_store.hpp>
#include <forma/agent/in_memory_task_store.hpp>

#include <forma/model/agent_response_builder.hpp>
#include <forma/model/awaits_input.hpp>

#include "../json/json_text.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include <limits>
#include <map>

namespace forma {

namespace asio = boost::asio;

namespace {

// How long settle() waits on the store between looks when it has no deadline.
constexpr std::chrono::seconds settle_slice{15};

} // namespace

struct served_agent::state {
    agent& served;
    std::shared_ptr<task_store> tasks;
    std::shared_ptr<session_store> sessions;
    std::map<std::string, std::shared_ptr<asio::cancellation_signal>> running; // task id -> its run's stop

    asio::awaitable<std::shared_ptr<agent_session>> session_for(session_id id) {
        std::optional<agent_session> loaded = co_await sessions->load(id);
        if (loaded) co_return std::make_shared<agent_session>(std::move(*loaded));
        std::shared_ptr<agent_session> fresh = served.create_session();
        fresh->id = std::move(id);
        co_return fresh;
    }

    // Whether `stop` is still the signal of the run of `task_id` here.
    bool runs_here(const std::string& task_id, const std::shared_ptr<asio::cancellation_signal>& stop) const {
        const auto it = running.find(task_id);
        return it != running.end() && it->second == stop;
    }

    /* Cancels the run when the store says its cancellation was asked for, by any instance of a
       fleet (a request to another server): the task's changes are watched while the run goes on
       here. Its end is a change too, so the watch ends with it. */
    static asio::awaitable<void> watch_for_cancel(std::shared_ptr<state> s, std::string task_id,
                                                  std::shared_ptr<asio::cancellation_signal> stop) {
        constexpr auto no_updates = static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
        std::uint64_t seen = 0;
        try {
            while (s->runs_here(task_id, stop)) {
                std::optional<task_changes> changed = co_await s->tasks->changes(task_id, no_updates, seen, settle_slice);
                if (!changed || is_final(changed->state)) co_return;
                if (changed->cancel_requested) {
                    if (s->runs_here(task_id, stop)) stop->emit(asio::cancellation_type::terminal);
                    co_return;
                }
                seen = changed->version;
            }
        } catch (const std::exception&) {
            // The store failed: a cancellation asked elsewhere does not reach this run, one asked here still does.
        }
    }

    // `stop`: the signal of this run's cancellation slot, to find the run's own entry in `running`.
    static asio::awaitable<void> run(std::shared_ptr<state> s, std::string task_id, session_id conversation,
                                     std::vector<chat_message> input, agent_run_options options,
                                     std::shared_ptr<asio::cancellation_signal> stop) {
        task_store& tasks = *s->tasks;
        bool canceled = false;
        std::string failure;
        try {
            std::shared_ptr<agent_session> session = co_await s->session_for(std::move(conversation));
            // Where the caller spoke (last_answer reads the run's answer from after it); the words
            // themselves are in the task's input and the session, not stored a third time.
            std::vector<agent_response_update> said;
            said.emplace_back(chat_role::user(), std::vector<content>{});
            co_await tasks.append(task_id, std::move(said));
            co_await tasks.set_state(task_id, task_state::working);
            update_stream stream = s->served.run_streaming(std::move(input), session, std::move(options));
            agent_response_builder answer;
            for (;;) {
                std::optional<agent_response_update> update = co_await stream.next();
                if (!update) break;
                answer.add(*update);
                std::vector<agent_response_update> one;
                one.push_back(std::move(*update));
                co_await tasks.append(task_id, std::move(one));
            }
            co_await s->sessions->save(*session);
            const agent_response<>& response = answer.response();
            const bool waits = !response.approval_requests().empty() || awaits_input(response);
            const task_state stopped = waits ? task_state::input_required : task_state::completed;
            co_await tasks.set_state(task_id, stopped);
        } catch (const boost::system::system_error& e) {
            if (e.code() == asio::error::operation_aborted) canceled = true;
            else failure = e.what();
        } catch (const std::exception& e) {
            failure = e.what();
        }
        if (const auto it = s->running.find(task_id); it != s->running.end() && it->second == stop) s->running.erase(it);
        if (canceled || !failure.empty()) {
            co_await asio::this_coro::reset_cancellation_state();
            try {
                std::string why = canceled ? std::string() : json_detail::valid_utf8(failure);
                const task_state ended = canceled ? task_state::canceled : task_state::failed;
                co_await tasks.set_state(task_id, ended, std::move(why));
            } catch (const std::exception&) {
                // The store failed too: the task stays as it was last written.
            }
        }
    }
};

served_agent::served_agent(agent& served, std::shared_ptr<task_store> tasks, std::shared_ptr<session_store> sessions) {
    if (!tasks) tasks = std::make_shared<in_memory_task_store>(served.get_executor());
    if (!sessions) sessions = std::make_shared<in_memory_session_store>(served.get_executor());
    state_ = std::make_shared<state>(state{served, std::move(tasks), std::move(sessions), {}});
}

served_agent::~served_agent() {
    const auto running = state_->running; // a run erases its entry as it ends
    for (const auto& [id, stop] : running) stop->emit(asio::cancellation_type::terminal);
}

agent& served_agent::served() const noexcept { return state_->served; }
const std::shared_ptr<task_store>& served_agent::tasks() const noexcept { return state_->tasks; }
const std::shared_ptr<session_store>& served_agent::sessions() const noexcept { return state_->sessions; }

std::string served_agent::owner_of(std::string_view protocol, std::string_view caller) {
    std::string owner(protocol);
    owner += '/';
    owner += caller;
    return owner;
}

session_id served_agent::session_of(const agent_task& task) { return session_id(task.owner + "/" + task.context_id); }

asio::awaitable<std::optional<agent_task>> served_agent::load_owned(std::string id, std::string_view owner) const {
    const auto s = state_;
    std::optional<agent_task> task = co_await s->tasks->load(std::move(id));
    if (task && task->owner != owner) task.reset();
    co_return task;
}

void served_agent::start(const agent_task& task, std::vector<chat_message> input, agent_run_options options) {
    auto stop = std::make_shared<asio::cancellation_signal>();
    state_->running[task.id] = stop;
    asio::co_spawn(state_->served.get_executor(), state::watch_for_cancel(state_, task.id, stop), asio::detached);
    // The completion handler keeps the signal alive until co_spawn has let go of its slot.
    asio::co_spawn(state_->served.get_executor(),
                   state::run(state_, task.id, session_of(task), std::move(input), std::move(options), stop),
                   asio::bind_cancellation_slot(stop->slot(), [stop](std::exception_ptr) {}));
}

asio::awaitable<void> served_agent::cancel(const agent_task& task) {
    const auto s = state_;
    const std::string id = task.id;
    const bool waits = task.state == task_state::input_required;
    (void)co_await s->tasks->request_cancel(id);
    if (waits) co_await s->tasks->set_state(id, task_state::canceled);
    else stop(id);
}

bool served_agent::stop(const std::string& task_id) {
    const auto it = state_->running.find(task_id);
    if (it == state_->running.end()) return false;
    const auto signal = it->second;
    signal->emit(asio::cancellation_type::terminal);
    return true;
}

std::size_t served_agent::running() const noexcept { return state_->running.size(); }

asio::awaitable<std::optional<agent_task>> served_agent::settle(std::string task_id, std::optional<clock::time_point> deadline) {
    const auto s = state_;
    for (;;) {
        std::optional<agent_task> task = co_await s->tasks->load(task_id);
        if (!task) co_return std::nullopt;
        if (has_stopped(task->state)) co_return task;
        if (deadline && clock::now() >= *deadline) co_return task;
        const auto wait = deadline ? std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - clock::now())
                                   : std::chrono::milliseconds(settle_slice);
        (void)co_await s->tasks->changes(task_id, task->updates.size(), task->version, std::max(wait, std::chrono::milliseconds(1)));
    }
}

} // namespace forma
