// forma::agent alone: an agent over a chat client of one's own, run in a session.
#include "echo_model.hpp"

#include <forma/agent/chat_client_agent.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <iostream>

int main() {
    boost::asio::io_context io;
    echo_model model(io.get_executor());
    forma::chat_client_agent agent(model, {.name = "echoer"});
    boost::asio::co_spawn(io, [&]() -> boost::asio::awaitable<void> {
        auto session = agent.create_session();
        const forma::agent_response<> answer = co_await agent.run("hello", session);
        std::cout << agent.name() << ": " << answer.text() << " (" << session->history.size() << " messages)\n";
    }, boost::asio::detached);
    io.run();
}
