#include <forma/orchestration/orchestration.hpp>

#include <forma/json/json_error.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/model/awaits_input.hpp>

#include "state_writer.hpp"

#include "../agent/agent_span.hpp"
#include "../json/json_text.hpp"
#include "../text/failure_text.hpp"
#include "../model/joined_response.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/value_to.hpp>
#include <boost/system/system_error.hpp>

#include <algorithm>
#include <deque>
#include <limits>
#include <utility>

namespace forma {

namespace asio = boost::asio;
using json_detail::valid_utf8;

orchestration::orchestration(std::string kind, std::vector<std::shared_ptr<agent>> participants,
                             orchestration_options options)
    : kind_(std::move(kind)), participants_(std::move(participants)), options_(std::move(options)) {
    if (participants_.empty()) throw error("a " + kind_ + " orchestration needs participants");
    for (std::size_t i = 0; i < participants_.size(); ++i) {
        if (!participants_[i]) throw error("participant " + std::to_string(i) + " of the " + kind_ + " orchestration is null");
        const std::string_view name = participants_[i]->name();
        if (name.empty())
            throw error("participant " + std::to_string(i) + " of the " + kind_ +
                        " orchestration has no name: its messages are told apart by it, so give it one");
        for (std::size_t j = 0; j < i; ++j)
            if (participants_[j]->name() == name)
                throw error("two participants of the " + kind_ + " orchestration are named \"" + valid_utf8(name) +
                            "\": their messages are told apart by name, so names must be unique");
    }
    if (options_.id.empty()) options_.id = make_unique_id();
    if (options_.name.empty()) options_.name = kind_;
}

orchestration::~orchestration() = default;

orchestration::executor_type orchestration::get_executor() const { return participants_.front()->get_executor(); }

agent* orchestration::participant(std::string_view name) const noexcept {
    for (const auto& p : participants_)
        if (p->name() == name) return p.get();
    return nullptr;
}

std::size_t orchestration::index_of(std::string_view name) const {
    for (std::size_t i = 0; i < participants_.size(); ++i)
        if (participants_[i]->name() == name) return i;
    throw error("the " + kind_ + " orchestration \"" + valid_utf8(options_.name) + "\" has no participant named \"" +
                valid_utf8(name) + "\"");
}

orchestration_state orchestration::state_of(const agent_session& session) const {
    const boost::json::value* stored = session.state.if_contains(state_key);
    orchestration_state state;
    state.kind = kind_;
    if (!stored) return state;
    try {
        state = boost::json::value_to<orchestration_state>(*stored);
    } catch (const json_error& e) {
        throw json_error("/state/" + std::string(state_key) + e.path(), e.reason());
    }
    if (state.kind != kind_)
        throw error("the session \"" + valid_utf8(session.id.str()) + "\" is in the middle of a " +
                    valid_utf8(state.kind) + " orchestration, not a " + kind_ + " one");
    return state;
}

std::size_t orchestration::max_output_retries(const agent_run_options& run_options) const {
    std::size_t most = participants_.size() > 1 ? 1 : 0;
    for (const auto& p : participants_) most = std::max(most, p->max_output_retries(run_options));
    return most;
}

asio::awaitable<std::shared_ptr<agent_session>> orchestration::open_session(session_id id) {
    if (!options_.checkpoints) co_return co_await agent::open_session(std::move(id));
    if (id.empty()) throw error("a stored run needs a session id");
    std::optional<agent_session> loaded = co_await options_.checkpoints->load(id);
    if (loaded) co_return std::make_shared<agent_session>(std::move(*loaded));
    std::shared_ptr<agent_session> fresh = create_session();
    fresh->id = std::move(id);
    co_return fresh;
}

std::vector<chat_message> orchestration::view(std::size_t, const turn& t) const { return t.conversation; }

bool orchestration::may_answer_last(std::size_t, const turn&) const { return true; }

void orchestration::prepare(std::size_t, agent_run_options&, const turn&) const {}

std::optional<chat_message> orchestration::conclude(turn&) { return std::nullopt; }

namespace {

// Names the speaker on every message of its step that has no name: its tools' results, and what an
// agent that is not a chat_client_agent said.
void claim(std::string_view speaker, agent_response<>& response) {
    for (chat_message& m : response.messages)
        if (m.author_name.empty()) m.author_name = speaker;
}
void claim(std::string_view speaker, agent_response_update& update) {
    if (update.author_name.empty() && !update.contents.empty()) update.author_name = speaker;
}

agent_response_update as_update(chat_message message) {
    agent_response_update update(message.role, std::move(message.contents));
    update.author_name = std::move(message.author_name);
    update.message_id = std::move(message.message_id);
    update.created_at = message.created_at;
    return update;
}

} // namespace

/* One run, whole or streamed: the state, the conversation (the session's history), and what the
   run has answered so far. The run's two forms differ only in how a participant is run. */
class orchestration::engine {
public:
    /// `streamed`: the run's stream yields what the orchestration adds (take_added).
    engine(orchestration& owner, agent_run run, bool streamed)
        : owner_(owner), run_(std::move(run)), streamed_(streamed), sessions_(owner.participants_.size()) {}

