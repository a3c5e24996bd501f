// forma::orchestration alone: two agents in a line over a chat client of one's own.
#include "echo_model.hpp"

#include <forma/agent/chat_client_agent.hpp>
#include <forma/orchestration/sequential_orchestration.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <iostream>

int main() {
    boost::asio::io_context io;
    echo_model model(io.get_executor());
    auto first = std::make_shared<forma::chat_client_agent>(model, forma::chat_client_agent_options{.name = "first"});
    auto second = std::make_shared<forma::chat_client_agent>(model, forma::chat_client_agent_options{.name = "second"});
    forma::sequential_orchestration line({first, second});
    boost::asio::co_spawn(io, [&]() -> boost::asio::awaitable<void> {
        const forma::agent_response<> answer = co_await line.run("go");
        std::cout << answer.messages.back().author_name << ": " << answer.text() << '\n';
    }, boost::asio::detached);
    io.run();
}
