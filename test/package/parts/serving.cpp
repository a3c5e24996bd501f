// forma::serving alone: an agent of one's own behind OpenAI-compatible endpoints and AG-UI.
#include "echo_model.hpp"

#include <forma/agent/chat_client_agent.hpp>
#include <forma/net/http_server.hpp>
#include <forma/serving/ag_ui_endpoint.hpp>
#include <forma/serving/openai_endpoints.hpp>

#include <boost/asio/io_context.hpp>

#include <iostream>

int main() {
    boost::asio::io_context io;
    echo_model model(io.get_executor());
    forma::chat_client_agent agent(model, {.name = "echoer"});
    forma::serving::openai_endpoints openai(agent);
    forma::serving::ag_ui_endpoint ag_ui(agent);
    forma::net::http_routes routes = openai.routes();
    routes.add_all(ag_ui.routes());
    forma::net::http_server http(io.get_executor(), std::move(routes));
    std::cout << "OpenAI endpoints and AG-UI for " << agent.name() << '\n';
}
