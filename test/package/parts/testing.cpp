// forma::testing alone: the local model server on a free port, and a scripted chat client.
#include <forma/testing/model_server.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include <boost/asio/io_context.hpp>

#include <iostream>

int main() {
    boost::asio::io_context io;
    forma::testing::model_server server(io.get_executor());
    forma::testing::scripted_chat_client model(io.get_executor());
    std::cout << (server.port() != 0 ? "a model server listening\n" : "no model server\n");
    return server.port() != 0 ? 0 : 1;
}
