// Sends requests of every kind through openai::chat_client to the local model server and
// writes the bodies the server received, for the OpenAI API's own schema to judge:
//   forma_openai_sent_requests <dir>
#include <forma/openai/chat_client.hpp>
#include <forma/tools.hpp>
#include <forma/testing/model_server.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp>

#include <fstream>
#include <iostream>

namespace {

namespace asio = boost::asio;

struct city {
    std::string name;
    int population = 0;
    std::vector<std::string> landmarks;
};
BOOST_DESCRIBE_STRUCT(city, (), (name, population, landmarks))

struct request_case {
    forma::chat_options options;
    bool stream = false;
};

std::vector<request_case> cases() {
    using forma::response_format;
    const std::vector<std::optional<response_format>> formats = {
        std::nullopt,
        response_format::text(),
        response_format::json(),
        response_format::for_type<city>(),
        response_format::for_type<city>(false),
        response_format::json_schema("answer", R"({"type":"object","properties":{"a":{"type":"string"}}})",
                                     "free-form schema text"),
    };
    std::vector<request_case> all;
    for (bool stream : {false, true}) {
        for (const auto& format : formats) {
            forma::chat_options options;
            options.response_format = format;
            all.push_back({options, stream});
        }
        forma::chat_options sampled;
        sampled.instructions = "Answer briefly.";
        sampled.temperature = 0.2;
        sampled.top_p = 0.9;
        sampled.max_output_tokens = 256;
        sampled.seed = 7;
        sampled.stop_sequences = {"\n\n", "END"};
        all.push_back({sampled, stream});
    }
    return all;
}

asio::awaitable<void> send_all(forma::openai::chat_client& client) {
    std::vector<forma::chat_message> messages = {
        forma::chat_message(forma::chat_role::system(), "You know cities."),
        forma::chat_message(forma::chat_role::user(), "Tell me about Lyon"),
        forma::chat_message(forma::chat_role::assistant(), "Lyon is in France."),
        forma::chat_message(forma::chat_role::user(), "Its population and landmarks?"),
    };
    for (const auto& c : cases()) {
        if (c.stream) {
            auto stream = client.get_streaming_response(messages, c.options);
            while (co_await stream.next()) {
            }
        } else {
            co_await client.get_response(messages, c.options);
        }
    }
    // Through the tool loop: the server calls the tool, and the second request carries the
    // assistant's tool_calls and the tool message with the result.
    forma::function_invoking_chat_client loop(client);
    forma::chat_options with_tools;
    with_tools.tools = {forma::make_tool("find_city", "Looks a city up", [](const city& c) { return c; })};
    co_await loop.get_response(messages, with_tools);
    auto stream = loop.get_streaming_response(messages, with_tools);
    while (co_await stream.next()) {
    }
}

constexpr std::size_t tool_loop_requests = 4;

} // namespace

int main(int argc, char** argv) try {
    if (argc != 2) {
        std::cerr << "usage: forma_openai_sent_requests <dir>\n";
        return 2;
    }
    asio::io_context io;
    forma::testing::model_server server(io.get_executor());
    forma::openai::chat_client client(io.get_executor(), {.base_url = server.base_url(),
                                                          .api_key = "sk-local",
                                                          .model = "forma-local",
                                                          .trust = {.ca_certificates = server.certificate_pem()}});
    std::exception_ptr failure;
    asio::co_spawn(io, send_all(client), [&](std::exception_ptr e) {
        failure = e;
        server.stop();
    });
    io.run();
    if (failure) std::rethrow_exception(failure);
    const auto requests = server.requests();
    for (std::size_t i = 0; i < requests.size(); ++i)
        std::ofstream(std::string(argv[1]) + "/sent-" + std::to_string(i) + ".json") << requests[i].body;
    std::cout << requests.size() << " request bodies written\n";
    return requests.size() == cases().size() + tool_loop_requests ? 0 : 1;
} catch (const std::exception& e) {
    std::cerr << "forma_openai_sent_requests: " << e.what() << '\n';
    return 1;
}