    /// Loads the state and adds the run's messages to the conversation.
    void start() {
        state_ = owner_.state_of(*run_.session);
        // A run cut short goes on: from its speakers, or (cut while they were chosen) by choosing again.
        const bool cut_short = state_.status != orchestration_status::idle;
        resuming_ = cut_short && !state_.speakers.empty();
        std::vector<chat_message>& history = run_.session->history;
        for (chat_message& m : run_.messages) history.push_back(std::move(m));
        run_.messages.clear();
        if (!cut_short) {
            owner_.begin(state_);
            state_.step = 0;
            state_.fan_out_start = history.size();
        }
        state_.status = orchestration_status::running;
    }

    /// The next step's speakers, saved as the state's before the step runs; none ends the run.
    asio::awaitable<std::vector<std::size_t>> next_step() {
        if (stopped_) co_return std::vector<std::size_t>{};
        std::vector<std::size_t> speakers;
        if (resuming_) {
            for (const std::string& name : state_.speakers) speakers.push_back(owner_.index_of(name));
            resuming_ = false;
        } else {
            std::exception_ptr failure;
            try {
                speakers = co_await owner_.next_speakers(current());
            } catch (...) {
                failure = std::current_exception();
            }
            if (failure) co_await fail_choosing(failure);
        }
        if (speakers.empty()) {
            turn t = current();
            if (std::optional<chat_message> last = owner_.conclude(t)) add(std::move(*last));
            state_.status = orchestration_status::idle;
            stopped_ = true;
        } else {
            state_.speakers.clear();
            for (std::size_t s : speakers) state_.speakers.emplace_back(owner_.participants_[s]->name());
        }
        co_await save_or_fail();
        co_return speakers;
    }

    agent& participant(std::size_t speaker) const { return *owner_.participants_[speaker]; }

    /** What `speaker` is given in this step: its view of the conversation, in a session of its own.
        A participant whose session keeps state gets it back, with the part of its view it has seen
        as the session's history and only the rest as new messages (a remote agent has the rest
        already); any other gets the whole view as new messages. */
    agent_run speaker_run(std::size_t speaker) {
        const turn t = current();
        agent_run_options options;
        options.chat_options = run_.options.chat_options;
        options.additional_properties = run_.options.additional_properties;
        options.context = run_.options.context;
        if (owner_.may_answer_last(speaker, t)) {
            options.response_format = run_.options.response_format;
            options.structured_output_mode = run_.options.structured_output_mode;
            options.output_validator = run_.options.output_validator;
            options.max_output_retries = run_.options.max_output_retries;
        }
        owner_.prepare(speaker, options, t);
        std::vector<chat_message> view = owner_.view(speaker, t);
        std::shared_ptr<agent_session> session = participant(speaker).create_session();
        if (const auto memory = state_.participants.find(participant(speaker).name()); memory != state_.participants.end()) {
            session->state = memory->second.state;
            const std::vector<chat_message> seen(t.conversation.begin(),
                                                 t.conversation.begin() +
                                                     static_cast<std::ptrdiff_t>(std::min(memory->second.seen, t.conversation.size())));
            const std::size_t old = std::min(owner_.view(speaker, turn{seen, t.options, t.state}).size(), view.size());
            session->history.assign(std::make_move_iterator(view.begin()),
                                    std::make_move_iterator(view.begin() + static_cast<std::ptrdiff_t>(old)));
            view.erase(view.begin(), view.begin() + static_cast<std::ptrdiff_t>(old));
        }
        sessions_[speaker] = session;
        return agent_run{std::move(view), std::move(session), std::move(options)};
    }

