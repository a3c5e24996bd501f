#pragma once

#include <forma/agent/delegating_agent.hpp>
#include <forma/agent/session_store.hpp>
#include <forma/agent/stored_run_conflict_error.hpp>

#include <memory>
#include <optional>

namespace forma {

/** An agent whose conversations live in a session_store, so that any server instance can take
    any turn: `run(input, session_id("conv-42"))` loads that session (or starts one under that
    id), runs the inner agent on it, and saves it. Every run through it is saved, whichever
    session it was given. A save that finds another version (two instances ran the same
    conversation at once) throws stored_run_conflict_error: the session is reloaded, nothing
    is merged silently, and the unsaved answer is in the error.

    It is an agent like any other: decorate it, build it with agent_builder::use_session_store,
    turn it into a tool. A run allowed to answer in the background keeps its continuation token
    in the session (state member `continuation_key`), so any instance can finish it with resume().
*/
class stored_agent : public delegating_agent {
public:
    /// The session state member that holds a background run's continuation token.
    static constexpr const char* continuation_key = "forma.continuation_token";

    /// @throws error for a null agent or store.
    stored_agent(std::shared_ptr<agent> inner, std::shared_ptr<session_store> store);

    const std::shared_ptr<session_store>& store() const noexcept { return store_; }

    /// The session stored under `id`, or a new one (version 0) under that id.
    /// @throws error for an empty id.
    boost::asio::awaitable<std::shared_ptr<agent_session>> open_session(session_id id) override;

    /** Continues the background run whose token the session keeps, waiting for it or polling
        once as `options` say, and saves the session; the token is dropped once the run is done.
        @throws error when the session has no background run.
    */
    boost::asio::awaitable<agent_response<>> resume(session_id id, agent_run_options options = {});
    /// resume() for any completion token; the handler gets (std::exception_ptr, agent_response<>).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_resume(session_id id, agent_run_options options, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), resume(std::move(id), std::move(options)),
                                     std::forward<CompletionToken>(token));
    }

    /// The continuation token of the session's background run, if it has one.
    static std::optional<continuation_token> pending_run(const agent_session& session);

protected:
    /// Runs the inner agent, then saves the session.
    /// @throws stored_run_conflict_error when another writer saved the session meanwhile.
    boost::asio::awaitable<agent_response<>> run_core(agent_run run) override;
    /// Streams the inner run, and saves the session once it has ended, before the stream says
    /// it has (so a conflict is the last next()'s error).
    update_stream run_streaming_core(agent_run run) override;

private:
    class saving_stream;

    std::shared_ptr<session_store> store_;
};

} // namespace forma
