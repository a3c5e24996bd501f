// Memory under hostile clients, measured in the server's own process (a child, so that the
// client's buffers are not counted), with the servers' default limits and stores:
//   - the peak while a chunk-size line (with its extensions) and a trailer never end;
//   - a flood of A2A tasks left waiting for an answer, past the task store's max_tasks: new work
//     is still taken, the first of them reads as expired, and the heap stays within the stores'
//     limits;
//   - what each stored request keeps: 1 MiB requests to A2A, Responses and AG-UI that end stored
//     (completed, or waiting for an answer), the heap's growth per request over its body: its
//     words twice at most (the task's input and the session), and the stores' bookkeeping.
// Prints each figure; the last line is "every peak within its bound" (the CTest's pass), or the
// figure past its bound (exit 1).
#include "process_memory.hpp"

#include <forma/a2a/server.hpp>
#include <forma/agent/chat_client_agent.hpp>
#include <forma/agent/in_memory_session_store.hpp>
#include <forma/agent/in_memory_task_store.hpp>
#include <forma/chat/make_tool.hpp>
#include <forma/net/http_server.hpp>
#include <forma/serving/ag_ui_endpoint.hpp>
#include <forma/serving/openai_endpoints.hpp>

#include "support/rule_model.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/describe/class.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
namespace json = boost::json;
using tcp = asio::ip::tcp;

struct file_to_delete {
    std::string path;
};
BOOST_DESCRIBE_STRUCT(file_to_delete, (), (path))

// The server: every protocol with its default stores, and GET /memory (this process's heap and RSS).
[[noreturn]] void serve(int ready_fd) {
    asio::io_context io;
    forma_test::rule_model model(io.get_executor());
    forma::chat_client_agent agent(model, {.name = "hostile",
                                           .tools = {forma::make_tool("delete_file", "Deletes a file", [](const file_to_delete&) { return std::string("deleted"); },
                                                                      forma::function_tool_options{.requires_approval = true})}});
    // One task store and one session store for the three, with their defaults (as serve_agent shares them).
    auto tasks = std::make_shared<forma::in_memory_task_store>(io.get_executor());
    auto sessions = std::make_shared<forma::in_memory_session_store>(io.get_executor());
    forma::a2a::server a2a(agent, {.tasks = tasks, .sessions = sessions});
    forma::serving::openai_endpoints openai(agent, {.tasks = tasks, .sessions = sessions});
    forma::serving::ag_ui_endpoint ag_ui(agent, {.tasks = tasks, .sessions = sessions});
    forma::net::http_routes routes = a2a.routes();
    routes.add_all(openai.routes()).add_all(ag_ui.routes());
    routes.add("GET", "/memory", [&](forma::net::server_request&, forma::net::response_writer& w) -> asio::awaitable<void> {
        const json::object memory{{"heap", load::heap_in_use()}, {"rss_kib", load::rss_kib()}, {"peak_rss_kib", load::peak_rss_kib()},
                                  {"tasks", tasks->size()}, {"task_bytes", tasks->bytes()}, {"sessions", sessions->size()}};
        forma::net::http_reply reply{.body = json::serialize(memory)};
        co_await w.send(std::move(reply));
    });
    forma::net::http_server server(io.get_executor(), routes);
    server.listen({});
    const unsigned short port = server.port();
    if (write(ready_fd, &port, sizeof port) != sizeof port) std::_Exit(3);
    asio::co_spawn(io, server.run(), asio::detached);
    io.run();
    std::_Exit(0);
}

// A blocking client of the child.
class client {
public:
    explicit client(unsigned short port) : port_(port) {}

    http::response<http::string_body> exchange(const std::string& request) {
        tcp::socket socket(io_);
        socket.connect({asio::ip::make_address("127.0.0.1"), port_});
        asio::write(socket, asio::buffer(request));
        boost::beast::flat_buffer buffer;
        http::response_parser<http::string_body> parser;
        parser.body_limit(64 * 1024 * 1024);
        http::read(socket, buffer, parser);
        return parser.release();
    }

    json::value post(const std::string& path, const std::string& body) {
        return json::parse(exchange("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: " +
                                    std::to_string(body.size()) + "\r\n\r\n" + body)
                               .body());
    }

    json::object memory() { return json::parse(exchange("GET /memory HTTP/1.1\r\nHost: localhost\r\n\r\n").body()).as_object(); }
    std::int64_t heap() { return memory().at("heap").to_number<std::int64_t>(); }
    std::int64_t peak_rss_kib() { return memory().at("peak_rss_kib").to_number<std::int64_t>(); }

    /// Sends `head`, then `filler` until the server closes the connection (or `limit` bytes).
    std::size_t flood(const std::string& head, std::size_t limit) {
        tcp::socket socket(io_);
        socket.connect({asio::ip::make_address("127.0.0.1"), port_});
        asio::write(socket, asio::buffer(head));
        const std::string filler(64 * 1024, 'a');
        std::size_t sent = 0;
        boost::system::error_code ec;
        while (sent < limit && !ec) sent += asio::write(socket, asio::buffer(filler), ec);
        return sent;
    }

private:
    asio::io_context io_;
    unsigned short port_;
};

