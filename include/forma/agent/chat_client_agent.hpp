#pragma once

#include <forma/agent/agent.hpp>
#include <forma/agent/history_limit.hpp>
#include <forma/chat/chat_client.hpp>
#include <forma/chat/chat_options.hpp>
#include <forma/chat/function_invoking_chat_client.hpp>
#include <forma/chat/function_tool.hpp>
#include <forma/model/response_format.hpp>

#include <optional>
#include <string>

namespace forma {

/// How a chat_client_agent presents itself and what it asks its client by default.
struct chat_client_agent_options {
    std::string name{};
    std::string description{};
    /** `instructions`, `response_format` and `tools` are conveniences: the constructor writes
        them into `chat_options` (the agent's one home for what it asks) and leaves them empty.
        System instructions for every run, before `chat_options.instructions`; a run's own
        instructions come after them.
    */
    std::string instructions{};
    /// Generated (make_unique_id) when empty.
    std::string id{};
    /// Model, sampling and other options for every run; a run's chat options override them.
    forma::chat_options chat_options{};
    /** The answer format of every run, unless a run sets its own (run<T> always does); set,
        it replaces `chat_options.response_format`. One precedence, highest first: the run's
        agent_run_options::response_format, the run's chat_options, the agent's chat_options.
    */
    std::optional<forma::response_format> response_format{};
    /** Tools for every run, with `chat_options.tools`; a run's chat options may add
        more, and replace one of the same name.
    */
    std::vector<function_tool> tools{};
    /// The tool loop's limits, for runs with tools; unused over a client whose stack has its
    /// own loop (built with use_function_invocation): that loop runs the tools, with its limits.
    function_invocation_options function_invocation{};
    /** Validation retries: an answer that breaks the run's JSON response format (for
        run<T>, one that result() would reject) goes back to the model with every error
        found, this many times at most; a run's options may say otherwise. The rejected
        answers stay in the response, each followed by a user message with its
        output_errors_content. Refusals and answers cut by the token limit are not retried.
    */
    std::size_t max_output_retries = 1;
    /** How much of the session's history each run sends (and, if it says so, keeps); unset:
        all of it. Its token estimate learns from the input token counts of responses.
    */
    std::optional<forma::history_limit> history_limit{};
};

/** The agent over a chat client: sends the session's history and the new
    messages with the agent's instructions and options, keeps the conversation
    in the session, and names itself as the author of its answers.

    A run with tools (the agent's or its own) goes through a
    function_invoking_chat_client over the client, which runs the calls the model
    makes; so does a run whose messages answer approval requests. A client whose
    stack has such a loop already (`client.find<function_invoking_chat_client>()`)
    runs them in its own: one loop, never two. The session keeps the whole
    exchange: calls, results, approval requests and answers.

        forma::chat_client_agent agent(client, {.name = "assistant",
                                                .instructions = "You are a helpful assistant."});
        auto person = (co_await agent.run<Person>("John is 35.")).result();

    The client is not owned: it must outlive the agent.
*/
class chat_client_agent : public agent {
public:
    chat_client_agent(chat_client& client, chat_client_agent_options options = {});

    executor_type get_executor() const override { return client_.get_executor(); }
    std::string_view id() const noexcept override { return options_.id; }
    std::string_view name() const noexcept override { return options_.name; }
    std::string_view description() const noexcept override { return options_.description; }

    const chat_client_agent_options& options() const noexcept { return options_; }
    chat_client& client() const noexcept { return client_; }

    /// The client's provider, with the agent's model as the default model when it names one.
    provider_metadata provider() const override;

    /// The chat options a run with `run_options` sends: the agent's, the run's on top.
    forma::chat_options effective_chat_options(const agent_run_options& run_options) const override;

    std::size_t max_output_retries(const agent_run_options& run_options) const override {
        return run_options.max_output_retries.value_or(options_.max_output_retries);
    }

protected:
    boost::asio::awaitable<agent_response<>> run_core(agent_run run) override;
    update_stream run_streaming_core(agent_run run) override;

private:
    /// Marks the answer as this agent's: author name and agent id.
    void claim(agent_response<>& response) const;
    void claim(agent_response_update& update) const;
    struct prepared_call;
    /// The request a run sends, and to which client: the tool loop's where it has tools or approvals to settle.
    prepared_call prepare(agent_run& run);

    /// What a run sends: the session's history and the new messages, within history_limit.
    std::vector<chat_message> conversation(const agent_session& session, const std::vector<chat_message>& messages) const;
    /// After a run that added `added` messages to the session: learns from its usage (`sent`
    /// empty: it made more than one request), and trims the stored history when asked.
    void after_run(agent_session& session, const std::vector<chat_message>& sent, const agent_response<>& answer,
                   std::size_t added) const;

    chat_client& client_;
    chat_client_agent_options options_;
    mutable token_estimator estimator_; // learns as runs report usage
    function_invoking_chat_client invoking_;
    bool client_runs_tools_; // the client's stack has a tool loop: invoking_ is not used

    class streaming_run;
};

} // namespace forma
