// forma::redis alone (the one part that links hiredis): a client and a session store over it,
// made without connecting.
#include <forma/redis/client.hpp>
#include <forma/redis/session_store.hpp>

#include <boost/asio/io_context.hpp>

#include <iostream>

int main() {
    boost::asio::io_context io;
    auto client = std::make_shared<forma::redis::client>(io.get_executor(), forma::redis::client_options{.port = 1});
    forma::redis::session_store sessions(client);
    std::cout << "a Redis session store\n";
}
