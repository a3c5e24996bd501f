#pragma once
// The official MCP reference server in its Streamable HTTP mode, run for one test on a free
// loopback port and stopped after it.

#include "everything_server.hpp"

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

namespace mcp_test {

/// A loopback port nobody listens on at the moment.
inline unsigned short free_port() {
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor probe(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    return probe.local_endpoint().port();
}

class everything_http_server {
public:
    /// Starts the server and returns once it listens. @throws std::runtime_error when it exits first.
    everything_http_server() : port_(free_port()) {
        int errors[2];
        if (::pipe(errors) != 0) throw std::runtime_error("pipe failed");
        const std::string node = FORMA_NODE;
        const std::string script = everything_server().args[0];
        // Built before fork: the child only calls what is safe between fork and exec.
        const std::string port = "PORT=" + std::to_string(port_);
        std::vector<char*> environment{const_cast<char*>(port.c_str())};
        for (char** variable = environ; *variable; ++variable) environment.push_back(*variable);
        environment.push_back(nullptr);
        pid_ = ::fork();
        if (pid_ == 0) {
            ::dup2(errors[1], 2);
            const int quiet = ::open("/dev/null", O_WRONLY);
            ::dup2(quiet, 1); // it logs every request on stdout
            ::execle(node.c_str(), node.c_str(), script.c_str(), "streamableHttp", static_cast<char*>(nullptr),
                     environment.data());
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
            throw std::runtime_error("the MCP reference server did not start: " + stderr_);
        }
    }

    ~everything_http_server() { stop(); }
    everything_http_server(const everything_http_server&) = delete;
    everything_http_server& operator=(const everything_http_server&) = delete;

    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/mcp"; }
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

} // namespace mcp_test
