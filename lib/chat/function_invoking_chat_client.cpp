#include <forma/chat/function_invoking_chat_client.hpp>

#include "approvals.hpp"
#include "tool_runner.hpp"
#include "../model/joined_response.hpp"

#include <forma/model/agent_response_builder.hpp>

#include <algorithm>
#include <deque>

namespace forma {

using chat_detail::approval_group;
using chat_detail::pending_approval;

namespace {

// The calls of a model turn, in order.
std::vector<function_call_content> calls_in(const std::vector<chat_message>& messages) {
    std::vector<function_call_content> calls;
    for (const chat_message& m : messages)
        for (const content& c : m.contents)
            if (const auto* call = std::get_if<function_call_content>(&c)) calls.push_back(*call);
    return calls;
}

std::string limit_message(std::size_t rounds) {
    return "the model called tools again after " + std::to_string(rounds) +
           " rounds of tool calls (function_invocation_options::max_tool_iterations) and a last request that "
           "forbade them (tool_choice none)";
}

/* One request through the loop, shared by get_response and the stream: the conversation the
   model sees, the options of each model call, and the calls' runner with its counters. */
class invocation_run {
public:
    invocation_run(std::shared_ptr<chat_client> inner, const function_invocation_options& options, chat_request request)
        : inner_(std::move(inner)), options_(options), request_(std::move(request.options)),
          context_(std::move(request.context)), runner_(inner_->get_executor(), request_.tools, options_, context_),
          prepared_(chat_detail::prepare_conversation(std::move(request.messages))) {}

    /// The next model call: the conversation so far, with tool_choice none once the rounds are used up.
    boost::asio::awaitable<agent_response<>> ask_model() {
        return inner_->get_response(chat_request{prepared_.messages, next_request(), context_});
    }
    update_stream ask_model_streaming() {
        return inner_->get_streaming_response(chat_request{prepared_.messages, next_request(), context_});
    }

    /// Runs the approved calls and refuses the others; their tool messages, in order.
    boost::asio::awaitable<std::vector<chat_message>> resolve_approvals() {
        std::vector<std::vector<chat_message>> groups;
        for (const approval_group& group : prepared_.pending)
            groups.push_back(chat_detail::result_messages(co_await resolve(group)));
        for (std::size_t i = groups.size(); i-- > 0;) // last first: places before stay valid
            chat_detail::place_results(prepared_.messages, prepared_.pending[i], groups[i]);
        // Answered approvals are new input: a token would only poll the turn that asked.
        if (!groups.empty()) request_.continuation_token.reset();
        prepared_.pending.clear();
        std::vector<chat_message> messages;
        for (auto& group : groups) messages.insert(messages.end(), std::make_move_iterator(group.begin()),
                                                   std::make_move_iterator(group.end()));
        co_return messages;
    }

private:
    const chat_options& next_request() {
        if (rounds_ >= options_.max_tool_iterations) {
            request_.tool_choice = tool_choice::none();
            last_request_ = true;
        }
        return request_;
    }

public:
    /// The model's turn has these calls: throws when it may not, else whether they wait for approval.
    bool needs_approval(const std::vector<function_call_content>& calls) const {
        if (last_request_) throw tool_error(limit_message(rounds_));
        return runner_.needs_approval(calls);
    }

    /// Whether an approved call that resolve_approvals ran ends the loop.
    bool approvals_stop_loop() const noexcept { return approvals_stop_loop_; }

    /// Whether the calls, once run, end the loop (a tool with stop_after_call among them).
    bool stops_loop(const std::vector<function_call_content>& calls) const noexcept { return runner_.stops_loop(calls); }

    /// Adds the model's turn to the conversation.
    void add_turn(const std::vector<chat_message>& messages) {
        prepared_.messages.insert(prepared_.messages.end(), messages.begin(), messages.end());
    }

    /// Runs the turn's calls; the tool messages of their results, added to the conversation too.
    boost::asio::awaitable<std::vector<chat_message>> run_calls(const std::vector<function_call_content>& calls) {
        std::vector<function_result_content> results = co_await runner_.run(calls);
        ++rounds_;
        // A forced choice would force a call on every request: only the first is forced.
        if (request_.tool_choice && (request_.tool_choice->mode() == tool_choice_mode::required ||
                                     request_.tool_choice->mode() == tool_choice_mode::function))
            request_.tool_choice = tool_choice::automatic();
        // A token polled the turn that made these calls; the next request sends their results.
        request_.continuation_token.reset();
        std::vector<chat_message> messages = chat_detail::result_messages(std::move(results));
        prepared_.messages.insert(prepared_.messages.end(), messages.begin(), messages.end());
        co_return messages;
    }

private:
    boost::asio::awaitable<std::vector<function_result_content>> resolve(const approval_group& group) {
        std::vector<function_call_content> approved;
        for (const pending_approval& p : group.calls)
            if (p.approved) approved.push_back(p.call);
        std::vector<function_result_content> ran = co_await runner_.run(approved);
        if (runner_.stops_loop(approved)) approvals_stop_loop_ = true;
        std::vector<function_result_content> results;
        std::size_t next_ran = 0;
        for (const pending_approval& p : group.calls)
            results.push_back(p.approved ? std::move(ran[next_ran++]) : chat_detail::rejected_result(p.call, p.reason));
        co_return results;
    }

