// forma::anthropic alone: the request run<T> would send, and a call of the client's get_response
// (to a port where nothing listens: its transport error).
#include <forma/json.hpp>
#include <forma/net/transport_error.hpp>
#include <forma/anthropic/messages_client.hpp>
#include <forma/anthropic/request_builder.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp>

#include <iostream>
#include <vector>

struct point {
    int x = 0;
    int y = 0;
};
BOOST_DESCRIBE_STRUCT(point, (), (x, y))

int main() {
    boost::asio::io_context io;
    forma::anthropic::messages_client client(io.get_executor(),
                                             {.base_url = "http://127.0.0.1:1/v1", .model = "m", .retry = {.max_retries = 0}});
    forma::chat_options options;
    options.response_format = forma::response_format::for_type<point>();
    const std::vector<forma::chat_message> messages{forma::chat_message(forma::chat_role::user(), "Hi")};
    const auto body = forma::anthropic::build_request(messages, options, client.options(), false);
    std::string outcome = "answered";
    boost::asio::co_spawn(io, [&]() -> boost::asio::awaitable<void> {
        try {
            (void)co_await client.get_response(messages);
        } catch (const forma::transport_error&) {
            outcome = "refused";
        }
    }, boost::asio::detached);
    io.run();
    std::cout << body.at("output_config").at("format").at("type").as_string().c_str() << ' ' << outcome << '\n';
    return outcome == "refused" ? 0 : 1;
}
