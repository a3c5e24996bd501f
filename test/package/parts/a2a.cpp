// forma::a2a alone: an agent of one's own served over A2A, its routes mounted in an http_server.
#include "echo_model.hpp"

#include <forma/a2a/server.hpp>
#include <forma/agent/chat_client_agent.hpp>
#include <forma/net/http_server.hpp>

#include <boost/asio/io_context.hpp>

#include <iostream>

int main() {
    boost::asio::io_context io;
    echo_model model(io.get_executor());
    forma::chat_client_agent agent(model, {.name = "echoer", .description = "Says it back"});
    forma::a2a::server a2a(agent);
    forma::net::http_server http(io.get_executor(), a2a.routes());
    std::cout << "an A2A server of " << agent.name() << '\n';
}
