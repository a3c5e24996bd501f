// Completes a block that defines `boost::asio::awaitable<void> DOC_ENTRY()`.
boost::asio::awaitable<void> doc_main() { co_await DOC_ENTRY(); }
