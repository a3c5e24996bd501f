// example/asio_server: many real HTTP clients at once against the server, in-process (with a
// model server whose answers are slow and name their request) and as the built program.
#include "asio_server.hpp"

#include <forma/openai/chat_client.hpp>
#include <forma/testing/model_server.hpp>

#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <iostream>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace {

using namespace std::chrono_literals;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr int clients = 64;

struct reply {
    unsigned status = 0;
    std::string content_type;
    std::string body;
    bool keep_alive = false;
};

/// One request on its own connection, from a Beast client.
asio::awaitable<reply> send(unsigned short port, http::verb method, std::string target,
                            std::string body) {
    beast::tcp_stream stream(co_await asio::this_coro::executor);
    stream.expires_after(30s);
    const tcp::endpoint server(asio::ip::address_v4::loopback(), port);
    co_await stream.async_connect(server, asio::use_awaitable);
    http::request<http::string_body> request{method, target, 11};
    request.set(http::field::host, "127.0.0.1");
    request.set(http::field::content_type, "text/plain; charset=utf-8");
    request.body() = std::move(body);
    request.prepare_payload();
    co_await http::async_write(stream, request, asio::use_awaitable);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    co_await http::async_read(stream, buffer, response, asio::use_awaitable);
    co_return reply{response.result_int(), std::string(response[http::field::content_type]),
                    std::move(response.body()), response.keep_alive()};
}

/// Bytes that are not HTTP, and the server's answer.
asio::awaitable<reply> send_garbage(unsigned short port) {
    beast::tcp_stream stream(co_await asio::this_coro::executor);
    stream.expires_after(30s);
    const tcp::endpoint server(asio::ip::address_v4::loopback(), port);
    co_await stream.async_connect(server, asio::use_awaitable);
    const std::string garbage = "this is not HTTP\r\n\r\n";
    co_await asio::async_write(stream, asio::buffer(garbage), asio::use_awaitable);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    co_await http::async_read(stream, buffer, response, asio::use_awaitable);
    co_return reply{response.result_int(), std::string(response[http::field::content_type]),
                    std::move(response.body()), response.keep_alive()};
}

std::string what(std::exception_ptr e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::exception& x) {
        return x.what();
    }
}

/// Runs the requests at once on `io` (bounded); a slot is empty when its request failed.
std::vector<std::optional<reply>> run_all(asio::io_context& io,
                                          std::vector<asio::awaitable<reply>> requests) {
    std::vector<std::optional<reply>> replies(requests.size());
    for (std::size_t i = 0; i < requests.size(); ++i)
        asio::co_spawn(io, std::move(requests[i]), [&replies, i](std::exception_ptr e, reply r) {
            if (e)
                ADD_FAILURE() << "request " << i << " failed: " << what(e);
            else
                replies[i].emplace(std::move(r));
        });
    io.restart();
    io.run_for(60s);
    return replies;
}

std::string text_about(int i) {
    return "Client " + std::to_string(i) + " is a 40-year-old welder.";
}

void expect_error(const std::optional<reply>& r, unsigned status, std::string_view code) {
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, status) << r->body;
    EXPECT_EQ(r->content_type, "application/json");
    const auto body = forma::try_from_json<asio_server::error_body>(r->body);
    ASSERT_TRUE(body) << r->body;
    EXPECT_EQ(body->error, code);
    EXPECT_FALSE(body->message.empty());
}

/** The server code of the example on its own thread, with a model server on the same
    io_context whose answers name the text they were asked about (so crossed replies would
    show) and arrive in chunks 25 ms apart (so serial handling would show).
*/
class asio_server_in_process : public ::testing::Test {
protected:
    asio_server_in_process() {
        model.set_handler([this](const forma::testing::received_request& request) {
            // Sampled while this request's connection is open: more than one means runs
            // overlapped (the client reuses one connection for runs that follow each other).
            const std::size_t open = model.open_connections();
            std::size_t peak = peak_model_connections.load();
            while (open > peak && !peak_model_connections.compare_exchange_weak(peak, open)) {
            }
            const boost::json::value sent = boost::json::parse(request.body);
            const auto& messages = sent.at("messages").as_array();
            const std::string text(messages.back().at("content").as_string());
            auto r = forma::testing::scripted_reply::completion(
                forma::to_json(example::person{.name = text, .age = 40, .occupation = "welder"}));
            for (std::size_t at = 0; at < r.body.size(); at += 32)
                r.chunks.push_back(r.body.substr(at, 32));
            r.body.clear();
            r.chunk_delay = 25ms;
            return std::optional(std::move(r));
        });
        asio::co_spawn(
            server_io,
            [this]() -> asio::awaitable<void> {
                co_await server.run();
                model.stop();
                drained = true;
            },
            asio::detached);
        server_thread = std::thread([this] { server_io.run_for(90s); });
    }
    ~asio_server_in_process() override {
        if (server_thread.joinable()) stop_and_join();
    }