    std::shared_ptr<chat_client> inner_; // kept by the run and its stream
    const function_invocation_options& options_;
    chat_options request_;
    run_context context_;
    chat_detail::tool_runner runner_;
    chat_detail::prepared_conversation prepared_;
    std::size_t rounds_ = 0;
    bool last_request_ = false;
    bool approvals_stop_loop_ = false;
};

// A tool message as the update that merges into it.
agent_response_update tool_update(chat_message message) {
    agent_response_update update(chat_role::tool(), std::move(message.contents));
    update.message_id = std::move(message.message_id);
    return update;
}

} // namespace

function_invoking_chat_client::function_invoking_chat_client(std::shared_ptr<chat_client> inner,
                                                             function_invocation_options options)
    : delegating_chat_client(std::move(inner)), options_(options) {}

function_invoking_chat_client::function_invoking_chat_client(chat_client& inner, function_invocation_options options)
    : delegating_chat_client(inner), options_(options) {}

boost::asio::awaitable<agent_response<>> function_invoking_chat_client::get_response_core(chat_request request) {
    const function_invocation_options limits = options_; // the client may change while the run goes on
    invocation_run run(shared_inner(), limits, std::move(request));
    agent_response<> out;
    for (chat_message& m : co_await run.resolve_approvals()) out.messages.push_back(std::move(m));
    if (run.approvals_stop_loop()) co_return out;
    for (;;) {
        agent_response<> turn = co_await run.ask_model();
        std::vector<function_call_content> calls = calls_in(turn.messages);
        if (calls.empty()) {
            model_detail::add_response(out, std::move(turn));
            co_return out;
        }
        if (run.needs_approval(calls)) {
            chat_detail::ask_approval(turn.messages);
            model_detail::add_response(out, std::move(turn));
            co_return out;
        }
        run.add_turn(turn.messages);
        model_detail::add_response(out, std::move(turn));
        for (chat_message& m : co_await run.run_calls(calls)) out.messages.push_back(std::move(m));
        if (run.stops_loop(calls)) co_return out;
    }
}

namespace {

/* The loop as a stream: each model turn's updates pass through as they come, except the
   calls, which are held back until the turn ends and then handed out in one update (or as
   approval requests, which end the stream); each result follows in an update of role tool. */
class invoking_stream final : public update_source {
public:
    invoking_stream(std::shared_ptr<chat_client> inner, const function_invocation_options& options, chat_request request)
        : limits_(options), run_(std::move(inner), limits_, std::move(request)) {}

    boost::asio::awaitable<std::optional<agent_response_update>> next() override {
        for (;;) {
            if (!ready_.empty()) {
                agent_response_update update = std::move(ready_.front());
                ready_.pop_front();
                co_return update;
            }
            switch (step_) {
            case step::approvals:
                for (chat_message& m : co_await run_.resolve_approvals()) ready_.push_back(tool_update(std::move(m)));
                new_turn_ = !ready_.empty();
                step_ = run_.approvals_stop_loop() ? step::done : step::ask;
                break;
            case step::ask:
                model_.emplace(run_.ask_model_streaming());
                step_ = step::read;
                break;
            case step::read:
                if (auto update = co_await model_->next()) {
                    if (auto passed = take(std::move(*update))) co_return passed;
                } else {
                    model_.reset();
                    end_turn();
                }
                break;
            case step::run_calls:
                for (chat_message& m : co_await run_.run_calls(calls_)) ready_.push_back(tool_update(std::move(m)));
                new_turn_ = true;
                step_ = run_.stops_loop(calls_) ? step::done : step::ask;
                break;
            case step::done:
                co_return std::nullopt;
            }
        }
    }

private:
    enum class step { approvals, ask, read, run_calls, done };

    // Records the update in the turn and takes its calls out; what is left passes, unless the
    // update carried nothing but calls (its ids go with the calls at the turn's end).
    std::optional<agent_response_update> take(agent_response_update update) {
        turn_.add(update);
        if (!update.message_id.empty()) calls_update_.message_id = update.message_id;
        if (!update.response_id.empty()) calls_update_.response_id = update.response_id;
        if (update.role) calls_update_.role = update.role;
        const auto calls = std::stable_partition(update.contents.begin(), update.contents.end(), [](const content& c) {
            return !std::holds_alternative<function_call_content>(c);
        });
        const bool had_calls = calls != update.contents.end();
        update.contents.erase(calls, update.contents.end());
        if (had_calls && update.contents.empty() && !update.role && !update.finish_reason) return std::nullopt;
        // The first update after the tools' results starts the model's message.
        if (new_turn_ && !update.contents.empty()) {
            if (!update.role) update.role = chat_role::assistant();
            new_turn_ = false;
        }
        return update;
    }

    // The model's turn is over: its calls (or approval requests) are ready, and the tools run next.
    void end_turn() {
        std::vector<chat_message> messages = turn_.take().messages;
        calls_ = calls_in(messages);
        step_ = step::done;
        if (calls_.empty()) return;
        agent_response_update calls_update = std::move(calls_update_);
        calls_update_ = agent_response_update();
        if (!calls_update.role) calls_update.role = chat_role::assistant();
        if (run_.needs_approval(calls_)) {
            calls_update.contents = chat_detail::approval_requests(std::move(calls_));
            ready_.push_back(std::move(calls_update));
            return;
        }
        calls_update.contents.assign(calls_.begin(), calls_.end());
        ready_.push_back(std::move(calls_update));
        run_.add_turn(messages);
        step_ = step::run_calls;
    }

    const function_invocation_options limits_; // the client may change while the stream goes on
    invocation_run run_;
    step step_ = step::approvals;
    std::deque<agent_response_update> ready_;
    std::optional<update_stream> model_;
    agent_response_builder turn_;                // the model's turn so far
    agent_response_update calls_update_;         // where the turn's calls will go: its ids and role
    std::vector<function_call_content> calls_;
    bool new_turn_ = false;
};

} // namespace

update_stream function_invoking_chat_client::get_streaming_response_core(chat_request request) {
    return update_stream(get_executor(), std::make_unique<invoking_stream>(shared_inner(), options_, std::move(request)));
}

} // namespace forma
