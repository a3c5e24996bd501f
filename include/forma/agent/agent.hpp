#pragma once

#include <forma/agent/agent_run_options.hpp>
#include <forma/agent/agent_session.hpp>
#include <forma/agent/structured_format.hpp>
#include <forma/agent/structured_update_stream.hpp>
#include <forma/chat/chat_options.hpp>
#include <forma/chat/provider_metadata.hpp>
#include <forma/chat/update_stream.hpp>
#include <forma/model/agent_response.hpp>
#include <forma/model/chat_message.hpp>
#include <forma/model/typed_agent_response.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/async_result.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace forma {

/** An AI agent: give it messages, get an agent_response (or a stream of updates).

    `run` and `run_streaming` take a string (a user message), a message, or a list
    of messages, an optional session (null: a fresh one for this run) and options.
    `run<T>` asks for a `T` and returns agent_response<T>; it works on every agent,
    decorated or not, because it only sets the run's response format and calls `run`.

    Derived classes implement run_core and run_streaming_core. All work runs on
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

    boost::asio::awaitable<agent_response<>> run(std::vector<chat_message> messages,
                                                 std::shared_ptr<agent_session> session = nullptr,
                                                 agent_run_options options = {});
    boost::asio::awaitable<agent_response<>> run(chat_message message,
                                                 std::shared_ptr<agent_session> session = nullptr,
                                                 agent_run_options options = {});
    boost::asio::awaitable<agent_response<>> run(std::string user_message,
                                                 std::shared_ptr<agent_session> session = nullptr,
                                                 agent_run_options options = {});

    update_stream run_streaming(std::vector<chat_message> messages,
                                std::shared_ptr<agent_session> session = nullptr,
                                agent_run_options options = {});
    update_stream run_streaming(chat_message message, std::shared_ptr<agent_session> session = nullptr,
                                agent_run_options options = {});
    update_stream run_streaming(std::string user_message,
                                std::shared_ptr<agent_session> session = nullptr,
                                agent_run_options options = {});

    /** Runs the agent asking for a `T`: the run's response format becomes T's JSON
        Schema (OpenAI strict dialect; a root that is not an object is wrapped as
        `{"data": ...}`), overriding any other, and the answer is read as a T by
        agent_response<T>::result(). An answer that is not a T goes back to the model
        with every error found, for a corrected one (max_output_retries).
    */
    template <class T>
    boost::asio::awaitable<agent_response<T>> run(std::vector<chat_message> messages,
                                                  std::shared_ptr<agent_session> session = nullptr,
                                                  agent_run_options options = {}) {
        options.response_format = structured_format<T>();
        options.output_validator = output_validator::for_type<T>();
        agent_response<> response =
            co_await run(std::move(messages), std::move(session), std::move(options));
        co_return agent_response<T>(std::move(response), structured_format_wraps<T>());
    }
    template <class T>
    boost::asio::awaitable<agent_response<T>> run(chat_message message,
                                                  std::shared_ptr<agent_session> session = nullptr,
                                                  agent_run_options options = {}) {
        std::vector<chat_message> messages;
        messages.push_back(std::move(message));
        return run<T>(std::move(messages), std::move(session), std::move(options));
    }
    template <class T>
    boost::asio::awaitable<agent_response<T>> run(std::string user_message,
                                                  std::shared_ptr<agent_session> session = nullptr,
                                                  agent_run_options options = {}) {
        return run<T>(chat_message(chat_role::user(), std::move(user_message)), std::move(session),
                      std::move(options));
    }

    /** Streams a run asking for a `T` (response format as run<T>): each event has
        the raw update and a partial<T> of everything parsed so far, read in one
        pass over the text; the final event has the complete, validated T. Works on
        every agent whose stream yields the answer as text, decorated or not.
    */
    template <class T>
    structured_update_stream<T> run_streaming(std::vector<chat_message> messages,
                                              std::shared_ptr<agent_session> session = nullptr,
                                              agent_run_options options = {}) {
        options.response_format = structured_format<T>();
        options.output_validator = output_validator::for_type<T>();
        const bool may_retry = max_output_retries(options) > 0;
        return structured_update_stream<T>(run_streaming(std::move(messages), std::move(session), std::move(options)),
                                           structured_format_wraps<T>(), may_retry);
    }
    template <class T>
    structured_update_stream<T> run_streaming(chat_message message, std::shared_ptr<agent_session> session = nullptr,
                                              agent_run_options options = {}) {
        std::vector<chat_message> messages;
        messages.push_back(std::move(message));
        return run_streaming<T>(std::move(messages), std::move(session), std::move(options));
    }
    template <class T>
    structured_update_stream<T> run_streaming(std::string user_message,
                                              std::shared_ptr<agent_session> session = nullptr,
                                              agent_run_options options = {}) {
        return run_streaming<T>(chat_message(chat_role::user(), std::move(user_message)), std::move(session),
                                std::move(options));
    }

    /// run() for any completion token; the handler gets (std::exception_ptr, agent_response<>).
    template <class Input, class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_run(Input input, std::shared_ptr<agent_session> session, agent_run_options options,
                   CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(),
                                     run(std::move(input), std::move(session), std::move(options)),
                                     std::forward<CompletionToken>(token));
    }
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_run(std::string user_message, CompletionToken&& token = {}) {
        return async_run(std::move(user_message), nullptr, {}, std::forward<CompletionToken>(token));
    }

    /// run<T>() for any completion token; the handler gets (std::exception_ptr, agent_response<T>).
    template <class T, class Input,
              class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_run(Input input, std::shared_ptr<agent_session> session, agent_run_options options,
                   CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(),
                                     run<T>(std::move(input), std::move(session), std::move(options)),
                                     std::forward<CompletionToken>(token));
    }
    template <class T, class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_run(std::string user_message, CompletionToken&& token = {}) {
        return async_run<T>(std::move(user_message), nullptr, {}, std::forward<CompletionToken>(token));
    }

protected:
    /// Runs the agent; `session` is never null.
    virtual boost::asio::awaitable<agent_response<>>
    run_core(std::vector<chat_message> messages, std::shared_ptr<agent_session> session,
             agent_run_options options) = 0;

    /// Starts a streaming run; `session` is never null. Work starts at the stream's first next().
    virtual update_stream run_streaming_core(std::vector<chat_message> messages,
                                             std::shared_ptr<agent_session> session,
                                             agent_run_options options) = 0;
};

/// A random identifier (32 hex digits) for agents and sessions.
std::string make_unique_id();

} // namespace forma
