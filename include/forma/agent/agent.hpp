#pragma once

#include <forma/agent/agent_input.hpp>
#include <forma/agent/agent_run.hpp>
#include <forma/agent/agent_run_options.hpp>
#include <forma/agent/agent_session.hpp>
#include <forma/agent/session_id.hpp>
#include <forma/agent/session_ref.hpp>
#include <forma/agent/structured_update_stream.hpp>
#include <forma/chat/chat_options.hpp>
#include <forma/chat/provider_metadata.hpp>
#include <forma/chat/update_stream.hpp>
#include <forma/model/agent_response.hpp>
#include <forma/model/chat_message.hpp>
#include <forma/model/response_format.hpp>
#include <forma/model/typed_agent_response.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/async_result.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma {

/** An AI agent: give it messages, get an agent_response (or a stream of updates).

    `run` and `run_streaming` take a string (a user message), a message, or a list
    of messages (agent_input); a session (session_ref: none for a fresh one, a held
    agent_session, or a session_id of a stored one); and options.
    `run<T>` asks for a `T` and returns agent_response<T>; it works on every agent,
    decorated or not, because it only sets the run's response format and calls `run`.

    Derived classes implement run_core and run_streaming_core, which get one agent_run
    (messages, session, options); decorators pass it on changed. All work runs on
    get_executor(); run and run<T> also have `async_run` forms for completion tokens.
*/
class agent {
public:
    using executor_type = boost::asio::any_io_executor;

    virtual ~agent();

    virtual executor_type get_executor() const = 0;
    virtual std::string_view id() const noexcept = 0;
    virtual std::string_view name() const noexcept = 0;
    virtual std::string_view description() const noexcept = 0;

    /// A new, empty session with a fresh id; agents may put initial state in it.
    virtual std::shared_ptr<agent_session> create_session() const;

    /// Who serves this agent's model, for telemetry; empty by default.
    virtual provider_metadata provider() const { return {}; }

    /// The chat options a run with `run_options` would send its model, for
    /// telemetry: by default the run's own chat options and response format.
    virtual forma::chat_options effective_chat_options(const agent_run_options& run_options) const;

    /// How many validation retries a run with `run_options` may make (see
    /// chat_client_agent_options::max_output_retries); 0 for agents that make none.
    virtual std::size_t max_output_retries(const agent_run_options& run_options) const {
        (void)run_options;
        return 0;
    }

    /** The session this agent's store keeps under `id`, or a new one under that id when the
        store has none. Only agents with a session_store (stored_agent, and decorators over one)
        have sessions by id.
        @throws error for an agent without a session store.
    */
    virtual boost::asio::awaitable<std::shared_ptr<agent_session>> open_session(session_id id);

    /** Runs the agent on `input` (a user message's text, a message, or messages) in `session`:
        none (a fresh one for this run), a session the caller holds, or a session_id of a stored
        session (see open_session).
    */
    boost::asio::awaitable<agent_response<>> run(agent_input input, session_ref session = {},
                                                 agent_run_options options = {});

    /// Streams a run; work starts at the stream's first next().
    update_stream run_streaming(agent_input input, session_ref session = {}, agent_run_options options = {});

    /** Runs the agent asking for a `T`: the run's response format becomes T's JSON
        Schema (response_format::for_type<T>(), in the schema dialect provider() names),
        overriding any other, and the answer is read as a T by
        agent_response<T>::result(). An answer that is not a T goes back to the model
        with every error found, for a corrected one (max_output_retries).
    */
    template <class T>
    boost::asio::awaitable<agent_response<T>> run(agent_input input, session_ref session = {},
                                                  agent_run_options options = {}) {
        options.response_format = answer_format<T>();
        std::shared_ptr<agent_detail::kept_answer<T>> kept; // what the validator read: not read twice
        options.output_validator = output_validator::keeping<T>(kept);
        agent_response<> response = co_await run(std::move(input), std::move(session), std::move(options));
        const bool wrapped = response_format::wraps<T>();
        if (std::optional<T> read = kept->take(response))
            co_return agent_response<T>(std::move(response), wrapped, std::move(*read));
        co_return agent_response<T>(std::move(response), wrapped);
    }

    /** Streams a run asking for a `T` (response format as run<T>): each event has
        the raw update and a partial<T> of everything parsed so far, read in one
        pass over the text; the final event has the complete, validated T. Works on
        every agent whose stream yields the answer as text, decorated or not.
    */
    template <class T>
    structured_update_stream<T> run_streaming(agent_input input, session_ref session = {},
                                              agent_run_options options = {}) {
        options.response_format = answer_format<T>();
        options.output_validator = output_validator::for_type<T>();
        const bool may_retry = max_output_retries(options) > 0;
        return structured_update_stream<T>(run_streaming(std::move(input), std::move(session), std::move(options)),
                                           response_format::wraps<T>(), may_retry);
    }

    /// run() for any completion token; the handler gets (std::exception_ptr, agent_response<>).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_run(agent_input input, session_ref session, agent_run_options options, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), run(std::move(input), std::move(session), std::move(options)),
                                     std::forward<CompletionToken>(token));
    }
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_run(agent_input input, CompletionToken&& token = {}) {
        return async_run(std::move(input), session_ref(), agent_run_options(), std::forward<CompletionToken>(token));
    }

    /// run<T>() for any completion token; the handler gets (std::exception_ptr, agent_response<T>).
    template <class T, class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_run(agent_input input, session_ref session, agent_run_options options, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), run<T>(std::move(input), std::move(session), std::move(options)),
                                     std::forward<CompletionToken>(token));
    }
    template <class T, class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_run(agent_input input, CompletionToken&& token = {}) {
        return async_run<T>(std::move(input), session_ref(), agent_run_options(), std::forward<CompletionToken>(token));
    }

protected:
    /// Runs the agent; `run.session` is never null.
    virtual boost::asio::awaitable<agent_response<>> run_core(agent_run run) = 0;

    /// Starts a streaming run; `run.session` is never null. Work starts at the stream's first next().
    virtual update_stream run_streaming_core(agent_run run) = 0;

private:
    friend class delegating_agent; // passes runs on to its inner agent's run_core
    class opening_stream;

    // T's format in the schema dialect of the provider.
    template <class T>
    response_format answer_format() const {
        return response_format::for_type<T>(provider().schema_dialect == schema_dialect::openai_strict);
    }
};

/// A random identifier (32 hex digits) for agents and sessions, after `prefix` ("resp_").
std::string make_unique_id(std::string_view prefix = {});

} // namespace forma
