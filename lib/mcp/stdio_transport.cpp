// The MCP stdio transport: a child process, newline-delimited JSON-RPC on its stdin and stdout.
#define BOOST_PROCESS_USE_STD_FS // std::filesystem: no Boost.Filesystem to link
#include <forma/mcp/mcp_error.hpp>
#include <forma/mcp/stdio_transport.hpp>

#include "../json/json_text.hpp"
#include "../net/credentials.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/asio/readable_pipe.hpp>
#include <boost/asio/writable_pipe.hpp>
// Boost.Process 1.81 with std::filesystem still names boost::optional, std::is_constructible
// and (unqualified) remove_pointer without declaring them.
#include <boost/optional.hpp>
#include <type_traits>
namespace boost::process::v2 {
using std::remove_pointer;
}
#include <boost/process/v2/environment.hpp>
// Header-only Boost.Process 1.81 leaves process_environment::on_setup undefined: its source is here.
#include <boost/process/v2/impl/environment.ipp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/start_dir.hpp>
#include <boost/process/v2/stdio.hpp>

#include <cerrno>
#include <filesystem>
#include <optional>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace forma::mcp {

namespace {

namespace asio = boost::asio;
namespace bp = boost::process::v2;

std::string command_line(const stdio_server& server) {
    std::string line = server.command;
    for (const auto& arg : server.args) line.append(" ").append(arg);
    return line;
}

// This process's environment with `overrides` set, as NAME=value strings.
std::vector<std::string> environment_with(const std::map<std::string, std::string>& overrides) {
    std::vector<std::string> env;
    for (const auto& entry : bp::environment::current()) {
        const std::string text = entry.string();
        const std::string name = text.substr(0, text.find('='));
        if (!overrides.contains(name)) env.push_back(text);
    }
    for (const auto& [name, value] : overrides) env.push_back(name + "=" + value);
    return env;
}

// What the transport shares with its stderr reader, which may outlive a receive.
struct child_state {
    explicit child_state(asio::any_io_executor executor) : input(executor), output(executor), errors(executor) {}
    asio::writable_pipe input;
    asio::readable_pipe output;
    asio::readable_pipe errors;
    std::optional<bp::process> process;
    std::string stderr_tail;
    bool stderr_ended = false;
    // Cancelled when stderr ends: errors wait for it (bounded), so that they carry its tail.
    asio::steady_timer stderr_end{input.get_executor(), asio::steady_timer::time_point::max()};
};

asio::awaitable<void> keep_stderr(std::shared_ptr<child_state> child, std::size_t kept) {
    char chunk[1024];
    for (;;) {
        boost::system::error_code ec;
        const std::size_t n =
            co_await child->errors.async_read_some(asio::buffer(chunk), asio::redirect_error(asio::use_awaitable, ec));
        child->stderr_tail.append(chunk, n);
        if (child->stderr_tail.size() > kept) child->stderr_tail.erase(0, child->stderr_tail.size() - kept);
        if (ec) {
            child->stderr_ended = true;
            child->stderr_end.cancel();
            co_return;
        }
    }
}

// Why the program at `path` cannot be run, or nothing. Checked before anything is started: a
// child whose exec fails reports only an errno, while the path is what a user can fix.
std::optional<std::string> cannot_run(const std::filesystem::path& path) {
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (status.type() == std::filesystem::file_type::not_found) return "does not exist";
    if (ec) return "cannot be examined (" + ec.message() + ")";
    if (std::filesystem::is_directory(status)) return "is a directory, not a program";
    if (!std::filesystem::is_regular_file(status)) return "is not a regular file";
    if (::access(path.c_str(), X_OK) != 0) return "is not executable by this process (chmod +x?)";
    return std::nullopt;
}

std::optional<std::string> not_a_directory(const std::filesystem::path& directory) {
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(directory, ec);
    if (status.type() == std::filesystem::file_type::not_found) return "does not exist";
    if (ec) return "cannot be examined (" + ec.message() + ")";
    if (!std::filesystem::is_directory(status)) return "is not a directory";
    return std::nullopt;
}

// Boost.Process 1.81's launcher returns an error when the child's exec fails but leaves the
// child, which exits at once, unreaped: a zombie until this process exits. Whatever failed
// after the fork, no child of a failed start may stay.
void reap_failed_child(int pid) {
    if (pid <= 0) return; // no fork happened
    ::kill(pid, SIGKILL); // the error may be the launcher's, with the child still running
    while (::waitpid(pid, nullptr, 0) == -1 && errno == EINTR) {
    }
}

// A write to a server that has exited raises SIGPIPE, whose default ends this process; an
// ignored one makes the write fail with EPIPE instead. A handler the program set stays.
void ignore_sigpipe_if_default() {
    struct sigaction current {};
    if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        ::sigemptyset(&ignore.sa_mask);
        ::sigaction(SIGPIPE, &ignore, nullptr);
    }
}

