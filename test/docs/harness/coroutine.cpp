// Completes a block that defines `boost::asio::awaitable<void> DOC_ENTRY()`: runs it to its end.
int main() {
    boost::asio::io_context io;
    int status = 0;
    boost::asio::co_spawn(io, DOC_ENTRY(), [&](std::exception_ptr e) {
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
