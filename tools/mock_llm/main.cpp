// forma-mock-llm: a local OpenAI-compatible model server (see forma::testing::model_server).
//   forma-mock-llm [--port N] [--address A] [--http] [--seed N] [--delay-ms N] [--reasoning TEXT]
//                  [--background-ms N] [--cert-out FILE]

#include <forma/testing/model_server.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <charconv>
#include <csignal>
#include <cstdint>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

namespace {

constexpr std::string_view usage = R"(usage: forma-mock-llm [options]
A local OpenAI-compatible model server: POST <base_url>/chat/completions and the Responses API
(POST <base_url>/responses, GET <base_url>/responses/{id}, POST <base_url>/responses/{id}/cancel),
streamed or not. Answers echo the last user message, or follow the request's JSON Schema.

  --port N          port to listen on (default 8080; 0 picks a free one)
  --address A       address to listen on (default 127.0.0.1)
  --http            plain HTTP instead of HTTPS
  --seed N          seed of schema-driven answers (default 0)
  --delay-ms N      wait between streamed chunks, in milliseconds (default 0)
  --reasoning TEXT  start each Responses answer with a reasoning item summarised by TEXT
  --background-ms N how long a background response runs, in milliseconds (default 30)
  --cert-out FILE   write the server's certificate (PEM) to FILE, for a client's ca_file
  --help            this text
Runs until SIGINT or SIGTERM.
)";

template <class T>
bool parse_number(std::string_view text, T& out) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

int fail(std::string_view message) {
    std::cerr << "forma-mock-llm: " << message << "\n" << usage;
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    forma::testing::model_server_options options;
    options.port = 8080;
    std::string cert_out;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        if (arg == "--help" || arg == "-h") {
            std::cout << usage;
            return 0;
        } else if (arg == "--http") {
            options.tls = false;
        } else if (arg == "--port") {
            const char* v = value();
            if (!v || !parse_number(v, options.port)) return fail("--port needs a port number");
        } else if (arg == "--address") {
            const char* v = value();
            if (!v) return fail("--address needs an address");
            options.address = v;
        } else if (arg == "--seed") {
            const char* v = value();
            if (!v || !parse_number(v, options.seed)) return fail("--seed needs a number");
        } else if (arg == "--delay-ms") {
            const char* v = value();
            std::int64_t ms = 0;
            if (!v || !parse_number(v, ms) || ms < 0) return fail("--delay-ms needs a number of milliseconds");
            options.chunk_delay = std::chrono::milliseconds(ms);
        } else if (arg == "--reasoning") {
            const char* v = value();
            if (!v) return fail("--reasoning needs a text");
            options.reasoning_summary = v;
        } else if (arg == "--background-ms") {
            const char* v = value();
            std::int64_t ms = 0;
            if (!v || !parse_number(v, ms) || ms < 0) return fail("--background-ms needs a number of milliseconds");
            options.background_duration = std::chrono::milliseconds(ms);
        } else if (arg == "--cert-out") {
            const char* v = value();
            if (!v) return fail("--cert-out needs a file name");
            cert_out = v;
        } else {
            return fail("unknown option " + std::string(arg));
        }
    }
    if (!cert_out.empty() && !options.tls) return fail("--cert-out has no certificate to write with --http");

    try {
        boost::asio::io_context io;
        forma::testing::model_server server(io.get_executor(), options);
        if (!cert_out.empty()) {
            std::ofstream file(cert_out, std::ios::binary | std::ios::trunc);
            file << server.certificate_pem();
            if (!file.flush()) {
                std::cerr << "forma-mock-llm: cannot write " << cert_out << "\n";
                return 1;
            }
        }
        boost::asio::signal_set signals(io, SIGINT, SIGTERM);
        signals.async_wait([&](const boost::system::error_code& ec, int) {
            if (!ec) server.stop(); // with nothing left to do, io.run() returns
        });
        std::cout << "forma-mock-llm listening on " << server.base_url() << std::endl;
        io.run();
    } catch (const std::exception& e) {
        std::cerr << "forma-mock-llm: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
