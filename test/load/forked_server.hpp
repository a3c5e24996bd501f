#pragma once
// The local model server in a child process: what the parent measures is then the client's
// memory alone, and the server's TLS work runs on the other core.

#include <forma/testing/model_server.hpp>

#include <sys/types.h>

#include <functional>
#include <string>

namespace load {

class forked_server {
public:
    /// Runs in the child once the server exists, before it serves anything (e.g. set_handler).
    using setup = std::function<void(forma::testing::model_server&)>;

    /** Forks; the child raises its descriptor limit to `files`, runs a model_server on one
        thread until the parent destroys this object (or dies), and never returns.
        Call before the parent starts threads.
        @throws std::runtime_error when the child cannot be started.
    */
    forked_server(forma::testing::model_server_options options, setup configure,
                  unsigned long files);
    ~forked_server();

    forked_server(const forked_server&) = delete;
    forked_server& operator=(const forked_server&) = delete;

    const std::string& base_url() const noexcept { return base_url_; }
    const std::string& certificate_pem() const noexcept { return certificate_; }

private:
    pid_t pid_ = -1;
    std::string base_url_;
    std::string certificate_;
};

} // namespace load
