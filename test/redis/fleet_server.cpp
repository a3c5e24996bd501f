// One instance of a server fleet for fleet_test: the served test agent over A2A and the
// OpenAI-compatible endpoints, its tasks and sessions in the Redis at 127.0.0.1:<port>.
//   forma_fleet_test_server <redis port> <lease ms>
// Prints "listening on <port>" once it serves; ends at SIGTERM.
#include <forma/a2a/server.hpp>
#include <forma/net/http_server.hpp>
#include <forma/redis/session_store.hpp>
#include <forma/redis/task_store.hpp>
#include <forma/serving/openai_endpoints.hpp>

#include "support/trigger_agent.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/signal_set.hpp>

#include <iostream>
#include <string>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: forma_fleet_test_server <redis port> <lease ms>\n";
        return 2;
    }
    namespace asio = boost::asio;
    asio::io_context io;
    forma_test::trigger_agent served(io.get_executor());
    forma::redis::client_options redis_options;
    redis_options.host = "127.0.0.1";
    redis_options.port = static_cast<unsigned short>(std::stoi(argv[1]));
    auto redis = std::make_shared<forma::redis::client>(io.get_executor(), redis_options);
    auto tasks = std::make_shared<forma::redis::task_store>(redis, forma::redis::task_store_options{.lease = std::chrono::milliseconds(std::stoi(argv[2]))});
    auto sessions = std::make_shared<forma::redis::session_store>(redis);
    forma::a2a::server a2a(served, {.task_after = std::chrono::milliseconds(100), .tasks = tasks, .sessions = sessions});
    forma::serving::openai_endpoints openai(served, {.tasks = tasks, .sessions = sessions});
    forma::net::http_routes routes = a2a.routes();
    routes.add_all(openai.routes());

    asio::cancellation_signal stop;
    asio::signal_set signals(io, SIGTERM, SIGINT);
    signals.async_wait([&](boost::system::error_code ec, int) {
        if (!ec) stop.emit(asio::cancellation_type::terminal);
    });
    int status = 0;
    asio::co_spawn(io, forma::net::serve(io.get_executor(), {}, std::move(routes), {}, [](unsigned short port) {
                       std::cout << "listening on " << port << std::endl;
                   }),
                   asio::bind_cancellation_slot(stop.slot(), [&](std::exception_ptr e) {
                       if (e) status = 1;
                       io.stop(); // the Redis client's reader and the stores' watches would keep it running
                   }));
    io.run();
    return status;
}
