// forma::net::http_server against a server written as Beast's http_server_async example is
// (read a request, write the response, loop), in the same binary and run, over loopback on one
// io_context thread:
//   requests/<server>   one kept-alive connection, one small GET after another;
//   agent_request       an agent that answers at once, through /v1/chat/completions (serving::openai_endpoints);
//   many_connections/<route>  64 kept-alive connections at once against a server on its own
//                       thread (as wrk loads one): a small GET against that agent's chat completion;
//   a2a_stream/<version>  an answer streamed in 50 pieces through a2a::server, in A2A 1.0 and 0.3 shapes;
//   open_streams/<server>  N connections each holding an open event stream: the heap bytes
//                       (mallinfo2) per stream, clients included (the same raw client for both).
#include <forma/net/http_server.hpp>
#include <forma/serving/openai_endpoints.hpp>
#include <forma/a2a/server.hpp>
#include <forma/agent/agent.hpp>
#include <forma/error.hpp>

#include <benchmark/benchmark.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <malloc.h>
#include <pthread.h>
#include <sys/resource.h>
#include <time.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr std::string_view ping = "GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n";
constexpr std::string_view stream_request = "GET /stream HTTP/1.1\r\nHost: localhost\r\n\r\n";

void raise_file_limit() {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

// ---- the baseline: Beast's http_server_async, as a coroutine ----------------------------

asio::awaitable<void> beast_session(tcp::socket socket, std::shared_ptr<asio::steady_timer> hold) {
    beast::flat_buffer buffer;
    for (;;) {
        http::request<http::string_body> request;
        auto [ec, n] = co_await http::async_read(socket, buffer, request, asio::as_tuple(asio::use_awaitable));
        if (ec) co_return;
        if (request.target() == "/stream") {
            http::response<http::empty_body> head{http::status::ok, 11};
            head.set(http::field::content_type, "text/event-stream");
            head.chunked(true);
            http::response_serializer<http::empty_body> serializer(head);
            co_await http::async_write_header(socket, serializer, asio::as_tuple(asio::use_awaitable));
            static constexpr std::string_view first = "9\r\ndata: x\n\n\r\n";
            co_await asio::async_write(socket, asio::buffer(first.data(), first.size()), asio::as_tuple(asio::use_awaitable));
            co_await hold->async_wait(asio::as_tuple(asio::use_awaitable));
            co_return;
        }
        http::response<http::string_body> response{http::status::ok, request.version()};
        response.set(http::field::content_type, "text/plain");
        response.body() = "pong";
        response.keep_alive(request.keep_alive());
        response.prepare_payload();
        auto [write_error, m] = co_await http::async_write(socket, response, asio::as_tuple(asio::use_awaitable));
        if (write_error) co_return;
    }
}

struct beast_server {
    beast_server(asio::io_context& io, std::shared_ptr<asio::steady_timer> hold)
        : acceptor(io, {asio::ip::make_address("127.0.0.1"), 0}) {
        asio::co_spawn(io, [this, hold]() -> asio::awaitable<void> {
            for (;;) {
                auto [ec, socket] = co_await acceptor.async_accept(asio::as_tuple(asio::use_awaitable));
                if (ec) co_return;
                asio::co_spawn(acceptor.get_executor(), beast_session(std::move(socket), hold), asio::detached);
            }
        }, asio::detached);
    }
    unsigned short port() const { return acceptor.local_endpoint().port(); }
    void stop() { acceptor.close(); }
    tcp::acceptor acceptor;
};

// ---- forma's server ------------------------------------------------------------------------

struct forma_server {
    forma_server(asio::io_context& io, std::shared_ptr<asio::steady_timer> hold) : server(io.get_executor(), routes(hold)) {
        server.listen({});
        asio::co_spawn(io, server.run(), asio::detached);
    }
    static forma::net::http_routes routes(std::shared_ptr<asio::steady_timer> hold) {
        forma::net::http_routes r;
        r.add("GET", "/ping", [](forma::net::server_request&, forma::net::response_writer& w) -> asio::awaitable<void> {
            forma::net::http_reply pong{.content_type = "text/plain", .body = "pong"};
            co_await w.send(std::move(pong));
        });
        r.add("GET", "/stream", [hold](forma::net::server_request&, forma::net::response_writer& w) -> asio::awaitable<void> {
            forma::net::http_reply head{.content_type = "text/event-stream"};
            co_await w.start(std::move(head));
            co_await w.write("data: x\n\n");
            co_await hold->async_wait(asio::as_tuple(asio::use_awaitable));
        });
        return r;
    }
    unsigned short port() const { return server.port(); }
    void stop() { server.stop(); }
    forma::net::http_server server;
};

// One connection, requests one after another; the response read with Beast's parser.
// `must_hold`: text every response must contain (nothing lost), when not empty.
asio::awaitable<void> request_loop(unsigned short port, std::string_view request, benchmark::State& state, std::string_view must_hold) {
    tcp::socket socket(co_await asio::this_coro::executor);
    const tcp::endpoint server_endpoint(asio::ip::make_address("127.0.0.1"), port);
    co_await socket.async_connect(server_endpoint, asio::use_awaitable);
    beast::flat_buffer buffer;
    for (auto _ : state) {
        co_await asio::async_write(socket, asio::buffer(request.data(), request.size()), asio::use_awaitable);
        http::response<http::string_body> response;
        co_await http::async_read(socket, buffer, response, asio::use_awaitable);
        if (response.result_int() != 200) {
            state.SkipWithError("a request failed");
            break;
        }
        if (!must_hold.empty() && response.body().find(must_hold) == std::string::npos) {
            state.SkipWithError("an answer was incomplete");
            break;
        }
        benchmark::DoNotOptimize(response.body());
    }
}

template <class Server>
void run_requests(benchmark::State& state, std::string_view request, std::string_view must_hold = {}) {
    asio::io_context io;
    auto hold = std::make_shared<asio::steady_timer>(io, asio::steady_timer::time_point::max());
    Server server(io, hold);
    bool done = false;
    asio::co_spawn(io, request_loop(server.port(), request, state, must_hold), [&](std::exception_ptr e) {
        done = true;
        if (e) state.SkipWithError("the client failed");
        server.stop();
        io.stop();
    });
    io.run();
    if (!done) state.SkipWithError("the loop did not end");
    state.SetItemsProcessed(state.iterations());
}

void requests_forma(benchmark::State& state) { run_requests<forma_server>(state, ping); }
void requests_beast(benchmark::State& state) { run_requests<beast_server>(state, ping); }

// An agent that answers at once, in `Pieces` pieces of 17 bytes ("piece number 100 ", ...): whole,
// or streamed one piece per update, as a model's deltas come.
template <std::size_t Pieces>
class answering_agent final : public forma::agent {
public:
    explicit answering_agent(asio::any_io_executor ex) : executor_(ex) {}
    executor_type get_executor() const override { return executor_; }
    std::string_view id() const noexcept override { return "answering"; }
    std::string_view name() const noexcept override { return "answering"; }
    std::string_view description() const noexcept override { return ""; }

protected:
    asio::awaitable<forma::agent_response<>> run_core(forma::agent_run) override { co_return forma::to_agent_response(pieces()); }
    forma::update_stream run_streaming_core(forma::agent_run) override { return forma::make_update_stream(executor_, pieces()); }

private:
    static std::vector<forma::agent_response_update> pieces() {
        std::vector<forma::agent_response_update> out(Pieces);
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i].role = forma::chat_role::assistant();
            out[i].contents.emplace_back(forma::text_content("piece number " + std::to_string(100 + i) + " "));
        }
        return out;
    }
    asio::any_io_executor executor_;
};

