// A server that answers before it has read the whole request and closes (a 413 for a body too
// large): the client reads that answer instead of repeating the request as if nothing arrived.
#include "loopback.hpp"

#include <forma/net/http_error.hpp>
#include <forma/net/transport_error.hpp>

#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// Plain HTTP on loopback: reads each request's head only, answers `reply` and closes with the
// body unread (so the kernel resets the connection under the client's write).
class early_answering_server {
public:
    early_answering_server(asio::io_context& io, std::string reply) : acceptor_(io), reply_(std::move(reply)) {
        // A small receive window (inherited by accepted sockets): the request never fits in the
        // kernel's buffers, so the client's write always fails, whatever the machine's settings.
        const tcp::endpoint loopback(asio::ip::make_address("127.0.0.1"), 0);
        acceptor_.open(loopback.protocol());
        acceptor_.set_option(asio::socket_base::receive_buffer_size(16 * 1024));
        acceptor_.bind(loopback);
        acceptor_.listen();
        asio::co_spawn(io, serve(), asio::detached);
    }
    std::string base_url() const { return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + "/v1"; }
    int connections = 0;

private:
    asio::awaitable<void> serve() {
        for (;;) {
            tcp::socket socket = co_await acceptor_.async_accept(asio::use_awaitable);
            ++connections;
            std::string head;
            co_await asio::async_read_until(socket, asio::dynamic_buffer(head), "\r\n\r\n", asio::use_awaitable);
            co_await asio::async_write(socket, asio::buffer(reply_), asio::use_awaitable);
            socket.close();
        }
    }
    tcp::acceptor acceptor_;
    std::string reply_;
};

class early_answer : public loopback::fixture {
protected:
    // A request far larger than the socket buffers: the client is still writing when the reply comes.
    template <class Error>
    Error send_large_request(early_answering_server& server) {
        forma::openai::client_options options{.base_url = server.base_url(), .model = "m"};
        options.retry.initial_backoff = std::chrono::milliseconds(1);
        forma::openai::chat_client client(io.get_executor(), options);
        std::vector<forma::chat_message> messages{forma::chat_message(forma::chat_role::user(), std::string(8 << 20, 'x'))};
        try {
            (void)run(client.get_response(messages, {}));
        } catch (const Error& e) {
            return e;
        }
        ADD_FAILURE() << "no error of the expected type";
        throw std::logic_error("no error");
    }
};

TEST_F(early_answer, an_answer_sent_before_the_body_was_read_is_the_result_not_a_retry) {
    const std::string body = R"({"error":{"message":"Request too large.","type":"invalid_request_error"}})";
    early_answering_server server(io, "HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\n"
                                      "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
    const auto e = send_large_request<forma::http_error>(server);
    EXPECT_EQ(e.status(), 413);
    EXPECT_EQ(server.connections, 1);
}

TEST_F(early_answer, a_status_line_alone_ends_the_request_and_is_not_repeated) {
    early_answering_server server(io, "HTTP/1.1 200 OK\r\n");
    const auto e = send_large_request<forma::transport_error>(server);
    EXPECT_FALSE(e.before_response()) << e.what();
    EXPECT_EQ(server.connections, 1);
}

} // namespace
