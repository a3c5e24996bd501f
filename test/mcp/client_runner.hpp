#pragma once
// Running an mcp::client in a test: connected, used, and closed whatever happens.

#include <forma/mcp/client.hpp>
#include <forma/mcp/transport.hpp>

#include "support/bounded_run.hpp"

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace mcp_test {

using transport_factory = std::function<std::unique_ptr<forma::mcp::transport>(boost::asio::any_io_executor)>;

/// Runs `body(c)` on `io` with a client connected over the transport `make` makes, and
/// closes it afterwards whatever happens.
template <class T>
T run_client(boost::asio::io_context& io, const transport_factory& make,
             std::function<boost::asio::awaitable<T>(forma::mcp::client&)> body, forma::mcp::client_options options = {}) {
    forma::mcp::client c(io.get_executor(), make(io.get_executor()), std::move(options));
    auto operation = [&]() -> boost::asio::awaitable<T> {
        std::exception_ptr failure;
        std::optional<T> value;
        try {
            co_await c.connect();
            value.emplace(co_await body(c));
        } catch (...) {
            failure = std::current_exception();
        }
        co_await c.close();
        if (failure) std::rethrow_exception(failure);
        co_return std::move(*value);
    };
    return forma_test::run_bounded(io, operation(), std::chrono::seconds(60));
}

/// What `f` threw, or "(nothing thrown)".
inline std::string thrown_by(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(nothing thrown)";
}

} // namespace mcp_test
