// Appended after a run block's harness, which defines `boost::asio::awaitable<void> doc_main()`:
// runs it to its end; an exception is printed and fails the program.
int main() {
    boost::asio::io_context io;
    int status = 0;
    boost::asio::co_spawn(io, doc_main(), [&](std::exception_ptr e) {
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
