#include <forma/agent/chat_client_agent.hpp>

#include "output_retry.hpp"

#include <forma/model/agent_response_builder.hpp>

#include <algorithm>

namespace forma {

chat_client_agent::chat_client_agent(chat_client& client, chat_client_agent_options options)
    : client_(client), options_(std::move(options)), invoking_(client, options_.function_invocation),
      client_runs_tools_(client.find<function_invoking_chat_client>() != nullptr) {
    if (options_.id.empty()) options_.id = make_unique_id();
    // The conveniences go into chat_options, the one home of what the agent asks.
    if (!options_.tools.empty()) {
        forma::chat_options tools;
        tools.tools = std::move(options_.tools);
        options_.chat_options = merge(options_.chat_options, tools);
        options_.tools.clear();
    }
    if (options_.response_format) options_.chat_options.response_format = std::move(options_.response_format);
    options_.response_format.reset();
    if (!options_.instructions.empty())
        options_.chat_options.instructions =
            options_.chat_options.instructions.empty()
                ? options_.instructions
                : options_.instructions + "\n\n" + options_.chat_options.instructions;
    options_.instructions.clear();
}

forma::chat_options chat_client_agent::effective_chat_options(const agent_run_options& run) const {
    forma::chat_options out =
        run.chat_options ? merge(options_.chat_options, *run.chat_options) : options_.chat_options;
    if (run.response_format) out.response_format = run.response_format; // run<T> and callers win
    if (run.structured_output_mode) out.structured_output_mode = run.structured_output_mode;
    if (run.continuation_token) out.continuation_token = run.continuation_token;
    out.allow_background_responses = out.allow_background_responses || run.allow_background_responses;
    if (!out.structured_output_mode && out.response_format && out.response_format->kind() == response_format_kind::json_schema) {
        const provider_metadata served_by = client_.provider();
        if (!served_by.structured_output_modes.empty()) out.structured_output_mode = served_by.structured_output_modes.front();
    }
    return out;
}

provider_metadata chat_client_agent::provider() const {
    provider_metadata out = client_.provider();
    if (!options_.chat_options.model.empty()) out.default_model = options_.chat_options.model;
    return out;
}

void chat_client_agent::claim(agent_response<>& response) const {
    for (auto& message : response.messages)
        if (message.author_name.empty() && message.role == chat_role::assistant())
            message.author_name = options_.name;
    response.agent_id = options_.id;
}

namespace {

// Whether the update adds to a message's contents (usage goes to the response instead).
bool carries_contents(const agent_response_update& update) noexcept {
    for (const content& c : update.contents)
        if (!std::holds_alternative<usage_content>(c)) return true;
    return false;
}

} // namespace

void chat_client_agent::claim(agent_response_update& update) const {
    // An update without a role continues the message before it: claimed only when it adds to
    // it, so that a trailing usage update never names the agent as the author of a tool message.
    const bool assistant = update.role ? *update.role == chat_role::assistant() : carries_contents(update);
    if (update.author_name.empty() && assistant) update.author_name = options_.name;
    update.agent_id = options_.id;
}

namespace {

bool holds_approvals(const std::vector<chat_message>& messages) noexcept {
    for (const chat_message& m : messages)
        for (const content& c : m.contents)
            if (std::holds_alternative<function_approval_request_content>(c) ||
                std::holds_alternative<function_approval_response_content>(c))
                return true;
    return false;
}

enum class answer_kind { whole, streamed };

// Stores the run's new messages and its answer. A run with no new messages whose first answer
// message has the id and role of the last stored one continues it: a resumed stream's rest is
// appended to what the dropped stream stored, a polled whole answer replaces it.
void remember(agent_session& session, std::vector<chat_message>&& messages,
              const std::vector<chat_message>& answer, answer_kind kind) {
    auto next = answer.begin();
    if (messages.empty() && next != answer.end() && !session.history.empty()) {
        chat_message& last = session.history.back();
        if (!next->message_id.empty() && next->message_id == last.message_id && next->role == last.role) {
            if (kind == answer_kind::whole) {
                last.contents = next->contents;
            } else {
                agent_response_builder joined; // merges contents as a stream's pieces merge
                joined.add(agent_response_update(last.role, std::move(last.contents)));
                joined.add(agent_response_update(next->role, next->contents));
                last.contents = std::move(joined.take().messages.at(0).contents);
            }
            ++next;
        }
    }
    for (auto& m : messages) session.history.push_back(std::move(m));
    session.history.insert(session.history.end(), next, answer.end());
}

} // namespace

std::vector<chat_message> chat_client_agent::conversation(const agent_session& session,
                                                         const std::vector<chat_message>& messages) const {
    std::vector<chat_message> all;
    all.reserve(session.history.size() + messages.size());
    all.insert(all.end(), session.history.begin(), session.history.end());
    all.insert(all.end(), messages.begin(), messages.end());
    if (!options_.history_limit) return all;
    return limit_history(all, *options_.history_limit, estimator_, messages.size());
}

void chat_client_agent::after_run(agent_session& session, const std::vector<chat_message>& sent,
                                  const agent_response<>& answer, std::size_t added) const {
    if (!options_.history_limit) return;
    // `sent` is empty for a run through the tool loop, and a validation retry asked again: then
    // the usage sums several requests, and would teach the estimate a wrong ratio.
    const bool retried = std::any_of(answer.messages.begin(), answer.messages.end(), [](const chat_message& m) {
        return std::any_of(m.contents.begin(), m.contents.end(),
                           [](const content& c) { return std::holds_alternative<output_errors_content>(c); });
    });
    if (answer.usage && answer.usage->input_token_count && !sent.empty() && !retried)
        estimator_.calibrate(sent, *answer.usage->input_token_count);
    // This run's own exchange stays, as it was sent.
    if (options_.history_limit->trim_stored_history)
        session.history = limit_history(session.history, *options_.history_limit, estimator_, added);
}

/// One run's request, the client it goes to, its validation retries, and what a history limit learns from.
struct chat_client_agent::prepared_call {
    chat_client& target;
    chat_request call;
    agent_detail::output_retry retry;
    std::vector<chat_message> to_calibrate; // a copy only where a history limit learns from it
};

chat_client_agent::prepared_call chat_client_agent::prepare(agent_run& run) {
    auto& [messages, session, options] = run;
    forma::chat_options request = effective_chat_options(options);
    // The tool loop runs where the request has tools, or approvals to settle.
    const bool loop = !request.tools.empty() || holds_approvals(messages) || holds_approvals(session->history);
    agent_detail::output_retry retry(options, request, options_.max_output_retries);
    std::vector<chat_message> sent = conversation(*session, messages);
    std::vector<chat_message> to_calibrate;
    if (options_.history_limit && !loop) to_calibrate = sent;
    chat_client& target = loop && !client_runs_tools_ ? invoking_ : client_;
    return {target, {std::move(sent), std::move(request), std::move(options.context)}, std::move(retry), std::move(to_calibrate)};
}

boost::asio::awaitable<agent_response<>>
chat_client_agent::run_core(agent_run run) {
    prepared_call prepared = prepare(run);
    agent_session& session = *run.session;
    agent_response<> response =
        co_await agent_detail::get_checked_response(prepared.target, prepared.call, std::move(prepared.retry));
    claim(response);
    const std::size_t stored_before = session.history.size();
    remember(session, std::move(run.messages), response.messages, answer_kind::whole);
    after_run(session, prepared.to_calibrate, response, session.history.size() - std::min(stored_before, session.history.size()));
    co_return response;
}

/// Passes the client's updates on, claimed, and stores the conversation at the end.
class chat_client_agent::streaming_run final : public update_source {
public:
    streaming_run(const chat_client_agent& agent, update_stream inner, std::vector<chat_message> messages,
                  std::shared_ptr<agent_session> session, std::vector<chat_message> sent)
        : agent_(agent), inner_(std::move(inner)), messages_(std::move(messages)),
          session_(std::move(session)), sent_(std::move(sent)) {}

