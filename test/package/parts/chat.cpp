// forma::chat alone: a chat client of one's own, decorated by chat_client_builder, asked whole
// and streamed.
#include "echo_model.hpp"

#include <forma/chat/chat_client_builder.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <iostream>
#include <vector>

int main() {
    boost::asio::io_context io;
    echo_model model(io.get_executor());
    std::shared_ptr<forma::chat_client> client = forma::chat_client_builder(model).use_function_invocation().build();
    boost::asio::co_spawn(io, [&]() -> boost::asio::awaitable<void> {
        // Named, not braced in the co_await: g++ 12 mis-compiles such a temporary (the guide says more).
        std::vector<forma::chat_message> hi{forma::chat_message(forma::chat_role::user(), "hi")};
        const forma::agent_response<> whole = co_await client->get_response(std::move(hi));
        std::vector<forma::chat_message> there{forma::chat_message(forma::chat_role::user(), "there")};
        forma::update_stream stream = client->get_streaming_response(std::move(there));
        std::string streamed;
        while (auto update = co_await stream.next()) streamed += update->text();
        std::cout << whole.text() << " / " << streamed << '\n';
    }, boost::asio::detached);
    io.run();
}