// That agent behind a protocol's routes (serving::openai_endpoints, a2a::server).
template <class Endpoints, std::size_t Pieces>
struct agent_server {
    agent_server(asio::io_context& io, std::shared_ptr<asio::steady_timer>)
        : agent(io.get_executor()), endpoints(agent), server(io.get_executor(), endpoints.routes()) {
        server.listen({});
        asio::co_spawn(io, server.run(), asio::detached);
    }
    unsigned short port() const { return server.port(); }
    void stop() { server.stop(); }
    answering_agent<Pieces> agent;
    Endpoints endpoints;
    forma::net::http_server server;
};

const std::string& chat_request();

void agent_request(benchmark::State& state) { run_requests<agent_server<forma::serving::openai_endpoints, 1>>(state, chat_request()); }

using a2a_server = agent_server<forma::a2a::server, 50>;

std::string a2a_post(std::string_view version_header, const std::string& body) {
    return "POST /a2a HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" + std::string(version_header) +
           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// The same request as a 1.0 client and as a 0.3 client send it; the answer read whole (its SSE to the end).
void a2a_stream_1_0(benchmark::State& state) {
    static const std::string request = a2a_post(
        "A2A-Version: 1.0\r\n",
        R"({"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"go"}]}}})");
    run_requests<a2a_server>(state, request, "piece number 149");
}
void a2a_stream_0_3(benchmark::State& state) {
    static const std::string request = a2a_post(
        "", R"({"jsonrpc":"2.0","id":1,"method":"message/stream","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"go"}]}}})");
    run_requests<a2a_server>(state, request, "piece number 149");
}

