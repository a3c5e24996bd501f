#pragma once

#include <forma/json/json_error.hpp>
#include <forma/model/agent_response_update.hpp>
#include <forma/model/chat_message.hpp>
#include <forma/model/continuation_token.hpp>
#include <forma/model/detail/structured_reading.hpp>
#include <forma/model/finish_reason.hpp>
#include <forma/model/usage_details.hpp>

#include <boost/json/conversion.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace forma {

/** The response of an agent run.

    `agent_response<>` (T = void) is the untyped response `run` returns;
    `agent_response<T>` adds a parsed result of type T and derives from it. A
    class and a class template cannot share a name, hence one template and this
    specialization. CTAD keeps the spelling short: `forma::agent_response r = ...;`.
*/
template <class T = void>
class agent_response;

/** What an agent answered: its messages and what is known about the run. */
template <>
class agent_response<void> {
public:
    agent_response() = default;
    explicit agent_response(std::vector<chat_message> messages) : messages(std::move(messages)) {}
    explicit agent_response(chat_message message) { messages.push_back(std::move(message)); }

    /** The answer as text: each message's text contents joined with no separator,
        messages joined with "\n", messages without text skipped. "" when there is
        no text. Reasoning and tool activity never appear in it.

        A run that called tools holds the model's turns before the answer (its calls,
        the tools' results, what it said meanwhile), and a run that retried holds the
        rejected answers, each followed by its output_errors_content: only the messages
        after the last tool result or output errors count, so that text() is the final answer.
        Of an orchestration's run, it is the answer of the participant that answered last (the
        messages at the end by the last message's author_name); every participant's answer is
        in `messages`, under its author.
    */
    std::string text() const;

    /** The tool calls that wait for the caller's approval, in order: a run that
        stopped to ask ends with them (primary output). Answer each with approve()
        or reject() in the next run on the same session. Empty when none waits.
    */
    std::vector<function_approval_request_content> approval_requests() const;

    /** The response as updates that `to_agent_response` merges back into it.

        One update per message, then one carrying the finish reason, usage,
        continuation token and properties (and one first, carrying the created
        time, when no message has it). `to_agent_response(r.to_updates()) == r`
        for every `r` that to_agent_response made; a hand-made response merges back
        differently where the merge rules would split or join it differently
        (two adjacent messages with the same role and no ids or authors become one).
    */
    std::vector<agent_response_update> to_updates() const;

    /** The answer read as a T, for a format the caller set (run<T> users call
        result() instead). Reads the last assistant message that has text, as it
        is: no `{"data": ...}` unwrapping.
        @throws refusal_error, output_truncated_error, json_error as agent_response<T>::result().
    */
    template <class T>
    T deserialize(const parse_options& options = {}) const {
        auto r = try_deserialize<T>(options);
        if (!r) r.error().rethrow();
        return std::move(*r);
    }
    /// deserialize() without throwing: the value, or the error deserialize() would throw as a value.
    template <class T>
    boost::system::result<T, answer_error> try_deserialize(const parse_options& options = {}) const {
        return model_detail::read_structured<T>(*this, false, options);
    }

    /// The response this one was made from by a decorator (structured_output_agent:
    /// the inner agent's answer), or null.
    const agent_response* original_response() const noexcept { return original_.get(); }
    void set_original_response(agent_response original) {
        original_ = std::make_shared<const agent_response>(std::move(original));
    }

    std::vector<chat_message> messages;
    /// The provider's id for the response; may be empty.
    std::string response_id;
    /// The id of the agent that answered; may be empty.
    std::string agent_id;
    /// When the response was made; null (or the epoch) when unknown.
    std::optional<std::chrono::system_clock::time_point> created_at;
    std::optional<forma::finish_reason> finish_reason;
    std::optional<usage_details> usage;
    /// Set when the run is not complete: pass it back in the run options to resume or poll.
    std::optional<forma::continuation_token> continuation_token;
    /// What the provider's headers said about its rate limits, when it said anything.
    std::optional<forma::rate_limits> rate_limits;
    /// The provider's own JSON for the response, or null.
    boost::json::value raw_representation;
    /// Provider fields forma has no member for, by name.
    boost::json::object additional_properties;

    friend bool operator==(const agent_response& a, const agent_response& b);

private:
    std::shared_ptr<const agent_response> original_; // shared: copies of a response are cheap
};

/// Writes an object with the members that are set; "messages" always.
void tag_invoke(boost::json::value_from_tag, boost::json::value& json,
                const agent_response<void>& response);
/// @throws json_error naming the offending member, e.g. "at /messages/0/role: ...".
agent_response<void> tag_invoke(boost::json::value_to_tag<agent_response<void>>,
                                const boost::json::value& json);

} // namespace forma