    /// The step's span of `speaker` under the run's, when the run is traced; it becomes the run's parent.
    std::optional<telemetry::operation_span> span_for(std::size_t speaker, agent_run& run, bool streaming) const {
        if (!run_.options.context.trace) return std::nullopt;
        std::optional<telemetry::operation_span> span;
        span.emplace(agent_detail::start_agent_span(participant(speaker), *run_.options.context.trace, {}, run, streaming));
        if (span->recording()) run.options.context.trace = span->child();
        return span;
    }

    /// Adds `speaker`'s answer to the conversation, then what the orchestration adds after it.
    void record(std::size_t speaker, agent_response<> response) {
        const std::string_view name = participant(speaker).name();
        claim(name, response);
        std::vector<chat_message>& history = run_.session->history;
        history.insert(history.end(), response.messages.begin(), response.messages.end());
        remember(speaker);
        std::vector<chat_message> added;
        if (!response.approval_requests().empty() || awaits_input(response)) {
            waiting_.push_back(speaker);
        } else {
            turn t = current();
            try {
                added = owner_.after(speaker, response, t);
            } catch (const orchestration_error& limit) {
                limit_ = limit;
                added = limit.partial_response().messages; // what the limit's step still adds
            }
        }
        model_detail::add_response(out_, std::move(response));
        for (chat_message& m : added) add(std::move(m));
    }

    /** The step is over: a participant that asked for approvals stops the run (waiting), the
        failures end it with an orchestration_error for the first one; the others answered. */
    asio::awaitable<void> end_step(const std::vector<std::size_t>& speakers, std::vector<std::exception_ptr> failures) {
        std::exception_ptr failure;
        std::size_t failed = 0;
        std::vector<std::size_t> unfinished = waiting_;
        for (std::size_t i = 0; i < speakers.size(); ++i) {
            if (!failures[i]) continue;
            if (!failure) failure = failures[i], failed = speakers[i];
            unfinished.push_back(speakers[i]);
        }
        if (!unfinished.empty()) {
            state_.speakers.clear();
            for (std::size_t s : unfinished) state_.speakers.emplace_back(owner_.participants_[s]->name());
        }
        if (limit_) {
            state_.status = orchestration_status::idle; // a limit ends the run: the next one starts afresh
            co_await save_quietly();
            throw orchestration_error(limit_->what(), limit_->participant(), state_.step + 1, nullptr, out_);
        }
        if (failure) {
            co_await save_quietly(); // the answers that came are kept: the next run asks only the others
            if (text_detail::is_cancellation(failure)) std::rethrow_exception(failure);
            const std::string name(participant(failed).name());
            throw orchestration_error("the participant \"" + valid_utf8(name) + "\" failed at step " +
                                          std::to_string(state_.step + 1) + " of the " + owner_.kind_ +
                                          " orchestration \"" + valid_utf8(owner_.options_.name) +
                                          "\": " + valid_utf8(text_detail::failure_text(failure)),
                                      name, state_.step + 1, failure, out_);
        }
        if (!waiting_.empty()) {
            state_.status = orchestration_status::waiting;
            stopped_ = true;
            co_await save_or_fail();
        } else {
            ++state_.step;
        }
    }

    /// Messages the orchestration added since the last call (for a stream to yield).
    std::vector<chat_message> take_added() { return std::exchange(added_, {}); }

    agent_response<> take_response() {
        out_.agent_id = std::string(owner_.id());
        return std::move(out_);
    }

    const std::string& id() const noexcept { return owner_.options_.id; }
    asio::any_io_executor executor() const { return owner_.get_executor(); }

private:
    turn current() { return turn{run_.session->history, run_.options, state_}; }

    // Keeps what `speaker`'s session holds besides the conversation (a remote agent's context),
    // and how much of the conversation it has seen, for its next step.
    void remember(std::size_t speaker) {
        const std::shared_ptr<agent_session>& session = sessions_[speaker];
        const std::string_view name = participant(speaker).name();
        if (!session || session->state.empty()) {
            if (const auto memory = state_.participants.find(name); memory != state_.participants.end())
                state_.participants.erase(memory);
            return;
        }
        participant_memory& memory = state_.participants[std::string(name)];
        memory.seen = run_.session->history.size();
        memory.state = std::move(session->state);
    }