// ---- many connections at once, as wrk loads a server ----------------------------------------

/** One server on a thread of its own, serving a small GET (/ping) and a trivial agent's chat
    completion (/v1/chat/completions) side by side; the clients on the benchmark's thread. Each
    iteration, every one of `connections` kept-alive connections sends one request and reads
    its answer: the server's thread is the bottleneck, as under wrk, and requests/s is its rate.
*/
class loaded_server {
public:
    loaded_server() : agent_(io_.get_executor()), endpoints_(agent_), server_(io_.get_executor(), routes()) {
        server_.listen({});
        asio::co_spawn(io_, server_.run(), asio::detached);
        thread_ = std::thread([this] { io_.run(); });
    }
    ~loaded_server() {
        asio::post(io_, [this] { server_.stop(); });
        thread_.join();
    }
    unsigned short port() const { return server_.port(); }
    /// CPU time the server's thread has used.
    std::chrono::nanoseconds cpu_time() {
        clockid_t clock;
        timespec used{};
        if (pthread_getcpuclockid(thread_.native_handle(), &clock) != 0 || clock_gettime(clock, &used) != 0) return {};
        return std::chrono::seconds(used.tv_sec) + std::chrono::nanoseconds(used.tv_nsec);
    }

private:
    forma::net::http_routes routes() {
        forma::net::http_routes r = endpoints_.routes();
        r.add("GET", "/ping", [](forma::net::server_request&, forma::net::response_writer& w) -> asio::awaitable<void> {
            forma::net::http_reply pong{.content_type = "text/plain", .body = "pong"};
            co_await w.send(std::move(pong));
        });
        return r;
    }

    asio::io_context io_;
    answering_agent<1> agent_;
    forma::serving::openai_endpoints endpoints_;
    forma::net::http_server server_;
    std::thread thread_;
};

void many_connections(benchmark::State& state, std::string_view request, std::string_view must_hold) {
    loaded_server server;
    asio::io_context io;
    const int connections = static_cast<int>(state.range(0));
    std::vector<tcp::socket> sockets;
    std::vector<beast::flat_buffer> buffers(connections);
    for (int i = 0; i < connections; ++i) {
        sockets.emplace_back(io);
        sockets.back().connect({asio::ip::make_address("127.0.0.1"), server.port()});
        sockets.back().set_option(tcp::no_delay(true));
    }
    bool failed = false;
    const auto one_request = [&](int i) -> asio::awaitable<void> {
        co_await asio::async_write(sockets[i], asio::buffer(request.data(), request.size()), asio::use_awaitable);
        http::response<http::string_body> response;
        co_await http::async_read(sockets[i], buffers[i], response, asio::use_awaitable);
        if (response.result_int() != 200 || response.body().find(must_hold) == std::string::npos) failed = true;
    };
    const auto every_connection_once = [&] {
        for (int i = 0; i < connections; ++i) asio::co_spawn(io, one_request(i), asio::detached);
        io.restart();
        io.run();
    };
    every_connection_once(); // untimed: the server has accepted every connection
    const auto cpu_before = server.cpu_time();
    for (auto _ : state) {
        every_connection_once();
        if (failed) {
            state.SkipWithError("an answer was wrong");
            break;
        }
    }
    state.SetItemsProcessed(state.iterations() * connections);
    // The server's own cost per request, apart from the clients' and from waits on the loopback.
    const auto server_cpu = std::chrono::duration<double, std::micro>(server.cpu_time() - cpu_before);
    state.counters["server_cpu_us_per_request"] = server_cpu.count() / static_cast<double>(state.iterations() * connections);
}

