#pragma once
// A Node.js server (an npm package's, or a test's script) run for one test on a free loopback
// port, given in the PORT variable (another one if that was taken before it bound it), and
// stopped after it. Not every script reports the port it bound when given PORT=0 (the MCP
// "everything" server repeats the variable), so the port is chosen here.

#include "server_process.hpp"

#include <optional>

namespace forma_test {

class node_server {
public:
    /** Runs `node script args...` and returns once its output says "listening on port".
        @throws std::runtime_error when it exits first.
    */
    node_server(const std::string& node, const std::string& script, std::vector<std::string> args = {},
                std::vector<std::string> environment_added = {}) {
        args.insert(args.begin(), script);
        on_a_free_port([&](unsigned short port) {
            port_ = port;
            std::vector<std::string> environment = environment_added;
            environment.push_back("PORT=" + std::to_string(port));
            process_.emplace(node, args, "listening on port", std::move(environment));
        });
    }

    /// "http://127.0.0.1:<port>" followed by `path`.
    std::string url(const std::string& path = "") const { return "http://127.0.0.1:" + std::to_string(port_) + path; }
    unsigned short port() const noexcept { return port_; }

    /// Kills the server at once (a server that dies mid-call).
    void kill() { process_->kill(); }

private:
    unsigned short port_ = 0;
    std::optional<server_process> process_;
};

} // namespace forma_test