    void add(chat_message message) {
        run_.session->history.push_back(message);
        if (!streamed_) {
            out_.messages.push_back(std::move(message));
            return;
        }
        out_.messages.push_back(message);
        added_.push_back(std::move(message));
    }

    asio::awaitable<void> save() {
        orchestration_detail::write_state(run_.session->state[state_key], state_);
        if (const auto& store = owner_.options_.checkpoints) co_await store->save(*run_.session);
    }

    /// Saves; a checkpoint store that fails ends the run with an orchestration_error. The session
    /// in hand holds the state still: a run on it goes on from here.
    asio::awaitable<void> save_or_fail() {
        std::exception_ptr failure;
        try {
            co_await save();
        } catch (...) {
            failure = std::current_exception();
        }
        if (!failure) co_return;
        if (text_detail::is_cancellation(failure)) std::rethrow_exception(failure);
        throw orchestration_error("the checkpoint before step " + std::to_string(state_.step + 1) + " of the " + owner_.kind_ +
                                      " orchestration \"" + valid_utf8(owner_.options_.name) + "\" could not be saved: " +
                                      valid_utf8(text_detail::failure_text(failure)),
                                  "", state_.step + 1, failure, out_);
    }

    /// Saves on the way out of a failed step: a store that fails too does not hide the failure.
    asio::awaitable<void> save_quietly() {
        try {
            co_await save();
        } catch (...) {
        }
    }

    /** Choosing the next step's speakers failed (a group chat's manager or selector): the state
        says the step finished and the next is to be chosen, saved, and the run ends with an
        orchestration_error naming who chose, with what the run answered. The next run chooses
        again: nothing that finished runs twice. */
    asio::awaitable<void> fail_choosing(std::exception_ptr failure) {
        state_.speakers.clear();
        co_await save_quietly();
        if (text_detail::is_cancellation(failure)) std::rethrow_exception(failure);
        std::string who;
        std::string why = valid_utf8(text_detail::failure_text(failure));
        std::exception_ptr cause = failure;
        try {
            std::rethrow_exception(failure);
        } catch (const orchestration_error& named) { // the kind said who chose
            who = named.participant();
            if (named.cause()) cause = named.cause();
        } catch (...) {
        }
        throw orchestration_error("choosing who speaks at step " + std::to_string(state_.step + 1) + " of the " + owner_.kind_ +
                                      " orchestration \"" + valid_utf8(owner_.options_.name) + "\" failed: " + why,
                                  std::move(who), state_.step + 1, std::move(cause), out_);
    }

