#pragma once
// JSON-RPC 2.0 over HTTP with one A2A agent: its card, requests answered with JSON, and
// requests answered with an SSE stream of JSON-RPC responses.

#include <forma/a2a/a2a_error.hpp>
#include <forma/a2a/agent.hpp>
#include <forma/a2a/agent_card.hpp>

#include "../net/connection_pool.hpp"
#include "../net/credentials.hpp"
#include "../net/event_reader.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace forma::a2a::detail {

class rpc_channel {
public:
    /// @throws forma::error for a URL that does not parse or a CA file that cannot be read.
    rpc_channel(boost::asio::any_io_executor executor, const agent_options& options);

    /// "A2A agent at <url>: <what>".
    a2a_error error(const std::string& what, std::optional<std::int64_t> code = {}) const;

    /// Reads the agent card, and sends requests to the endpoint it names from then on.
    boost::asio::awaitable<agent_card> read_card();

    /// A card's name, description, version, streaming and skills (not its endpoint). @throws a2a_error without a name.
    agent_card card_of(const boost::json::object& raw, const std::string& where) const;

    /// The limits of an exchange that must end by `deadline` (none: only the timeouts).
    net::detail::exchange_limits limits(std::optional<std::chrono::steady_clock::time_point> deadline = {}) const;

    /// Sends a request (named and shaped as in 0.3; translated when the card's 1.0 is spoken);
    /// returns its result in 0.3 shape. @throws a2a_error (a JSON-RPC error: with its code).
    boost::asio::awaitable<boost::json::value> call(std::string_view method, boost::json::object params,
                                                    const net::detail::exchange_limits& limits);

    /// The results of a request answered with a stream, one by one.
    class result_stream {
    public:
        result_stream(rpc_channel& channel, std::int64_t id, net::detail::exchange_limits limits);
        ~result_stream();
        /// The next result; nullopt once the stream has ended. @throws a2a_error.
        boost::asio::awaitable<std::optional<boost::json::value>> next();
        /// The raw JSON-RPC response of the result next() returned last.
        const boost::json::value& raw() const noexcept { return raw_; }

        /// Reads events from `connection` (the head read).
        void attach(std::unique_ptr<net::detail::http_connection> connection);
        /// A whole JSON answer instead of a stream: its one result.
        void preload(std::string response) { preloaded_ = std::move(response); }

    private:
        rpc_channel& channel_;
        std::int64_t id_;
        net::detail::exchange_limits limits_;
        std::optional<std::string> preloaded_;
        std::unique_ptr<net::detail::http_connection> connection_;
        std::optional<net::detail::event_reader> events_;
        boost::json::value raw_;
    };

    /// Sends a request answered with an SSE stream. A JSON answer (an error) is thrown.
    boost::asio::awaitable<std::unique_ptr<result_stream>> stream(std::string_view method, boost::json::object params,
                                                                  const net::detail::exchange_limits& limits);

    const std::string& url() const noexcept { return url_; }

private:
    friend class result_stream;
    rpc_channel(boost::asio::any_io_executor executor, const agent_options& options, net::base_url base);
    boost::json::value result_of(boost::json::value response, std::int64_t id) const;
    boost::asio::awaitable<net::detail::connection_pool::opened> post(std::string_view method, boost::json::object params,
                                                                      std::string_view accept, std::int64_t id,
                                                                      const net::detail::exchange_limits& limits);
    boost::asio::awaitable<std::string> read_json_body(net::detail::connection_pool::opened& answer,
                                                       const net::detail::exchange_limits& limits);

    boost::asio::any_io_executor executor_;
    std::string url_;
    std::size_t max_message_size_;
    net::timeouts timeouts_;
    net::detail::header_list headers_;          // the caller's
    net::detail::header_list endpoint_headers_; // and the A2A-Version spoken
    std::optional<protocol_version> speak_;
    protocol_version version_ = protocol_version::v0_3;
    net::detail::credentials secrets_;
    net::tls_trust trust_;
    std::shared_ptr<ssl_ctx_st> tls_; // made once, for whichever of the card and the endpoint is https
    net::detail::connection_pool card_pool_;
    std::optional<net::detail::connection_pool> endpoint_pool_;
    std::string endpoint_target_;
    std::int64_t next_id_ = 1;
};

} // namespace forma::a2a::detail
