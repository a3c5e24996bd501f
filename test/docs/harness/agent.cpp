// Completes a block that defines `boost::asio::awaitable<void> DOC_ENTRY(forma::agent&)`: an agent
// on the server of OPENAI_BASE_URL.
#include <cstdlib>
#include <stdexcept>

boost::asio::awaitable<void> doc_main() {
    const char* url = std::getenv("OPENAI_BASE_URL");
    if (!url) throw std::runtime_error("OPENAI_BASE_URL is not set");
    const auto executor = co_await boost::asio::this_coro::executor;
    const forma::openai::client_options options{.base_url = url, .model = "doc"};
    forma::openai::chat_client client(executor, options);
    const forma::chat_client_agent_options agent_options{.name = "doc"};
    forma::chat_client_agent agent(client, agent_options);
    co_await DOC_ENTRY(agent);
}
