#pragma once
// A Node.js server (an npm package's, or a test's script) run for one test on a free loopback
// port, given in the PORT variable, and stopped after it.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace forma_test {

/// A loopback port nobody listens on at the moment.
inline unsigned short free_port() {
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor probe(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    return probe.local_endpoint().port();
}

class node_server {
public:
    /** Runs `node script args...` and returns once its stderr says "listening on port".
        @throws std::runtime_error when it exits first.
    */
    node_server(const std::string& node, const std::string& script, std::vector<std::string> args = {},
                std::vector<std::string> environment_added = {})
        : port_(free_port()) {
        int errors[2];
        if (::pipe2(errors, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed"); // not inherited by other children
        // Built before fork: the child only calls what is safe between fork and exec.
        environment_added.push_back("PORT=" + std::to_string(port_));
        std::vector<char*> environment;
        for (std::string& variable : environment_added) environment.push_back(variable.data());
        for (char** variable = environ; *variable; ++variable) environment.push_back(*variable);
        environment.push_back(nullptr);
        std::vector<char*> argv{const_cast<char*>(node.c_str()), const_cast<char*>(script.c_str())};
        for (std::string& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        pid_ = ::fork();
        if (pid_ == 0) {
            ::dup2(errors[1], 2);
            const int quiet = ::open("/dev/null", O_WRONLY);
            ::dup2(quiet, 1); // it logs every request on stdout
            ::execve(node.c_str(), argv.data(), environment.data());
            ::_exit(127);
        }
        ::close(errors[1]);
        // Its stderr says when it listens; after that it is drained, so that it never blocks.
        std::FILE* output = ::fdopen(errors[0], "r");
        char line[4096];
        bool listening = false;
        while (!listening && std::fgets(line, sizeof line, output)) {
            stderr_ += line;
            listening = stderr_.find("listening on port") != std::string::npos;
        }
        drain_ = std::thread([output] {
            char rest[4096];
            while (std::fgets(rest, sizeof rest, output)) {
            }
            std::fclose(output);
        });
        if (!listening) {
            stop();
            throw std::runtime_error(script + " did not start: " + stderr_);
        }
    }

    ~node_server() { stop(); }
    node_server(const node_server&) = delete;
    node_server& operator=(const node_server&) = delete;

    /// "http://127.0.0.1:<port>" followed by `path`.
    std::string url(const std::string& path = "") const { return "http://127.0.0.1:" + std::to_string(port_) + path; }
    unsigned short port() const noexcept { return port_; }

    /// Kills the server at once (a server that dies mid-call).
    void kill() {
        if (pid_ > 0) ::kill(pid_, SIGKILL);
    }

private:
    void stop() {
        if (pid_ > 0) {
            ::kill(pid_, SIGTERM);
            int status = 0;
            ::waitpid(pid_, &status, 0);
            pid_ = -1;
        }
        if (drain_.joinable()) drain_.join();
    }

    unsigned short port_;
    pid_t pid_ = -1;
    std::string stderr_;
    std::thread drain_;
};

} // namespace forma_test
