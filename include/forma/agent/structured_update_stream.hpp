#pragma once

#include <forma/chat/update_stream.hpp>
#include <forma/error.hpp>
#include <forma/json/partial_reader.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/model/typed_agent_response.hpp>

#include <boost/asio/awaitable.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace forma {

/** One event of `agent.run_streaming<T>()`: the raw update, and everything of
    the T parsed so far. The last event is final: its update is empty and
    response() holds the whole agent_response<T>, whose result() is the complete,
    validated T.

    snapshot() refers to the stream's own partial, which grows in place: it is
    valid until the stream is destroyed and shows the latest state (copy what you
    need to keep).
*/
template <class T>
class structured_update {
public:
    structured_update(agent_response_update update, const partial<T>& snapshot)
        : update_(std::move(update)), snapshot_(&snapshot) {}
    structured_update(const partial<T>& snapshot, std::shared_ptr<const agent_response<T>> response)
        : snapshot_(&snapshot), response_(std::move(response)) {}

    /// The update as the agent streamed it (empty in the final event).
    const agent_response_update& update() const noexcept { return update_; }
    /// What is known of the T so far.
    const partial<T>& snapshot() const noexcept { return *snapshot_; }
    /// The last event: response() and result() are available.
    bool is_final() const noexcept { return response_ != nullptr; }
    /// The whole response (final event only; throws error before).
    const agent_response<T>& response() const {
        if (!response_) throw error("structured_update: response() before the final event");
        return *response_;
    }
    /// The complete, validated T (final event only).
    const T& result() const { return response().result(); }

private:
    agent_response_update update_;
    const partial<T>* snapshot_;
    std::shared_ptr<const agent_response<T>> response_;
};

/** The stream `agent.run_streaming<T>()` returns: an update_stream whose updates
    are also read as a T while they arrive, in one pass over the text.

        auto stream = agent.run_streaming<Person>("...");
        while (auto event = co_await stream.next()) {
            show(event->snapshot()[&Person::name].value());
            if (event->is_final()) use(event->result());
        }

    next() throws, after the last update, the error result() would: json_error
    (with the path), refusal_error or output_truncated_error. With validation
    retries off (max_output_retries = 0) it throws a json_error as soon as the
    text cannot become a T; otherwise the agent may send the errors back to the
    model, and a retry (a user update with output_errors_content) starts a new
    partial. Leaving early destroys the inner stream, which cancels the run.

    With tools, each turn of the model after the tools' results is read afresh:
    the snapshot shows the turn being streamed, and the final T is the last
    turn's answer. So is each turn of another author (an orchestration's participants). Text the model writes beside its calls must then be JSON of
    a T too (with a JSON Schema response format, models write none).
*/
template <class T>
class structured_update_stream {
public:
    using executor_type = update_stream::executor_type;

    /// `may_retry`: the agent may retry a broken answer, so a text that cannot become a T
    /// is not an error before the stream ends.
    structured_update_stream(update_stream inner, bool wrapped, bool may_retry = false)
        : inner_(std::move(inner)), state_(std::make_unique<state>(wrapped, may_retry)) {}

    executor_type get_executor() const noexcept { return inner_.get_executor(); }

    /// The next event, or nullopt after the final one.
    boost::asio::awaitable<std::optional<structured_update<T>>> next() {
        if (state_->finished) co_return std::nullopt;
        std::optional<agent_response_update> update = co_await inner_.next();
        if (update) {
            // Tool results and a retry's errors end a turn: the model's next text is a new
            // answer, read afresh.
            if (update->role == chat_role::tool() || holds_output_errors(*update)) state_->turn_ended = true;
            // So does another agent's word (an orchestration's next participant): its answer is new.
            if (!update->author_name.empty() && update->author_name != state_->author) {
                if (!state_->author.empty()) state_->turn_ended = true;
                state_->author = update->author_name;
            }
            // Only the assistant's text is the answer (not reasoning, not refusals).
            if (!update->role || *update->role == chat_role::assistant())
                for (const auto& content : update->contents)
                    if (const auto* text = std::get_if<text_content>(&content)) {
                        if (state_->turn_ended) {
                            state_->reader.emplace(state_->wrapped);
                            state_->turn_ended = false;
                            state_->broken = false;
                        }
                        if (state_->broken || state_->reader->feed(text->text)) continue;
                        state_->broken = true; // the answer is read again whole at the end
                        if (!state_->may_retry) {
                            state_->finished = true;
                            throw state_->reader->error();
                        }
                    }
            state_->builder.add(*update);
            co_return structured_update<T>(std::move(*update), state_->reader->get());
        }
        state_->finished = true;
        co_return structured_update<T>(state_->reader->get(), final_response());
    }

    /// next() for any completion token; the handler gets (std::exception_ptr, std::optional<structured_update<T>>).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_next(CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), next(), std::forward<CompletionToken>(token));
    }

private:
    // The response with its result, or the typed error result() would throw. The text
    // read while streaming is not parsed again when it is the answer's text.
    std::shared_ptr<const agent_response<T>> final_response() {
        agent_response<> response = state_->builder.take();
        std::string_view text;
        std::string storage;
        if (auto error = model_detail::structured_output_text(response, text, storage)) error->rethrow();
        auto value = !state_->broken && text == state_->reader->text() ? state_->reader->finish()
                     : state_->wrapped            ? json_detail::try_read_wrapped<T>(text, {})
                                                  : try_from_json<T>(text);
        if (!value) throw value.error();
        return std::make_shared<const agent_response<T>>(std::move(response), state_->wrapped, std::move(*value));
    }

    static bool holds_output_errors(const agent_response_update& update) noexcept {
        for (const auto& content : update.contents)
            if (std::holds_alternative<output_errors_content>(content)) return true;
        return false;
    }

    struct state {
        state(bool wrapped_answer, bool retries) : wrapped(wrapped_answer), may_retry(retries) {
            reader.emplace(wrapped_answer);
        }
        bool wrapped;
        bool may_retry;
        bool broken = false; // this turn's text cannot become a T
        std::optional<partial_reader<T>> reader; // made anew for each turn, in the same place
        agent_response_builder builder;
        bool turn_ended = false;
        bool finished = false;
        std::string author; // who wrote the turn being read
    };

    update_stream inner_;
    std::unique_ptr<state> state_; // the partial stays put when the stream moves
};

} // namespace forma