    /// Stops the server from its own thread and waits for its thread to end.
    void stop_and_join() {
        asio::post(server_io, [this] { server.stop(); });
        server_thread.join();
        EXPECT_TRUE(drained) << "the server did not stop within its limit";
    }

    forma::openai::client_options client_options() const {
        forma::openai::client_options options;
        options.base_url = model.base_url();
        options.trust.ca_certificates = model.certificate_pem();
        options.model = "forma-local";
        return options;
    }

    asio::io_context server_io;
    forma::testing::model_server model{server_io.get_executor()};
    std::atomic<std::size_t> peak_model_connections{0};
    forma::openai::chat_client client{server_io.get_executor(), client_options()};
    forma::chat_client_agent agent{client, {.name = "extractor"}};
    asio_server::server server{server_io.get_executor(), agent};
    const unsigned short port = server.port();
    bool drained = false; // written on the server thread, read after joining it
    std::thread server_thread;
};

TEST_F(asio_server_in_process, serves_many_requests_at_once_on_one_thread) {
    asio::io_context client_io;
    std::vector<asio::awaitable<reply>> requests;
    for (int i = 0; i < clients; ++i)
        requests.push_back(send(port, http::verb::post, "/extract", text_about(i)));
    requests.push_back(send(port, http::verb::post, "/extract", ""));
    requests.push_back(send(port, http::verb::post, "/extract", std::string(100 * 1024, 'x')));
    requests.push_back(send(port, http::verb::get, "/extract", ""));
    requests.push_back(send(port, http::verb::post, "/elsewhere", "John is 35."));
    requests.push_back(send_garbage(port));
    const auto replies = run_all(client_io, std::move(requests));

    stop_and_join();

    for (int i = 0; i < clients; ++i) {
        const auto& r = replies[static_cast<std::size_t>(i)];
        ASSERT_TRUE(r) << "request " << i;
        ASSERT_EQ(r->status, 200u) << r->body;
        EXPECT_EQ(r->content_type, "application/json");
        const auto p = forma::try_from_json<example::person>(r->body);
        ASSERT_TRUE(p) << r->body;
        EXPECT_EQ(p->name, text_about(i));
    }
    expect_error(replies[clients + 0], 400, "bad_request");
    expect_error(replies[clients + 1], 413, "too_large");
    expect_error(replies[clients + 2], 405, "method_not_allowed");
    expect_error(replies[clients + 3], 404, "not_found");
    expect_error(replies[clients + 4], 400, "bad_request");
    EXPECT_FALSE(replies[clients + 4]->keep_alive);

    EXPECT_EQ(model.requests().size(), static_cast<std::size_t>(clients))
        << "only good requests reach the model";
    EXPECT_GT(peak_model_connections.load(), 1u) << "the agent runs did not overlap";
    EXPECT_EQ(server.requests_served(), static_cast<std::size_t>(clients) + 5);
    std::cout << "peak concurrent model connections: " << peak_model_connections.load() << " of "
              << clients << '\n';
}

/// A connection that sends nothing; true once the server closes it.
asio::awaitable<bool> idle_connection(unsigned short port) {
    beast::tcp_stream stream(co_await asio::this_coro::executor);
    stream.expires_after(30s);
    const tcp::endpoint server(asio::ip::address_v4::loopback(), port);
    co_await stream.async_connect(server, asio::use_awaitable);
    char byte = 0;
    beast::error_code ec;
    co_await stream.async_read_some(asio::buffer(&byte, 1),
                                    asio::redirect_error(asio::use_awaitable, ec));
    co_return ec == asio::error::eof;
}

// stop() while answers are on their way: they still arrive (with Connection: close), an idle
// connection is closed, and run() returns.
TEST_F(asio_server_in_process, stop_lets_requests_in_progress_finish) {
    asio::io_context client_io;
    std::optional<bool> idle_closed;
    asio::co_spawn(client_io, idle_connection(port), [&](std::exception_ptr e, bool closed) {
        if (e)
            ADD_FAILURE() << "idle connection: " << what(e);
        else
            idle_closed = closed;
    });
    constexpr std::size_t in_progress = 8;
    asio::co_spawn(
        client_io,
        [this]() -> asio::awaitable<void> {
            // Once every request has reached the model, none has been answered yet.
            asio::steady_timer poll(co_await asio::this_coro::executor);
            for (int i = 0; i < 2000 && model.requests().size() < in_progress; ++i) {
                poll.expires_after(5ms);
                co_await poll.async_wait(asio::use_awaitable);
            }
            asio::post(server_io, [this] { server.stop(); });
        },
        asio::detached);
    std::vector<asio::awaitable<reply>> requests;
    for (std::size_t i = 0; i < in_progress; ++i)
        requests.push_back(
            send(port, http::verb::post, "/extract", text_about(static_cast<int>(i))));
    const auto replies = run_all(client_io, std::move(requests));
    server_thread.join();
    EXPECT_TRUE(drained) << "the server did not stop within its limit";

    for (const auto& r : replies) {
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 200u) << r->body;
        EXPECT_FALSE(r->keep_alive);
        EXPECT_TRUE(forma::try_from_json<example::person>(r->body)) << r->body;
    }
    EXPECT_EQ(idle_closed, std::optional(true));
    EXPECT_EQ(server.requests_served(), in_progress);
}