    orchestration& owner_;
    agent_run run_;
    orchestration_state state_;
    bool resuming_ = false;
    bool stopped_ = false;
    std::vector<std::size_t> waiting_;
    std::optional<orchestration_error> limit_;
    bool streamed_;
    std::vector<std::shared_ptr<agent_session>> sessions_; // each speaker's session in its last step
    std::vector<chat_message> added_;
    agent_response<> out_;
};

namespace {

/// Runs one participant whole, in its span.
asio::awaitable<agent_response<>> run_whole(agent& participant, agent_run run,
                                            std::optional<telemetry::operation_span> span) {
    try {
        agent_response<> response = co_await participant.run(std::move(run.messages), run.session, std::move(run.options));
        if (span) span->end(response);
        co_return response;
    } catch (...) {
        if (span) span->fail(std::current_exception());
        throw;
    }
}

/// What a fan-out's participant streams to the reader: an update, or its end (with its failure).
struct lane_event {
    std::optional<agent_response_update> update;
    std::exception_ptr failure;
};
using lane = asio::experimental::concurrent_channel<void(boost::system::error_code, lane_event)>;

/// The lanes of a fan-out, one per participant, shared by their pumps and the reader.
struct fan_out {
    fan_out(const asio::any_io_executor& executor, std::size_t count) {
        lanes.reserve(count);
        // Unbounded: a participant streams on while the reader is busy with the lanes before it.
        for (std::size_t i = 0; i < count; ++i) lanes.emplace_back(executor, std::numeric_limits<std::size_t>::max());
        stops = std::make_unique<asio::cancellation_signal[]>(count);
    }
    std::vector<lane> lanes;
    std::unique_ptr<asio::cancellation_signal[]> stops; // one per lane: a signal cannot move

};

/// Streams one participant of a fan-out into its lane, in its span, and ends the lane.
asio::awaitable<void> pump(std::shared_ptr<fan_out> fan, std::size_t at, agent& participant, agent_run run,
                           std::optional<telemetry::operation_span> span) {
    lane_event end;
    try {
        update_stream stream = participant.run_streaming(std::move(run.messages), run.session, std::move(run.options));
        while (std::optional<agent_response_update> update = co_await stream.next()) {
            claim(participant.name(), *update);
            if (span) span->add_update(*update);
            fan->lanes[at].try_send(boost::system::error_code(), lane_event{std::move(update), nullptr});
        }
        if (span) span->end();
    } catch (...) {
        if (span) span->fail(std::current_exception());
        end.failure = std::current_exception();
    }
    fan->lanes[at].try_send(boost::system::error_code(), std::move(end));
}

/// Runs `each(i)` for every index at once on `executor`; the results and failures in index order.
template <class T, class Each>
asio::awaitable<std::pair<std::vector<T>, std::vector<std::exception_ptr>>> all_at_once(asio::any_io_executor executor,
                                                                                        std::size_t count, Each each) {
    using operation = decltype(asio::co_spawn(executor, each(0), asio::deferred));
    std::vector<operation> operations;
    operations.reserve(count);
    for (std::size_t i = 0; i < count; ++i) operations.push_back(asio::co_spawn(executor, each(i), asio::deferred));
    auto [order, failures, results] = co_await asio::experimental::make_parallel_group(std::move(operations))
                                          .async_wait(asio::experimental::wait_for_all(), asio::use_awaitable);
    (void)order;
    co_return std::make_pair(std::move(results), std::move(failures));
}

} // namespace

asio::awaitable<agent_response<>> orchestration::run_core(agent_run run) {
    engine e(*this, std::move(run), false);
    e.start();
    for (;;) {
        const std::vector<std::size_t> speakers = co_await e.next_step();
        if (speakers.empty()) break;
        std::vector<std::exception_ptr> failures(speakers.size());
        if (speakers.size() == 1) {
            agent_run step = e.speaker_run(speakers[0]);
            std::optional<telemetry::operation_span> span = e.span_for(speakers[0], step, false);
            try {
                e.record(speakers[0], co_await run_whole(e.participant(speakers[0]), std::move(step), std::move(span)));
            } catch (...) {
                failures[0] = std::current_exception();
            }
        } else {
            auto [responses, failed] = co_await all_at_once<agent_response<>>(
                e.executor(), speakers.size(), [&](std::size_t i) {
                    agent_run step = e.speaker_run(speakers[i]);
                    std::optional<telemetry::operation_span> span = e.span_for(speakers[i], step, false);
                    return run_whole(e.participant(speakers[i]), std::move(step), std::move(span));
                });
            for (std::size_t i = 0; i < speakers.size(); ++i)
                if (!failed[i]) e.record(speakers[i], std::move(responses[i]));
            failures = std::move(failed);
        }
        co_await e.end_step(speakers, std::move(failures));
    }
    co_return e.take_response();
}

/* The run as a stream: a lone speaker's updates pass through as they come; a fan-out's
   participants all stream at once, and their updates come participant by participant (the
   first one's as they come, the others' as soon as those before them are done). What the orchestration adds
   (handoffs, a conclusion) follows as updates, and a last update names the orchestration as the
   agent that answered, as the whole run's response does. */
class orchestration::streamed_run final : public update_source {
public:
    streamed_run(orchestration& owner, agent_run run) : engine_(owner, std::move(run), true) {}

    // A reader that leaves during a fan-out stops the participants still streaming.
    ~streamed_run() override {
        if (fan_)
            for (std::size_t i = 0; i < fan_->lanes.size(); ++i) fan_->stops[i].emit(asio::cancellation_type::terminal);
    }

    asio::awaitable<std::optional<agent_response_update>> next() override {
        for (;;) {
            if (!ready_.empty()) {
                agent_response_update update = std::move(ready_.front());
                ready_.pop_front();
                co_return update;
            }
            switch (phase_) {
            case phase::start:
                engine_.start();
                phase_ = phase::next_step;
                break;
            case phase::next_step:
                co_await start_step();
                break;
            case phase::streaming:
                if (std::optional<agent_response_update> update = co_await read_speaker()) co_return update;
                break;
            case phase::fan_out:
                if (std::optional<agent_response_update> update = co_await read_lane()) co_return update;
                break;
            case phase::done:
                co_return std::nullopt;
            }
        }
    }

private:
    enum class phase { start, next_step, streaming, fan_out, done };

