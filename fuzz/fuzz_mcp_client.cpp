// forma::mcp::client over Streamable HTTP, reading what a server answers: the initialize result,
// tools/list pages, a tools/call result (content, structuredContent, isError), each as JSON or
// as an event stream, with the request's id or another. The records answer, in order,
// initialize, tools/list (each page) and tools/call; notifications get 202. Oracle: only typed
// errors (mcp_error, forma::error) escape, each a readable sentence; a listed tool becomes a
// function_tool (mcp::tools) or a typed error.
#include "fuzz_clients.hpp"

#include <forma/mcp/client.hpp>
#include <forma/mcp/http_transport.hpp>
#include <forma/mcp/tools.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t config = data[0];
    const bool as_events = config & 1;
    const bool keep_ids = config & 2; // else every answer carries its request's id
    std::vector<std::string> answers = forma_fuzz::answer_records({reinterpret_cast<const char*>(data) + 1, size - 1});
    std::size_t next = 0;
    boost::asio::io_context io;
    forma_test::scripted_http_server server(io, [&](const forma_test::scripted_http_server::request& r) -> forma_test::scripted_http_server::reply {
        if (r.method == "DELETE") return forma_test::scripted_http_server::response(200, "application/json", "");
        const std::string method = forma_fuzz::request_method(r.body);
        if (method.starts_with("notifications/")) return forma_test::scripted_http_server::response(202, "application/json", "");
        if (next >= answers.size()) return {}; // nothing more to say: the connection drops
        std::string body = answers[next++];
        if (!keep_ids) body = forma_fuzz::replaced(std::move(body), "$ID", forma_fuzz::request_id(r.body));
        std::string reply = forma_fuzz::answer_with(body, as_events);
        if (method == "initialize") reply.insert(reply.find("\r\n") + 2, "Mcp-Session-Id: s-1\r\n");
        return reply;
    });
    // Short waits: an answer that never comes (one with another request's id, say) ends by them.
    using std::chrono::milliseconds;
    forma::mcp::http_server endpoint{.url = server.url("/mcp"), .timeouts = {.connect = milliseconds(300), .idle = milliseconds(300)}, .listen = false};
    forma::mcp::client client(io.get_executor(), forma::mcp::make_http_transport(io.get_executor(), endpoint),
                              {.request_timeout = milliseconds(100), .connect_timeout = milliseconds(300)});
    bool done = false;
    boost::asio::co_spawn(io, [&]() -> boost::asio::awaitable<void> {
        try {
            co_await client.connect();
            const std::vector<forma::function_tool> tools = co_await forma::mcp::tools(client);
            const std::string name = tools.empty() ? std::string("absent") : tools.front().name();
            const forma::mcp::call_result result = co_await client.call_tool(name, {{"text", "hello"}});
            (void)result;
        } catch (...) {
            forma_fuzz::check_thrown(std::current_exception());
        }
        co_await client.close();
        done = true;
    }, boost::asio::detached);
    while (!done) io.run_one();
    return 0;
}
