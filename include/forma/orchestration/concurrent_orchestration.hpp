#pragma once

#include <forma/agent/output_validator.hpp>
#include <forma/model/response_format.hpp>
#include <forma/json/to_json.hpp>
#include <forma/model/typed_agent_response.hpp>
#include <forma/orchestration/orchestration.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace forma {

/** How a concurrent_orchestration makes one answer of its participants' answers: `combine`
    gets each participant's answer (its messages, in participant order) and returns the run's
    last message. Made by hand, or by aggregate_as<T>.
*/
struct concurrent_aggregator {
    /// The format each participant answers in; unset: the run's own (run<T>'s T).
    std::optional<forma::response_format> participant_format{};
    /// Checks each participant's answer against participant_format, for validation retries.
    forma::output_validator participant_validator{};
    std::function<chat_message(const std::vector<agent_response<>>&)> combine{};
};

/** An aggregator that asks every participant for a `T` (run<T> on each) and combines the `T`s
    with `f`: `f(std::vector<T>)` returns a string (the answer's text) or a value written as
    JSON, which `run<R>` on the orchestration reads back as an R.
    A participant whose answer is not a T fails the run with the reading's error.
*/
template <class T, class F>
concurrent_aggregator aggregate_as(F f) {
    using result = std::invoke_result_t<F&, std::vector<T>>;
    concurrent_aggregator out;
    out.participant_format = response_format::for_type<T>();
    out.participant_validator = output_validator::for_type<T>();
    out.combine = [f = std::move(f)](const std::vector<agent_response<>>& answers) mutable {
        std::vector<T> values;
        values.reserve(answers.size());
        for (const agent_response<>& answer : answers)
            values.push_back(agent_response<T>(answer, response_format::wraps<T>()).result());
        result combined = f(std::move(values));
        if constexpr (std::is_convertible_v<result, std::string>) {
            return chat_message(chat_role::assistant(), std::string(std::move(combined)));
        } else {
            std::string text = to_json(combined);
            if (response_format::wraps<result>()) text = "{\"data\":" + text + "}";
            return chat_message(chat_role::assistant(), std::move(text));
        }
    };
    return out;
}

/// How a concurrent_orchestration gathers its participants' answers.
struct concurrent_options {
    /// Unset (no `combine`): the response holds every participant's answer, in participant order.
    concurrent_aggregator aggregator{};
    orchestration_options orchestration{};
};

/** The same input to every participant at once (a fan-out), the answers gathered: each
    participant gets the conversation as it stood when the run's messages joined it, never the
    others' answers. The response holds every answer, each under its participant's name, in
    participant order (answers_of splits it again), then the aggregator's message if there is
    one; its text() is the last of them, as of any orchestration. Without an aggregator,
    `run<T>` asks every participant for a T and reads the last one's.

    A participant that asks for approvals stops the run once the others have answered; the
    next run brings it the answers (and the others are not asked again). Streamed, all
    participants stream at once, and their updates come participant by participant: the first
    one's as they come, each other's (held until then) once those before it are done.
*/
class concurrent_orchestration : public orchestration {
public:
    /// @throws error for what orchestration refuses.
    explicit concurrent_orchestration(std::vector<std::shared_ptr<agent>> participants, concurrent_options options = {});

    /// The answer of each participant of the current run, in participant order, from a run's
    /// response or a conversation: each one's messages and the results of its tool calls.
    std::vector<agent_response<>> answers_of(const std::vector<chat_message>& messages) const;

protected:
    void begin(orchestration_state& state) const override;
    boost::asio::awaitable<std::vector<std::size_t>> next_speakers(turn t) override;
    std::vector<chat_message> view(std::size_t speaker, const turn& t) const override;
    bool may_answer_last(std::size_t speaker, const turn& t) const override;
    void prepare(std::size_t speaker, agent_run_options& options, const turn& t) const override;
    std::vector<chat_message> after(std::size_t speaker, const agent_response<>& response, turn& t) override;
    std::optional<chat_message> conclude(turn& t) override;

private:
    concurrent_aggregator aggregator_;
};

} // namespace forma
