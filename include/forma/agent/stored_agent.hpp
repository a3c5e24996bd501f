#pragma once

#include <forma/agent/agent.hpp>
#include <forma/agent/session_store.hpp>
#include <forma/agent/stored_run_conflict_error.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace forma {

/** Runs an agent on conversations kept in a session_store, by session id, so that any server
    instance can take any turn: each run loads the session (or starts one under that id), runs
    `inner` on it, and saves it. A save that finds another version (two instances ran the same
    conversation at once) throws stored_run_conflict_error: the session is reloaded, nothing
    is merged silently, and the unsaved answer is in the error.

    A run allowed to answer in the background keeps its continuation token in the session
    (state member `continuation_key`), so any instance can finish it with resume(id).

    Works with any agent, decorated or not (telemetry, structured output, tools, ...).
*/
class stored_agent {
public:
    /// The session state member that holds a background run's continuation token.
    static constexpr const char* continuation_key = "forma.continuation_token";

    stored_agent(std::shared_ptr<agent> inner, std::shared_ptr<session_store> store);

    const std::shared_ptr<agent>& inner() const noexcept { return inner_; }
    const std::shared_ptr<session_store>& store() const noexcept { return store_; }

    /** Loads the session `session_id` (a new one when the store has none), runs the agent on
        it, and saves it.
        @throws stored_run_conflict_error when another writer saved the session meanwhile.
    */
    boost::asio::awaitable<agent_response<>> run(std::string session_id, std::vector<chat_message> messages,
                                                 agent_run_options options = {});
    boost::asio::awaitable<agent_response<>> run(std::string session_id, std::string user_message,
                                                 agent_run_options options = {});

    /// run() asking for a `T`, as agent::run<T>.
    template <class T>
    boost::asio::awaitable<agent_response<T>> run(std::string session_id, std::string user_message,
                                                  agent_run_options options = {}) {
        options.response_format = structured_format<T>();
        options.output_validator = output_validator::for_type<T>();
        agent_response<> response = co_await run(std::move(session_id), std::move(user_message), std::move(options));
        co_return agent_response<T>(std::move(response), structured_format_wraps<T>());
    }

    /** Streams a run: the session is loaded at the first next(), and saved once the inner
        stream has ended, before the stream says it has (so a conflict is the last next()'s error).
    */
    update_stream run_streaming(std::string session_id, std::vector<chat_message> messages,
                                agent_run_options options = {});
    update_stream run_streaming(std::string session_id, std::string user_message, agent_run_options options = {});

    /** Continues the background run whose token the session keeps, waiting for it or polling
        once as `options` say, and saves the session; the token is dropped once the run is done.
        @throws error when the session has no background run.
    */
    boost::asio::awaitable<agent_response<>> resume(std::string session_id, agent_run_options options = {});

    /// The continuation token of the session's background run, if it has one.
    static std::optional<continuation_token> pending_run(const agent_session& session);

private:
    class saving_stream;

    boost::asio::awaitable<std::shared_ptr<agent_session>> open(const std::string& session_id) const;
    boost::asio::awaitable<void> close(std::shared_ptr<agent_session> session, const agent_response<>& response,
                                       bool resumed) const;

    std::shared_ptr<agent> inner_;
    std::shared_ptr<session_store> store_;
};

} // namespace forma
