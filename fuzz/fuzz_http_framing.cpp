// The HTTP/1.1 framing of http_server's connections, from the bytes a client sends: request
// heads, bodies by Content-Length and chunked (sizes, extensions, trailers), pipelined requests,
// HEAD, absolute-form targets, Expect: 100-continue, the input cut into reads of 1 to 64 bytes or
// read whole (the config byte). The connection (lib/net/server_connection.hpp, the code
// http_server runs for each accepted socket) reads from an in-memory stream. Oracles:
//   - what the server wrote is a sequence of whole HTTP/1.1 responses, one per request head it
//     read (and one more for a head it refused), a HEAD's with no body;
//   - no request reaches a route with a body past max_body_size;
//   - a JSON answer parses (valid UTF-8 whatever bytes came);
//   - no input makes the server hold much more than its limits allow (the heap's peak during
//     the input, watched at every allocation).
#include "fuzz_support.hpp"

#include "json/json_text.hpp"
#include "net/server_connection.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <sanitizer/allocator_interface.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

constexpr std::size_t max_header_size = 1024;
constexpr std::size_t max_body_size = 2048;
// What one input may add to the heap at its peak: the read buffer, a body, the parsers, the
// answers, the coroutine frames; far less than this unless something grows with what is sent.
constexpr std::size_t heap_allowance = 1024 * 1024;

std::size_t heap_peak = 0;
bool watching = false;

void on_malloc(const volatile void*, std::size_t) {
    if (!watching) return;
    heap_peak = std::max(heap_peak, __sanitizer_get_current_allocated_bytes());
}
void on_free(const volatile void*) {}

struct handled {
    std::string method;
    std::size_t body_size;
};

forma::net::http_routes echo_routes(std::vector<handled>& seen) {
    forma::net::http_routes routes;
    auto echo = [&seen](forma::net::server_request& r, forma::net::response_writer& w) -> asio::awaitable<void> {
        seen.push_back({r.method, r.body.size()});
        const boost::json::object said{{"method", forma::json_detail::valid_utf8(r.method)}, {"path", forma::json_detail::valid_utf8(r.path)},
                                       {"bytes", r.body.size()}};
        forma::net::http_reply reply{.body = boost::json::serialize(said)};
        co_await w.send(std::move(reply));
    };
    auto stream = [&seen](forma::net::server_request& r, forma::net::response_writer& w) -> asio::awaitable<void> {
        seen.push_back({r.method, r.body.size()});
        forma::net::http_reply head{.content_type = "text/event-stream"};
        co_await w.start(std::move(head));
        co_await w.write("data: {\"n\":1}\n\n");
        co_await w.write("data: {\"n\":2}\n\n");
        co_await w.finish();
    };
    routes.add("*", "/echo", echo).add("GET", "/stream", stream).add("POST", "/items/*", echo);
    return routes;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    __sanitizer_install_malloc_and_free_hooks(&on_malloc, &on_free);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t config = data[0];
    const std::string_view sent(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::vector<handled> seen;
    std::vector<std::string> heads; // the method of each request head the server read
    std::string written;
    {
        asio::io_context io;
        const forma::net::http_routes routes = echo_routes(seen);
        forma::net::server_options options{.max_header_size = max_header_size, .max_body_size = max_body_size};
        options.authenticate = [&heads](const forma::net::server_request& head) -> forma::net::authentication {
            heads.push_back(head.method);
            return std::nullopt;
        };
        beast::test::stream server_side(io), client(io);
        server_side.connect(client);
        if (config & 0x40) server_side.read_size(1 + config % 64);
        asio::ip::tcp::socket socket(io);
        socket.open(asio::ip::tcp::v4());
        auto connection = std::make_shared<forma::net::detail::server_connection>(std::move(socket));
        forma::net::detail::server_counters counters;
        const bool stopping = false;
        bool done = false;
        heap_peak = 0;
        const std::size_t heap_before = __sanitizer_get_current_allocated_bytes();
        watching = true;
        asio::co_spawn(io, connection->serve_requests(server_side, routes, options, counters, stopping), [&](std::exception_ptr) { done = true; });
        server_side.append(sent);
        io.poll(); // the server reads all it was sent, and waits for more
        server_side.close_remote();
        io.run();
        watching = false;
        forma_fuzz::check(done, "the connection did not end when its client did");
        forma_fuzz::check(heap_peak <= heap_before + heap_allowance, "one connection held far more memory than its limits allow");
        written = std::string(client.str());
    }
    for (const handled& h : seen) forma_fuzz::check(h.body_size <= max_body_size, "a route got a body past max_body_size");

    // Every byte written is part of a whole response.
    beast::flat_buffer buffer;
    buffer.commit(asio::buffer_copy(buffer.prepare(written.size()), asio::buffer(written)));
    std::size_t responses = 0;
    while (buffer.size() > 0) {
        http::response_parser<http::string_body> parser;
        parser.eager(true);
        parser.body_limit(64 * 1024);
        if (responses < heads.size() && heads[responses] == "HEAD") parser.skip(true);
        boost::system::error_code ec;
        while (!parser.is_done()) {
            const std::size_t used = parser.put(buffer.data(), ec);
            buffer.consume(used);
            if (ec != http::error::need_more) break;
            ec = {};
            if (used == 0) {
                parser.put_eof(ec); // a body to the end of the connection, or a cut response
                break;
            }
        }
        forma_fuzz::check(!ec && parser.is_done(), "the server wrote something that is not a whole HTTP response");
        ++responses;
        const auto& response = parser.get();
        if (response[http::field::content_type].starts_with("application/json") && !response.body().empty()) {
            boost::system::error_code json_ec;
            (void)boost::json::parse(response.body(), json_ec);
            forma_fuzz::check(!json_ec, "a JSON answer does not parse");
        }
        if (response.result_int() == 100) --responses; // Expect: 100-continue
    }
    forma_fuzz::check(responses <= heads.size() + 1, "more responses than requests");
    return 0;
}
