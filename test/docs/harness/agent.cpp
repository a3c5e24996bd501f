// Completes a block that defines `boost::asio::awaitable<void> DOC_ENTRY(forma::agent&)`: runs it
// once with an agent on the server of OPENAI_BASE_URL.
#include <cstdlib>

int main() {
    const char* url = std::getenv("OPENAI_BASE_URL");
    if (!url) {
        std::cerr << "OPENAI_BASE_URL is not set\n";
        return 2;
    }
    boost::asio::io_context io;
    forma::openai::chat_client client(io.get_executor(), forma::openai::client_options{.base_url = url, .model = "doc"});
    forma::chat_client_agent agent(client, forma::chat_client_agent_options{.name = "doc"});
    int status = 0;
    boost::asio::co_spawn(io, DOC_ENTRY(agent), [&](std::exception_ptr e) {
        try {
            if (e) std::rethrow_exception(e);
        } catch (const std::exception& error) {
            std::cerr << error.what() << '\n';
            status = 1;
        }
    });
    io.run();
    return status;
}