/// The built example as a child process, its stdout on a pipe, killed if the test leaves early.
class child_process {
public:
    explicit child_process(std::vector<std::string> args) {
        int fds[2];
        if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
        posix_spawn_file_actions_addclose(&actions, fds[0]);
        posix_spawn_file_actions_addclose(&actions, fds[1]);
        std::vector<char*> argv{const_cast<char*>(ASIO_SERVER_BINARY)};
        for (auto& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        std::vector<char*> env; // without a key: the example uses its local model server
        for (char** e = environ; *e; ++e)
            if (!std::string_view(*e).starts_with("OPENAI_API_KEY=")) env.push_back(*e);
        env.push_back(nullptr);
        const int failed =
            posix_spawn(&pid_, ASIO_SERVER_BINARY, &actions, nullptr, argv.data(), env.data());
        posix_spawn_file_actions_destroy(&actions);
        ::close(fds[1]);
        out_ = fds[0];
        if (failed) throw std::runtime_error("cannot start " ASIO_SERVER_BINARY);
    }
    ~child_process() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        ::close(out_);
    }
    child_process(const child_process&) = delete;
    child_process& operator=(const child_process&) = delete;

    /// The next line of its stdout, or nullopt at its end or after `limit`.
    std::optional<std::string> read_line(std::chrono::milliseconds limit = 30s) {
        const auto end = std::chrono::steady_clock::now() + limit;
        for (;;) {
            if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
                std::string line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                return line;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                end - std::chrono::steady_clock::now());
            pollfd p{out_, POLLIN, 0};
            if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0)
                return std::nullopt;
            char chunk[256];
            const ssize_t n = ::read(out_, chunk, sizeof chunk);
            if (n <= 0) return std::nullopt;
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }

    void signal(int number) { ::kill(pid_, number); }

    /// Its exit status once it exits by itself, or nullopt after `limit`.
    std::optional<int> wait(std::chrono::milliseconds limit = 30s) {
        const auto end = std::chrono::steady_clock::now() + limit;
        while (std::chrono::steady_clock::now() < end) {
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
            std::this_thread::sleep_for(10ms);
        }
        return std::nullopt;
    }

private:
    pid_t pid_ = -1;
    int out_ = -1;
    std::string buffer_;
};

/// The port in "listening on http://127.0.0.1:PORT ...".
unsigned short port_of(child_process& server) {
    const std::optional<std::string> line = server.read_line();
    std::smatch m;
    if (!line ||
        !std::regex_search(*line, m, std::regex(R"(^listening on http://127\.0\.0\.1:(\d+))")))
        throw std::runtime_error("no 'listening on' line, got: " + line.value_or("(nothing)"));
    return static_cast<unsigned short>(std::stoi(m[1]));
}

// The program as a user runs it: its own local model server with schema-driven answers.
TEST(asio_server, program_serves_concurrent_clients_and_stops_on_sigterm) {
    child_process server({"--port", "0"});
    const unsigned short port = port_of(server);

    asio::io_context io;
    std::vector<asio::awaitable<reply>> requests;
    for (int i = 0; i < 16; ++i)
        requests.push_back(send(port, http::verb::post, "/extract", text_about(i)));
    requests.push_back(send(port, http::verb::post, "/extract", " \n"));
    const auto replies = run_all(io, std::move(requests));

    for (std::size_t i = 0; i < 16; ++i) {
        ASSERT_TRUE(replies[i]) << "request " << i;
        ASSERT_EQ(replies[i]->status, 200u) << replies[i]->body;
        EXPECT_TRUE(forma::try_from_json<example::person>(replies[i]->body)) << replies[i]->body;
    }
    expect_error(replies[16], 400, "bad_request");

    server.signal(SIGTERM);
    EXPECT_EQ(server.wait(), std::optional(0));
    EXPECT_EQ(server.read_line(5s), std::optional<std::string>("stopped after 17 requests"));
}

TEST(asio_server, program_stops_after_max_requests) {
    child_process server({"--port", "0", "--max-requests", "3"});
    const unsigned short port = port_of(server);

    asio::io_context io;
    std::vector<asio::awaitable<reply>> requests;
    for (int i = 0; i < 3; ++i)
        requests.push_back(send(port, http::verb::post, "/extract", text_about(i)));
    const auto replies = run_all(io, std::move(requests));
    for (const auto& r : replies) {
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 200u) << r->body;
    }
    EXPECT_EQ(server.wait(), std::optional(0));
    EXPECT_EQ(server.read_line(5s), std::optional<std::string>("stopped after 3 requests"));
}

TEST(asio_server, program_rejects_bad_arguments) {
    child_process server({"--port", "not-a-port"});
    EXPECT_EQ(server.wait(), std::optional(2));
}

} // namespace
