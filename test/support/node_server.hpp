#pragma once
// A Node.js server (an npm package's, or a test's script) run for one test on a free loopback
// port, given in the PORT variable, and stopped after it.

#include "server_process.hpp"

namespace forma_test {

class node_server {
public:
    /** Runs `node script args...` and returns once its output says "listening on port".
        @throws std::runtime_error when it exits first.
    */
    node_server(const std::string& node, const std::string& script, std::vector<std::string> args = {},
                std::vector<std::string> environment_added = {})
        : port_(free_port()), process_(node, with_script(script, std::move(args)), "listening on port",
                                       with_port(std::move(environment_added), port_)) {}

    /// "http://127.0.0.1:<port>" followed by `path`.
    std::string url(const std::string& path = "") const { return "http://127.0.0.1:" + std::to_string(port_) + path; }
    unsigned short port() const noexcept { return port_; }

    /// Kills the server at once (a server that dies mid-call).
    void kill() { process_.kill(); }

private:
    static std::vector<std::string> with_script(const std::string& script, std::vector<std::string> args) {
        args.insert(args.begin(), script);
        return args;
    }
    static std::vector<std::string> with_port(std::vector<std::string> environment, unsigned short port) {
        environment.push_back("PORT=" + std::to_string(port));
        return environment;
    }

    unsigned short port_;
    server_process process_;
};

} // namespace forma_test
