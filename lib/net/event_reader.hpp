#pragma once
// Reads a text/event-stream body event by event, from a connection whose head has been read:
// the one SSE reading loop of the MCP and A2A clients. (The OpenAI clients parse their events
// in place, without a copy, in their stream parsers: the hot path, measured in bench/.)

#include "http_connection.hpp"

#include <forma/net/sse_event.hpp>
#include <forma/net/sse_parser.hpp>

#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <optional>
#include <string_view>

namespace forma::net::detail {

class event_reader {
public:
    event_reader(http_connection& connection, std::size_t max_event_size, exchange_limits limits)
        : connection_(&connection), parser_({.max_event_size = max_event_size}), limits_(limits) {}

    /** The next event, or nullopt once the body has ended (the connection may then be reused).
        @throws stream_error: event_too_large, or incomplete when the body ends inside an event;
        transport_error when the connection fails.
    */
    boost::asio::awaitable<std::optional<sse_event>> next();

private:
    http_connection* connection_;
    sse_parser parser_;
    exchange_limits limits_;
    std::string_view pending_{}; // bytes read but not yet parsed; valid until the next read
};

} // namespace forma::net::detail
