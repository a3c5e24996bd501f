#pragma once

#include <forma/agent/agent_session.hpp>
#include <forma/agent/session_conflict_error.hpp>
#include <forma/error.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace forma {

/** Where sessions live between runs, so that any process (any server instance) can continue
    a conversation.

    Saves are optimistic: a session carries the version it was loaded at
    (agent_session::version, 0 for one never stored). save() writes it only when the store
    still holds that version, and then gives it the next one; otherwise it throws
    session_conflict_error and writes nothing, so that no writer's messages are dropped.

    All operations run on get_executor(); each has an `async_` form for any completion token.
*/
class session_store {
public:
    using executor_type = boost::asio::any_io_executor;

    virtual ~session_store();

    virtual executor_type get_executor() const = 0;

    /// The session stored under `id`, its version set; nullopt when there is none.
    virtual boost::asio::awaitable<std::optional<agent_session>> load(session_id id) = 0;

    /** Stores `session` under its id when the store holds the version it was loaded at, and
        sets `session.version` to the new version.
        @throws session_conflict_error when the store holds another version.
        @throws error for a session without an id, or larger than the store takes.
    */
    virtual boost::asio::awaitable<void> save(agent_session& session) = 0;

    /// Removes the session stored under `id`; whether there was one.
    virtual boost::asio::awaitable<bool> erase(session_id id) = 0;

    /// load() for any completion token; the handler gets (std::exception_ptr, std::optional<agent_session>).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_load(session_id id, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), load(std::move(id)), std::forward<CompletionToken>(token));
    }
    /// save() for any completion token; `session` must outlive the operation.
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_save(agent_session& session, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), save(session), std::forward<CompletionToken>(token));
    }
    /// erase() for any completion token; the handler gets (std::exception_ptr, bool).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_erase(session_id id, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), erase(std::move(id)), std::forward<CompletionToken>(token));
    }
};

} // namespace forma