std::string a2a_send(const std::string& text, std::string_view method = "message/send") {
    const json::object message{{"kind", "message"}, {"messageId", "m"}, {"role", "user"}, {"parts", json::array{{{"kind", "text"}, {"text", text}}}}};
    return json::serialize(json::object{{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", {{"message", message}}}});
}

bool within = true;

void report(const char* what, double figure, double bound, const char* unit) {
    std::printf("%-62s %8.3f %-4s (bound %.3f)\n", what, figure, unit, bound);
    if (figure > bound) {
        std::printf("past its bound: %s\n", what);
        within = false;
    }
}

// What a stored request may keep: its words twice (the task's input and the session's
// conversation), and the stores' bookkeeping.
constexpr double bookkeeping = 64 * 1024;

// The heap's growth per stored request of `body_size` bytes, over `requests` of them, reported
// against two copies of the body and the bookkeeping.
template <class Send>
void report_kept(const char* what, client& c, int requests, std::size_t body_size, Send send) {
    const std::int64_t before = c.heap();
    for (int i = 0; i < requests; ++i) send(i);
    const std::int64_t after = c.heap();
    const double body = static_cast<double>(body_size);
    report(what, static_cast<double>(after - before) / requests / body, 2.0 + bookkeeping / body, "x");
}

// A server in a child process, killed with this object.
class child_server {
public:
    child_server() {
        int ready[2];
        if (pipe(ready) != 0) std::exit(2);
        pid_ = fork();
        if (pid_ == 0) {
            close(ready[0]);
            serve(ready[1]);
        }
        close(ready[1]);
        if (read(ready[0], &port_, sizeof port_) != sizeof port_) std::exit(2);
        close(ready[0]);
    }
    ~child_server() {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    unsigned short port() const { return port_; }

private:
    pid_t pid_ = -1;
    unsigned short port_ = 0;
};

// Lines that never end, and tasks left waiting past the store's limit.
void floods(client& c) {
    // Lines that never end: the peak RSS they add.
    const std::string chunked = "POST /a2a HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    {
        const std::int64_t before = c.peak_rss_kib();
        const std::size_t sent = c.flood(chunked + "1;ext=", 256 * 1024 * 1024);
        const std::int64_t after = c.peak_rss_kib();
        std::printf("(a chunk-size line of %zu bytes sent)\n", sent);
        report("a chunk-size line that never ends: peak RSS added", static_cast<double>(after - before) / 1024, 8, "MiB");
    }
    {
        const std::int64_t before = c.peak_rss_kib();
        const std::size_t sent = c.flood(chunked + "2\r\nok\r\n0\r\nX-Trailer: ", 256 * 1024 * 1024);
        const std::int64_t after = c.peak_rss_kib();
        std::printf("(a trailer of %zu bytes sent)\n", sent);
        report("a trailer that never ends: peak RSS added", static_cast<double>(after - before) / 1024, 8, "MiB");
    }

    // Tasks left waiting for an answer, past max_tasks (10,000).
    {
        const std::int64_t before = c.heap();
        constexpr int waiting = 12'000;
        std::string first;
        for (int i = 0; i < waiting; ++i) {
            const json::value asked = c.post("/a2a", a2a_send("delete notes-" + std::to_string(i) + ".txt"));
            if (i == 0) first = std::string(asked.at("result").at("id").as_string());
        }
        const std::int64_t after = c.heap();
        const json::value got = c.post("/a2a", R"({"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"id":")" + first + R"("}})");
        const json::value fresh = c.post("/a2a", a2a_send("hello after the flood"));
        const json::object& status = got.at("result").at("status").as_object();
        const std::string first_state(status.at("state").as_string());
        const std::string why = status.contains("message") ? std::string(status.at("message").at("parts").at(0).at("text").as_string()) : "";
        std::printf("(the first waiting task now: %s, \"%s\")\n", first_state.c_str(), why.c_str());
        report("12,000 waiting A2A tasks: the first is not expired (0 or 1)", first_state == "failed" && why.starts_with("expired:") ? 0 : 1, 0, "");
        report("12,000 waiting A2A tasks: new work refused (0 or 1)", fresh.as_object().contains("result") ? 0 : 1, 0, "");
        report("12,000 waiting A2A tasks: heap added", static_cast<double>(after - before) / (1024 * 1024), 512, "MiB");
    }
}

// What each stored request keeps, on a server of its own (the floods' tasks would give way to it).
void stored_requests(client& c) {
    constexpr int requests = 16;
    const std::string megabyte(1024 * 1024, 'k');
    // What one stored request keeps, per byte of its body.
    {
        const std::string body = a2a_send("keep " + megabyte);
        report_kept("A2A message/send of 1 MiB, completed: kept per body byte", c, requests, body.size(),
                    [&](int) { (void)c.post("/a2a", body); });
    }
    {
        const std::string body = json::serialize(json::object{{"model", "m"}, {"input", "keep " + megabyte}});
        report_kept("Responses of 1 MiB, stored: kept per body byte", c, requests, body.size(),
                    [&](int) { (void)c.post("/v1/responses", body); });
    }
    {
        const std::string body = json::serialize(json::object{
            {"threadId", "t"}, {"runId", "r"}, {"messages", json::array{{{"id", "m"}, {"role", "user"}, {"content", "ask " + megabyte}}}}});
        report_kept("AG-UI run of 1 MiB, waiting for an answer: kept per body byte", c, requests, body.size(), [&](int) {
            (void)c.exchange("POST /ag-ui HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: " +
                             std::to_string(body.size()) + "\r\n\r\n" + body);
        });
    }
}

} // namespace

int main() {
    {
        child_server flooded;
        client c(flooded.port());
        floods(c);
    }
    child_server fresh;
    client c(fresh.port());
    stored_requests(c);
    std::printf(within ? "every peak within its bound\n" : "a figure past its bound\n");
    return within ? 0 : 1;
}