    boost::asio::awaitable<std::optional<agent_response_update>> next() override {
        std::optional<agent_response_update> update;
        try {
            update = co_await inner_.next();
        } catch (...) {
            // A stream that can be resumed keeps what it gave: the resumption adds the rest.
            if (merged_.response().continuation_token)
                remember(*session_, std::move(messages_), merged_.take().messages, answer_kind::streamed);
            throw;
        }
        if (!update) {
            agent_response<> answer = merged_.take();
            const std::size_t stored_before = session_->history.size();
            remember(*session_, std::move(messages_), answer.messages, answer_kind::streamed);
            agent_.after_run(*session_, sent_, answer,
                             session_->history.size() - std::min(stored_before, session_->history.size()));
            co_return std::nullopt;
        }
        agent_.claim(*update);
        merged_.add(*update);
        co_return update;
    }

private:
    const chat_client_agent& agent_;
    update_stream inner_;
    std::vector<chat_message> messages_;
    std::shared_ptr<agent_session> session_;
    std::vector<chat_message> sent_; // for calibration; empty without a history limit
    agent_response_builder merged_;
};

update_stream chat_client_agent::run_streaming_core(agent_run run) {
    prepared_call prepared = prepare(run);
    update_stream inner = agent_detail::get_checked_streaming_response(prepared.target, std::move(prepared.call),
                                                                       std::move(prepared.retry));
    return update_stream(get_executor(), std::make_unique<streaming_run>(*this, std::move(inner), std::move(run.messages),
                                                                         std::move(run.session), std::move(prepared.to_calibrate)));
}

} // namespace forma