class stdio_transport final : public transport {
public:
    stdio_transport(asio::any_io_executor executor, stdio_server server)
        : executor_(executor), server_(std::move(server)), child_(std::make_shared<child_state>(executor)) {
        secrets_.add_named(server_.env); // a server may print them to the stderr an error quotes
    }

    ~stdio_transport() override {
        // Not closed by the client: the child must not outlive its transport.
        boost::system::error_code ec;
        if (child_->process && !closed_ && child_->process->running(ec)) child_->process->terminate(ec);
    }

    asio::awaitable<void> start() override {
        if (server_.command.empty()) throw mcp_error("an MCP stdio server needs a command", describe());
        const std::filesystem::path directory = server_.working_directory.empty()
                                                    ? std::filesystem::current_path()
                                                    : std::filesystem::path(server_.working_directory);
        if (const auto why = not_a_directory(directory)) {
            throw mcp_error(describe() + ": the working directory \"" + json_detail::valid_utf8(directory.string()) +
                                "\" " + *why,
                            describe());
        }
        const std::filesystem::path program = program_path(directory);
        ignore_sigpipe_if_default();
        const std::vector<std::string> env = environment_with(server_.env);
        bp::default_process_launcher launcher;
        boost::system::error_code ec;
        bp::process process = launcher(executor_, ec, program, server_.args,
                                       bp::process_stdio{child_->input, child_->output, child_->errors},
                                       bp::process_environment(env), bp::process_start_dir(directory));
        if (ec) {
            reap_failed_child(launcher.pid);
            throw mcp_error(describe() + " could not be started: " + json_detail::valid_utf8(ec.message()), describe());
        }
        child_->process.emplace(std::move(process));
        asio::co_spawn(executor_, keep_stderr(child_, server_.stderr_kept), asio::detached);
        co_return;
    }

    asio::awaitable<void> send(std::string message) override {
        message.push_back('\n');
        boost::system::error_code ec;
        co_await asio::async_write(child_->input, asio::buffer(message), asio::redirect_error(asio::use_awaitable, ec));
        if (ec == asio::error::operation_aborted) throw boost::system::system_error(ec);
        if (ec) {
            co_await await_stderr_end();
            throw mcp_error(describe() + " stopped reading its input (" + ec.message() + ")" + stderr_note(), describe());
        }
    }

    asio::awaitable<std::optional<std::string>> receive() override {
        for (;;) {
            const std::size_t newline = buffer_.find('\n', scanned_);
            if (newline != std::string::npos) {
                std::string line = buffer_.substr(0, newline);
                buffer_.erase(0, newline + 1);
                scanned_ = 0;
                if (!line.empty() && line.back() == '\r') line.pop_back();
                if (line.find_first_not_of(" \t") == std::string::npos) continue; // blank lines are no messages
                co_return line;
            }
            scanned_ = buffer_.size();
            if (buffer_.size() > server_.max_message_size) {
                throw mcp_error(describe() + " sent a message longer than the limit of " +
                                    std::to_string(server_.max_message_size) + " bytes",
                                describe());
            }
            char chunk[16384];
            boost::system::error_code ec;
            const std::size_t n = co_await child_->output.async_read_some(asio::buffer(chunk),
                                                                          asio::redirect_error(asio::use_awaitable, ec));
            buffer_.append(chunk, n);
            if (ec == asio::error::operation_aborted) throw boost::system::system_error(ec);
            if (ec == asio::error::eof) {
                co_await await_stderr_end(); // so that diagnostics() has what the server said
                if (buffer_.find_first_not_of(" \t\r\n") != std::string::npos) {
                    throw mcp_error(describe() + " closed its output in the middle of a message" + stderr_note(), describe());
                }
                co_return std::nullopt;
            }
            if (ec) throw mcp_error(describe() + ": reading its output failed (" + ec.message() + ")" + stderr_note(), describe());
        }
    }