    asio::awaitable<void> start_step() {
        speakers_ = co_await engine_.next_step();
        yield_added();
        if (speakers_.empty()) {
            agent_response_update last;
            last.agent_id = engine_.id();
            ready_.push_back(std::move(last));
            phase_ = phase::done;
            co_return;
        }
        if (speakers_.size() == 1) {
            agent_run step = engine_.speaker_run(speakers_[0]);
            span_.reset();
            if (std::optional<telemetry::operation_span> span = engine_.span_for(speakers_[0], step, true))
                span_.emplace(std::move(*span));
            stream_.emplace(engine_.participant(speakers_[0])
                                .run_streaming(std::move(step.messages), step.session, std::move(step.options)));
            phase_ = phase::streaming;
            co_return;
        }
        // A fan-out: every participant streams at once into its lane; the lanes are read in order.
        fan_ = std::make_shared<fan_out>(engine_.executor(), speakers_.size());
        failures_.assign(speakers_.size(), nullptr);
        lane_ = 0;
        for (std::size_t i = 0; i < speakers_.size(); ++i) {
            agent_run step = engine_.speaker_run(speakers_[i]);
            std::optional<telemetry::operation_span> span = engine_.span_for(speakers_[i], step, true);
            asio::co_spawn(engine_.executor(),
                           pump(fan_, i, engine_.participant(speakers_[i]), std::move(step), std::move(span)),
                           asio::bind_cancellation_slot(fan_->stops[i].slot(), asio::detached));
        }
        phase_ = phase::fan_out;
    }

    /// The next update of the fan-out's current lane; past a lane's end, its answer is recorded.
    asio::awaitable<std::optional<agent_response_update>> read_lane() {
        lane_event event = co_await fan_->lanes[lane_].async_receive(asio::use_awaitable);
        if (event.update) {
            merged_.add(*event.update);
            co_return std::move(event.update);
        }
        if (event.failure)
            failures_[lane_] = event.failure;
        else
            engine_.record(speakers_[lane_], merged_.take());
        yield_added();
        merged_ = agent_response_builder();
        if (++lane_ == speakers_.size()) {
            fan_.reset();
            phase_ = phase::next_step;
            co_await engine_.end_step(speakers_, std::move(failures_));
        }
        co_return std::nullopt;
    }

    asio::awaitable<std::optional<agent_response_update>> read_speaker() {
        std::optional<agent_response_update> update;
        std::exception_ptr failure;
        try {
            update = co_await stream_->next();
        } catch (...) {
            failure = std::current_exception();
        }
        if (failure || !update) {
            stream_.reset();
            if (span_) failure ? span_->fail(failure) : span_->end();
            span_.reset();
            if (!failure) {
                engine_.record(speakers_[0], merged_.take());
                yield_added();
            }
            merged_ = agent_response_builder();
            phase_ = phase::next_step;
            // Named, not braced in the co_await: g++ 12 mis-compiles such a temporary.
            std::vector<std::exception_ptr> failures{failure};
            co_await engine_.end_step(speakers_, std::move(failures));
            co_return std::nullopt;
        }
        claim(engine_.participant(speakers_[0]).name(), *update);
        if (span_) span_->add_update(*update);
        merged_.add(*update);
        co_return update;
    }

    void yield_added() {
        for (chat_message& m : engine_.take_added()) ready_.push_back(as_update(std::move(m)));
    }

    engine engine_;
    phase phase_ = phase::start;
    std::vector<std::size_t> speakers_;
    std::optional<update_stream> stream_;
    std::optional<telemetry::operation_span> span_;
    std::shared_ptr<fan_out> fan_; // the fan-out being read, lane by lane
    std::size_t lane_ = 0;
    std::vector<std::exception_ptr> failures_;
    agent_response_builder merged_;
    std::deque<agent_response_update> ready_;
};

update_stream orchestration::run_streaming_core(agent_run run) {
    return update_stream(get_executor(), std::make_unique<streamed_run>(*this, std::move(run)));
}

} // namespace forma
