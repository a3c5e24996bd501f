// An agent on Anthropic's Messages API: a typed answer, a tool call, and the same answer streamed.
//
// Runs against Anthropic when ANTHROPIC_API_KEY is set (ANTHROPIC_MODEL optional), or against
// another server of the Messages API at ANTHROPIC_BASE_URL. Otherwise it runs against forma's local
// model server, started in this process, which answers /v1/messages with generated answers.
// (llama.cpp's llama-server serves /v1/messages too, but takes neither output_config nor
// disable_parallel_tool_use, so typed answers there go through openai::chat_client.)
#include "example_support.hpp"

#include <forma/forma.hpp>

#include <boost/describe.hpp>

#include <iostream>
#include <memory>
#include <string>

struct city_weather {
    std::string city;
    int degrees = 0;
};
BOOST_DESCRIBE_STRUCT(city_weather, (), (city, degrees))

namespace {

struct weather_request {
    std::string city;
};
BOOST_DESCRIBE_STRUCT(weather_request, (), (city))

forma::anthropic::client_options options_for(const forma::testing::model_server* local) {
    if (!local)
        return {.base_url = example::environment("ANTHROPIC_BASE_URL", "https://api.anthropic.com/v1"),
                .api_key = example::environment("ANTHROPIC_API_KEY"),
                .model = example::environment("ANTHROPIC_MODEL", "claude-sonnet-4-5")};
    return {.base_url = local->base_url(), .model = "forma-local", .trust = {.ca_certificates = local->certificate_pem()}};
}

boost::asio::awaitable<void> show(forma::anthropic::messages_client& client) {
    // A typed answer: the schema goes as output_config (or as the tool final_result).
    forma::chat_client_agent extractor(client, {.name = "extractor"});
    const forma::agent_response<city_weather> typed = co_await extractor.run<city_weather>("Oslo, 5 degrees");
    std::cout << "Typed: " << typed.result().city << ", " << typed.result().degrees << " degrees\n";

    // A tool the model calls; its result goes back as a tool_result block.
    forma::chat_client_agent_options with_tool{.name = "forecaster"};
    with_tool.chat_options.tools.push_back(forma::make_tool(
        "get_weather", "The weather in a city.", [](weather_request r) { return r.city + ": sunny, 21 degrees"; }));
    forma::chat_client_agent forecaster(client, std::move(with_tool));
    const forma::agent_response<> answer = co_await forecaster.run("What is the weather in Lima?");
    example::show_tool_activity(answer);
    std::cout << "Answer: " << answer.text() << '\n';

    // The same question streamed: text as it comes.
    std::cout << "Streamed:";
    forma::update_stream stream = extractor.run_streaming("Say hello to Ada");
    while (auto update = co_await stream.next())
        if (!update->text().empty()) std::cout << " [" << update->text() << ']';
    std::cout << '\n';
}

} // namespace

int main() {
    boost::asio::io_context io;
    const bool real = !example::environment("ANTHROPIC_API_KEY").empty() || !example::environment("ANTHROPIC_BASE_URL").empty();
    std::unique_ptr<forma::testing::model_server> local;
    if (!real) {
        local = std::make_unique<forma::testing::model_server>(io.get_executor(), forma::testing::model_server_options{.delta_size = 6});
        std::cout << "No ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL set: using forma's local model server at " << local->base_url()
                  << "/messages\n";
    }
    forma::anthropic::messages_client client(io.get_executor(), options_for(local.get()));
    try {
        example::run(io, show(client));
    } catch (const std::exception& e) {
        std::cerr << "Failed: " << e.what() << '\n';
        return 1;
    }
}
