#pragma once
// A real redis-server (Debian's; tools/bootstrap installs it) for one test: on a free loopback
// port (another one if that was taken before it bound it), in a temporary directory, stopped
// and removed after.

#include "scratch_directory.hpp"
#include "server_process.hpp"

#include <forma/redis/client_options.hpp>
#include <forma/testing/self_signed_certificate.hpp>

#include <optional>
#include <string>
#include <vector>

namespace forma_test {

struct redis_server_options {
    /// Listen with TLS only, with a certificate for 127.0.0.1 made at start.
    bool tls = false;
    /// requirepass: the default user needs this password.
    std::string password{};
    /// Further configuration, e.g. {"--user", "alice on >secret ~* +@all"}.
    std::vector<std::string> arguments{};
    /// Keep data across restart() (an append-only file, written at each command).
    bool persistent = false;
};

class redis_server {
public:
    explicit redis_server(redis_server_options options = {}) : options_(std::move(options)) {
        if (options_.tls) {
            certificate_ = forma::testing::make_self_signed_certificate({"localhost"}, {"127.0.0.1"});
            directory_.file("server.crt", certificate_.certificate);
            directory_.file("server.key", certificate_.private_key);
        }
        on_a_free_port([this](unsigned short port) {
            port_ = port;
            start();
        });
    }

    redis_server(const redis_server&) = delete;
    redis_server& operator=(const redis_server&) = delete;

    unsigned short port() const noexcept { return port_; }

    /// Options for a forma::redis::client of this server (trusting its certificate under TLS).
    forma::redis::client_options client_options() const {
        forma::redis::client_options o;
        o.host = "127.0.0.1";
        o.port = port_;
        o.password = options_.password;
        o.tls = options_.tls;
        o.trust.ca_certificates = certificate_.certificate;
        return o;
    }

    /// Kills the server at once, as a crash would.
    void kill() {
        if (process_) process_->kill();
        process_.reset();
    }
    /// Stops it (SIGTERM: it exits cleanly).
    void stop() { process_.reset(); }
    /// Starts it again on the same port and directory.
    void start() {
        std::vector<std::string> args{"--bind", "127.0.0.1", "--dir", directory_.path().string(), "--save", "",
                                      "--daemonize", "no", "--protected-mode", "no", "--logfile", ""};
        const std::string port = std::to_string(port_);
        if (options_.tls) {
            args.insert(args.end(), {"--port", "0", "--tls-port", port, "--tls-cert-file", (directory_.path() / "server.crt").string(),
                                     "--tls-key-file", (directory_.path() / "server.key").string(), "--tls-auth-clients", "no"});
        } else {
            args.insert(args.end(), {"--port", port});
        }
        if (!options_.password.empty()) args.insert(args.end(), {"--requirepass", options_.password});
        if (options_.persistent) args.insert(args.end(), {"--appendonly", "yes", "--appendfsync", "always"});
        args.insert(args.end(), options_.arguments.begin(), options_.arguments.end());
        process_.emplace(FORMA_REDIS_SERVER, std::move(args), "Ready to accept connections");
    }

private:
    redis_server_options options_;
    unsigned short port_ = 0;
    scratch_directory directory_{"forma-redis"}; // declared before process_: removed after it stops
    forma::testing::certificate_pem certificate_{};
    std::optional<server_process> process_;
};

} // namespace forma_test
