// forma in an Asio server: every POST /extract runs `co_await agent.run<person>(text)`, and many
// requests are served at once on one io_context, one thread, with no thread pool.
//
//   asio_server [--port N] [--max-requests N]
//   curl -d 'John Smith is a 35-year-old software engineer.' http://127.0.0.1:8080/extract
//
// With OPENAI_API_KEY set it asks OPENAI_BASE_URL (default https://api.openai.com/v1) for
// OPENAI_MODEL (default gpt-4o-mini); without it, the built-in local model server over TLS.

#include "asio_server.hpp"

#include <forma/openai/chat_client.hpp>
#include <forma/testing/model_server.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <charconv>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace {

namespace asio = boost::asio;

constexpr std::string_view usage =
    "usage: asio_server [--port N (default 8080; 0 picks one)] [--max-requests N]\n";

std::string env_or(const char* name, std::string fallback) {
    const char* value = std::getenv(name);
    return value && *value ? value : std::move(fallback);
}

template <class T>
bool parse_number(std::string_view text, T& out) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

// Runs the server to its end, then releases what would keep io.run() from returning.
asio::awaitable<void> serve(asio_server::server& server, asio::signal_set& signals,
                            forma::testing::model_server* local_model) {
    co_await server.run();
    signals.cancel();
    if (local_model) local_model->stop();
    std::cout << "stopped after " << server.requests_served() << " requests" << std::endl;
}

} // namespace

int main(int argc, char** argv) {
    unsigned short port = 8080;
    std::size_t max_requests = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const std::string_view value = i + 1 < argc ? argv[i + 1] : "";
        if (arg == "--port" && parse_number(value, port)) {
            ++i;
        } else if (arg == "--max-requests" && parse_number(value, max_requests)) {
            ++i;
        } else {
            (arg == "--help" ? std::cout : std::cerr) << usage;
            return arg == "--help" ? 0 : 2;
        }
    }

    try {
        asio::io_context io; // one thread: connections, agent runs and model calls interleave on it

        forma::openai::client_options options;
        std::optional<forma::testing::model_server> local_model;
        if (const std::string key = env_or("OPENAI_API_KEY", ""); !key.empty()) {
            options.api_key = key;
            options.base_url = env_or("OPENAI_BASE_URL", options.base_url);
            options.model = env_or("OPENAI_MODEL", "gpt-4o-mini");
        } else {
            // Answers that follow the schema sent, over real TLS; the client trusts its
            // certificate.
            local_model.emplace(io.get_executor());
            options.base_url = local_model->base_url();
            options.trust.ca_certificates = local_model->certificate_pem();
            options.model = "forma-local";
        }
        // One client and one agent for every request: concurrent runs open their own connections.
        forma::openai::chat_client client(io.get_executor(), options);
        forma::chat_client_agent agent(
            client,
            {.name = "extractor", .instructions = "Extract the person the text describes."});

        asio_server::server server(
            io.get_executor(), agent,
            {.endpoint = {asio::ip::address_v4::loopback(), port}, .max_requests = max_requests});
        asio::signal_set signals(io, SIGINT, SIGTERM);
        signals.async_wait([&](const boost::system::error_code& ec, int) {
            if (ec) return;
            server.stop(); // finish the requests in progress, then return from io.run()
            signals.async_wait([&io](const boost::system::error_code& ec, int) {
                if (!ec) io.stop(); // a second signal: do not wait for them
            });
        });
        asio::co_spawn(io, serve(server, signals, local_model ? &*local_model : nullptr),
                       [](std::exception_ptr e) {
                           if (e)
                               std::rethrow_exception(e); // out of io.run(), into the catch below
                       });

        std::cout << "listening on http://127.0.0.1:" << server.port()
                  << " (model: " << options.base_url << ")" << std::endl;
        io.run();
    } catch (const std::exception& e) {
        std::cerr << "asio_server: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
