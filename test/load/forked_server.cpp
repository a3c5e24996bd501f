#include "forked_server.hpp"
#include "process_memory.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <csignal>
#include <cstdio>
#include <pthread.h>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace load {

namespace {

[[noreturn]] void serve_in_child(int to_parent, forma::testing::model_server_options options,
                                 const forked_server::setup& configure, unsigned long files) {
    prctl(PR_SET_PDEATHSIG,
          SIGTERM); // a parent that crashes or hangs must not leave the server behind
    raise_file_limit(files);
    try {
        boost::asio::io_context io(1);
        forma::testing::model_server server(io.get_executor(), std::move(options));
        if (configure) configure(server);
        const std::string hello = server.base_url() + "\n" + server.certificate_pem();
        if (write(to_parent, hello.data(), hello.size()) != static_cast<ssize_t>(hello.size()))
            _exit(1);
        close(to_parent);
        boost::asio::signal_set stop(io, SIGTERM);
        stop.async_wait([&](auto, int) { server.stop(); });
        sigset_t term;
        sigemptyset(&term);
        sigaddset(&term, SIGTERM);
        pthread_sigmask(SIG_UNBLOCK, &term, nullptr); // blocked by the parent around fork()
        io.run();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "model server process: %s\n", e.what());
        _exit(1);
    }
    _exit(0); // not exit(): the parent's atexit handlers and statics are not the child's
}

} // namespace

forked_server::forked_server(forma::testing::model_server_options options, setup configure,
                             unsigned long files) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe() failed");
    // Blocked before fork so that a SIGTERM arriving before the child's signal_set exists is
    // kept pending rather than killing the child without its server stopping.
    sigset_t term, previous;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &term, &previous);
    pid_ = fork();
    if (pid_ == 0) {
        close(fds[0]);
        serve_in_child(fds[1], std::move(options), configure, files);
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    close(fds[1]);
    if (pid_ < 0) {
        close(fds[0]);
        throw std::runtime_error("fork() failed");
    }
    std::string hello;
    char buffer[4096];
    for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;)
        hello.append(buffer, static_cast<std::size_t>(n));
    close(fds[0]);
    const auto newline = hello.find('\n');
    if (newline == std::string::npos) {
        waitpid(pid_, nullptr, 0);
        throw std::runtime_error("the model server process did not start");
    }
    base_url_ = hello.substr(0, newline);
    certificate_ = hello.substr(newline + 1);
}

forked_server::~forked_server() {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
}

} // namespace load
