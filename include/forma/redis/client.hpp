#pragma once

#include <forma/redis/client_options.hpp>
#include <forma/redis/command.hpp>
#include <forma/redis/redis_error.hpp>
#include <forma/redis/reply.hpp>
#include <forma/redis/script.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>

#include <memory>
#include <string>
#include <vector>

namespace forma::redis {

/** A Redis client on the caller's executor: one connection, opened at the first command and
    again after it breaks (with backoff), TLS and AUTH as the options say. RESP2 requests are
    formatted and replies parsed by hiredis; the I/O is Asio's, with no thread of its own and
    no blocking call.

    Commands from concurrent coroutines are pipelined: each is written as soon as the
    connection is free, together with whatever else is queued, and replies are matched in
    order. A cancelled command is not sent when it was still queued; once sent, its reply
    is read and dropped.

    Every failure is a redis_error. One executor; not thread-safe (use a strand executor to
    share one client between threads).
*/
class client {
public:
    using executor_type = boost::asio::any_io_executor;

    client(executor_type executor, client_options options);
    /// Closes the connection; commands still waiting fail (redis_error_kind::closed).
    ~client();

    client(const client&) = delete;
    client& operator=(const client&) = delete;

    executor_type get_executor() const noexcept;
    const client_options& options() const noexcept;
    /// "redis at host:port", as errors name the server.
    const std::string& name() const noexcept;

    /// Opens the connection now (it opens by itself otherwise), so that a server that is
    /// down or refuses the credentials shows at start.
    boost::asio::awaitable<void> connect();

    /// Runs one command. @throws redis_error, kind server for an error reply.
    boost::asio::awaitable<reply> execute(command cmd);

    /// Sends the commands in one write and returns their replies in order; an error reply
    /// is returned as a reply (is_error()), so that one does not hide the others' results.
    boost::asio::awaitable<std::vector<reply>> execute(std::vector<command> commands);

    /** Runs `lua` with KEYS and ARGV (EVALSHA, falling back to EVAL when the server does
        not know the script). @throws redis_error, kind server for an error reply.
    */
    boost::asio::awaitable<reply> eval(const script& lua, std::vector<std::string> keys,
                                       std::vector<std::string> arguments);

    /// Closes the connection at once; waiting commands fail, later ones are refused.
    void close();

    /// execute() for any completion token; the handler gets (std::exception_ptr, reply).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_execute(command cmd, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), execute(std::move(cmd)), std::forward<CompletionToken>(token));
    }
    /// execute() of a pipeline for any completion token; the handler gets (std::exception_ptr, std::vector<reply>).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_execute(std::vector<command> commands, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), execute(std::move(commands)), std::forward<CompletionToken>(token));
    }
    /// eval() for any completion token; the handler gets (std::exception_ptr, reply).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_eval(const script& lua, std::vector<std::string> keys, std::vector<std::string> arguments,
                    CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), eval(lua, std::move(keys), std::move(arguments)),
                                     std::forward<CompletionToken>(token));
    }
    /// connect() for any completion token; the handler gets (std::exception_ptr).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_connect(CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), connect(), std::forward<CompletionToken>(token));
    }

private:
    struct state;
    std::shared_ptr<state> state_; // shared with the connection's reader and writer
};

} // namespace forma::redis
