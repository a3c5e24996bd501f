#pragma once
// A server program run for a test: started, waited for until its output says it is ready,
// and stopped after. Its output is drained, and kept, so that it never blocks on a full pipe.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <poll.h>
#include <unistd.h>

namespace forma_test {

/** A loopback port nobody listens on at the moment. Only at the moment: the kernel hands the
    same range out as the local ports of outgoing connections, so another test may take it before
    a server binds it. A server that listens on port 0 and says which port it got is started so
    (reported_port); one that takes a port is started with on_a_free_port.
*/
inline unsigned short free_port() {
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor probe(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    return probe.local_endpoint().port();
}

/// The port in a server's output line "... <ready_text> <port>", e.g. "listening on port 4123".
inline unsigned short reported_port(const std::string& output, const std::string& ready_text) {
    const std::size_t at = output.find(ready_text);
    if (at == std::string::npos) throw std::runtime_error("no \"" + ready_text + "\" in: " + output);
    return static_cast<unsigned short>(std::stoul(output.substr(at + ready_text.size())));
}

/** Calls `start(port)` with a free_port(), and again with another when the server it starts
    found its port taken (its error says "already in use" or "couldn't bind"); up to 5 ports.
*/
template <class Start>
void on_a_free_port(Start start) {
    for (int attempt = 1;; ++attempt) {
        try {
            start(free_port());
            return;
        } catch (const std::runtime_error& e) {
            const std::string what = e.what();
            const bool port_taken = what.find("already in use") != std::string::npos ||
                                    what.find("couldn't bind") != std::string::npos;
            if (!port_taken || attempt == 5) throw;
        }
    }
}

class server_process {
public:
    /** Runs `program args...` with `environment_added`, and returns once a line of its output
        (stdout and stderr together) contains `ready_text`.
        @throws std::runtime_error with its output when it ends first.
    */
    server_process(const std::string& program, std::vector<std::string> args, const std::string& ready_text,
                   std::vector<std::string> environment_added = {}) {
        int output_pipe[2];
        if (::pipe2(output_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed"); // not inherited by other children
        // Built before fork: the child only calls what is safe between fork and exec.
        std::vector<char*> environment;
        for (std::string& variable : environment_added) environment.push_back(variable.data());
        for (char** variable = environ; *variable; ++variable) environment.push_back(*variable);
        environment.push_back(nullptr);
        std::vector<char*> argv{const_cast<char*>(program.c_str())};
        for (std::string& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        pid_ = ::fork();
        if (pid_ == 0) {
            ::dup2(output_pipe[1], 1);
            ::dup2(output_pipe[1], 2);
            ::execve(program.c_str(), argv.data(), environment.data());
            ::_exit(127);
        }
        ::close(output_pipe[1]);
        std::FILE* output = ::fdopen(output_pipe[0], "r");
        char line[4096];
        bool ready = false;
        while (!ready && std::fgets(line, sizeof line, output)) {
            output_ += line;
            ready = output_.find(ready_text) != std::string::npos;
        }
        drain_ = std::thread([this, output] {
            char rest[4096];
            while (std::fgets(rest, sizeof rest, output)) {
                const std::lock_guard lock(output_mutex_);
                output_ += rest;
            }
            std::fclose(output);
        });
        if (!ready) {
            stop();
            throw std::runtime_error(program + " did not start: " + output_);
        }
    }

    ~server_process() { stop(); }
    server_process(const server_process&) = delete;
    server_process& operator=(const server_process&) = delete;

    /// Kills the server at once (a server that dies mid-call).
    void kill() {
        if (pid_ > 0) ::kill(pid_, SIGKILL);
    }

    /// Asks it to end (SIGTERM), and kills it when it has not within 5 s (a graceful shutdown
    /// that hangs must not hang the test).
    void stop() {
        if (pid_ > 0) {
            ::kill(pid_, SIGTERM);
            if (!exited_within(std::chrono::seconds(5))) {
                ::kill(pid_, SIGKILL);
                int status = 0;
                ::waitpid(pid_, &status, 0);
            }
            pid_ = -1;
        }
        if (drain_.joinable()) drain_.join();
    }

    /// What it has written so far.
    std::string output() const {
        const std::lock_guard lock(output_mutex_);
        return output_;
    }

private:
    // Waits for the child's exit as an event (its pidfd becomes readable), at most `limit`, and reaps it.
    bool exited_within(std::chrono::milliseconds limit) {
        const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
        if (pidfd >= 0) {
            ::pollfd ready{pidfd, POLLIN, 0};
            ::poll(&ready, 1, static_cast<int>(limit.count()));
            ::close(pidfd);
        }
        int status = 0;
        return ::waitpid(pid_, &status, pidfd >= 0 ? WNOHANG : 0) == pid_;
    }

    pid_t pid_ = -1;
    mutable std::mutex output_mutex_;
    std::string output_;
    std::thread drain_;
};

} // namespace forma_test