    asio::awaitable<void> close() override {
        if (!child_->process || closed_) co_return;
        closed_ = true;
        boost::system::error_code ec;
        child_->input.close(ec); // end of input: a well-behaved server exits
        bp::process& process = *child_->process;
        if (!co_await exited_within(server_.shutdown_grace)) {
            process.request_exit(ec); // SIGTERM
            if (!co_await exited_within(server_.shutdown_grace)) {
                process.terminate(ec); // SIGKILL, and reaped
            }
        }
        child_->output.close(ec);
        child_->errors.close(ec);
    }

    std::string describe() const override { return "MCP stdio server \"" + json_detail::valid_utf8(command_line(server_)) + "\""; }

    std::string diagnostics() const override { return json_detail::valid_utf8(child_->stderr_tail); }

private:
    // The program to run: a command with a '/' is a path (from `directory` when relative, as the
    // child resolves it), checked here; any other is looked up on PATH.
    std::filesystem::path program_path(const std::filesystem::path& directory) const {
        if (server_.command.find('/') == std::string::npos) {
            std::filesystem::path found = bp::environment::find_executable(server_.command);
            if (found.empty()) {
                throw mcp_error(describe() + ": \"" + json_detail::valid_utf8(server_.command) + "\" is not on PATH",
                                describe());
            }
            return found;
        }
        const std::filesystem::path program = server_.command;
        if (const auto why = cannot_run(directory / program)) { // `program` itself when it is absolute
            std::string named = "the program \"" + server_.command + "\"";
            if (program.is_relative()) named += " (" + (directory / program).lexically_normal().string() + ")";
            throw mcp_error(describe() + ": " + json_detail::valid_utf8(named) + " " + *why, describe());
        }
        return program;
    }

    // Whether the child exits within `grace`.
    asio::awaitable<bool> exited_within(std::chrono::milliseconds grace) {
        asio::steady_timer timer(executor_, grace);
        auto [order, wait_error, exit_code, timer_error] =
            co_await asio::experimental::make_parallel_group(child_->process->async_wait(asio::deferred),
                                                             timer.async_wait(asio::deferred))
                .async_wait(asio::experimental::wait_for_one(), asio::use_awaitable);
        (void)exit_code;
        (void)timer_error;
        co_return order[0] == 0 && !wait_error;
    }

    // Waits up to a second for the server's stderr to end (it does when the server exits).
    asio::awaitable<void> await_stderr_end() {
        if (child_->stderr_ended) co_return;
        asio::steady_timer limit(executor_, std::chrono::seconds(1));
        (void)co_await asio::experimental::make_parallel_group(child_->stderr_end.async_wait(asio::deferred),
                                                               limit.async_wait(asio::deferred))
            .async_wait(asio::experimental::wait_for_one(), asio::use_awaitable);
    }

    std::string stderr_note() const {
        const std::string tail = diagnostics();
        return tail.empty() ? std::string() : "; its stderr ends with: " + tail;
    }

    asio::any_io_executor executor_;
    stdio_server server_;
    net::detail::credentials secrets_;
    std::shared_ptr<child_state> child_;
    std::string buffer_;
    std::size_t scanned_ = 0;
    bool closed_ = false;
};

} // namespace

transport::~transport() = default;

std::unique_ptr<transport> make_stdio_transport(boost::asio::any_io_executor executor, stdio_server server) {
    return std::make_unique<stdio_transport>(std::move(executor), std::move(server));
}

} // namespace forma::mcp