const std::string& chat_request() {
    static const std::string body = R"({"model":"bench","messages":[{"role":"user","content":"ping"}]})";
    static const std::string request = "POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: " +
                                       std::to_string(body.size()) + "\r\n\r\n" + body;
    return request;
}

void many_pings(benchmark::State& state) { many_connections(state, ping, "pong"); }
void many_chat_completions(benchmark::State& state) { many_connections(state, chat_request(), "piece number 100"); }

// N clients, each with an open stream (its first event read); the heap bytes per stream.
template <class Server>
void open_streams(benchmark::State& state) {
    raise_file_limit();
    const int streams = static_cast<int>(state.range(0));
    for (auto _ : state) {
        asio::io_context io;
        auto hold = std::make_shared<asio::steady_timer>(io, asio::steady_timer::time_point::max());
        Server server(io, hold);
        const std::size_t before = mallinfo2().uordblks;
        std::vector<std::unique_ptr<tcp::socket>> clients;
        int open = 0;
        std::size_t during = 0;
        for (int i = 0; i < streams; ++i) {
            auto socket = std::make_unique<tcp::socket>(io);
            asio::co_spawn(io, [&, s = socket.get()]() -> asio::awaitable<void> {
                const tcp::endpoint server_endpoint(asio::ip::make_address("127.0.0.1"), server.port());
                co_await s->async_connect(server_endpoint, asio::use_awaitable);
                co_await asio::async_write(*s, asio::buffer(stream_request.data(), stream_request.size()), asio::use_awaitable);
                std::string head;
                co_await asio::async_read_until(*s, asio::dynamic_buffer(head), "data: x", asio::use_awaitable);
                if (++open == streams) {
                    during = mallinfo2().uordblks;
                    io.stop(); // measured: the rest is torn down with the io_context
                }
            }, asio::detached);
            clients.push_back(std::move(socket));
        }
        io.run_for(std::chrono::seconds(60));
        server.stop();
        if (open != streams) {
            state.SkipWithError("not every stream opened");
            return;
        }
        state.counters["bytes_per_stream"] = static_cast<double>(during - before) / streams;
    }
}

} // namespace

BENCHMARK(requests_forma)->Name("requests/forma")->UseRealTime();
BENCHMARK(requests_beast)->Name("requests/beast_async")->UseRealTime();
BENCHMARK(agent_request)->Name("agent_request/forma")->UseRealTime();
BENCHMARK(many_pings)->Name("many_connections/ping")->Arg(64)->UseRealTime();
BENCHMARK(many_chat_completions)->Name("many_connections/chat_completion")->Arg(64)->UseRealTime();
BENCHMARK(a2a_stream_1_0)->Name("a2a_stream/1.0")->UseRealTime();
BENCHMARK(a2a_stream_0_3)->Name("a2a_stream/0.3")->UseRealTime();
BENCHMARK_TEMPLATE(open_streams, forma_server)->Name("open_streams/forma")->Arg(1000)->Iterations(1)->UseRealTime();
BENCHMARK_TEMPLATE(open_streams, beast_server)->Name("open_streams/beast_async")->Arg(1000)->Iterations(1)->UseRealTime();

BENCHMARK_MAIN();
