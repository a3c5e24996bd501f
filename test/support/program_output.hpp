#pragma once
// Running a program (a Node.js client script) while the test's io_context keeps serving:
// its standard output is read without blocking, and the program is reaped when it ends.

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace forma_test {

struct program_result {
    /// What it wrote to its standard output (and standard error, when asked).
    std::string output;
    /// Its exit status; -1 when a signal ended it.
    int exit_code = -1;
};

/// Runs `argv` with `extra_environment` ("NAME=value") added, until it exits.
inline boost::asio::awaitable<program_result> run_program(std::vector<std::string> argv, std::vector<std::string> extra_environment = {},
                                                          bool with_standard_error = false) {
    int out[2];
    if (::pipe(out) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    if (with_standard_error) posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    posix_spawn_file_actions_addclose(&actions, out[1]);
    std::vector<std::string> environment;
    for (char** e = environ; *e; ++e) environment.emplace_back(*e);
    environment.insert(environment.end(), extra_environment.begin(), extra_environment.end());
    std::vector<char*> args, envs;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    for (auto& e : environment) envs.push_back(e.data());
    envs.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envs.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    if (spawned != 0) {
        ::close(out[0]);
        throw std::runtime_error("cannot start " + argv[0]);
    }
    boost::asio::posix::stream_descriptor reader(co_await boost::asio::this_coro::executor, out[0]);
    std::string text;
    char chunk[4096];
    for (;;) {
        boost::system::error_code ec;
        const std::size_t n = co_await reader.async_read_some(boost::asio::buffer(chunk), boost::asio::redirect_error(boost::asio::use_awaitable, ec));
        text.append(chunk, n);
        if (ec) break;
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    co_return program_result{std::move(text), WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

/// Runs `argv` with `extra_environment` ("NAME=value") added; its standard output, once it has exited.
inline boost::asio::awaitable<std::string> program_output(std::vector<std::string> argv,
                                                          std::vector<std::string> extra_environment = {}) {
    co_return (co_await run_program(std::move(argv), std::move(extra_environment))).output;
}

/// The one JSON object a client script prints (an interop driver: sdk_client.mjs and its kin);
/// an empty object, and a test failure, when it printed anything else.
inline boost::asio::awaitable<boost::json::object> printed_object(std::vector<std::string> argv,
                                                                  std::vector<std::string> extra_environment = {}) {
    const std::string out = co_await program_output(std::move(argv), std::move(extra_environment));
    boost::system::error_code ec;
    boost::json::value printed = boost::json::parse(out, ec);
    if (ec || !printed.is_object()) {
        ADD_FAILURE() << "the client script printed no JSON object: " << out;
        co_return boost::json::object();
    }
    co_return std::move(printed.as_object());
}

} // namespace forma_test
