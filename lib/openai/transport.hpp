#pragma once
// What both OpenAI clients share: the server, its TLS context, the headers and the secrets
// among them, idle connections, retries, limits and the spans of calls.
// chat_client and responses_client each hold one; nothing else sends requests.

#include "../net/connection_pool.hpp"
#include "../net/credentials.hpp"

#include <forma/chat/chat_options.hpp>
#include <forma/chat/operation_span.hpp>
#include <forma/chat/provider_metadata.hpp>
#include <forma/chat/run_context.hpp>
#include <forma/model/chat_message.hpp>
#include <forma/net/base_url.hpp>
#include <forma/net/http_error.hpp>
#include <forma/net/rate_limits.hpp>
#include <forma/openai/client_options.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace forma::openai::detail {

/// One request as the clients make it; the transport adds the headers.
struct request_line {
    std::string_view method = "POST";
    std::string target{};
    std::string_view body{};
    bool stream = false;
};

/// What a response's x-ratelimit-* headers say.
inline forma::rate_limits rate_limits_of(const net::detail::http_response_head& head) {
    return forma::rate_limits::from_headers([&](std::string_view name) { return head.header(name); });
}

/// Puts `limits` (when any) in `properties`, as forma::concurrency_limiter reads them.
inline void attach_rate_limits(boost::json::object& properties, const forma::rate_limits& limits) {
    if (!limits.empty()) properties[forma::rate_limits::property] = limits.to_json();
}

class transport {
public:
    using executor_type = boost::asio::any_io_executor;

    /// @throws forma::error for a base_url that does not parse, a ca_file that cannot be read,
    ///         or Azure options without a deployment.
    transport(executor_type executor, client_options options);

    const executor_type& executor() const noexcept { return executor_; }
    const client_options& options() const noexcept { return options_; }
    std::size_t idle_connections() const noexcept { return pool_.idle_count(); }

    /// The request target for an API path ("/chat/completions", "/responses/{id}"), with
    /// `query` (without '?'); Azure's api-version is added in Azure mode.
    std::string target(std::string_view path, std::string_view query = {}) const;

    /// "openai" ("azure.ai.openai" in Azure mode), the server's host and port, the client's model.
    provider_metadata provider() const;

    /// The limits of an exchange that starts now.
    net::detail::exchange_limits limits_from_now() const;

    /// The span of one call, a child of the trace `context` carries (none without one).
    telemetry::operation_span start_span(const std::vector<chat_message>& messages, const chat_options& request,
                                         const run_context& context, bool stream) const;

    using opened_response = net::detail::connection_pool::opened;

    /// Sends `request` until a 2xx response's head arrives, retrying what the policy allows;
    /// the headers carry the W3C traceparent of `span` when it records.
    /// @throws http_error for a status that is not 2xx (after retries), transport_error.
    boost::asio::awaitable<opened_response> open(const request_line& request, const telemetry::operation_span& span,
                                                 const net::detail::exchange_limits& limits);

    struct exchanged_body {
        std::string text;
        forma::rate_limits limits; // what the response's x-ratelimit-* headers said
    };
    /// Sends `request` and reads the whole 2xx body.
    boost::asio::awaitable<exchanged_body> exchange(const request_line& request, const telemetry::operation_span& span);

    /// Keeps a connection whose response has ended for the next request.
    void give_back(std::unique_ptr<net::detail::http_connection> connection) { pool_.give_back(std::move(connection)); }

private:

    executor_type executor_;
    client_options options_;
    net::detail::credentials secrets_;
    net::base_url server_;
    net::detail::header_list headers_;
    std::shared_ptr<ssl_ctx_st> tls_;
    net::detail::connection_pool pool_;
    std::minstd_rand random_;
};

/** A streamed response body: sends the request on open(), then hands out the body's bytes
    as they arrive, counting them against client_options::max_stream_bytes. The connection
    goes back to the transport when the body ends, and is closed on failure or destruction.
*/
class streamed_body {
public:
    explicit streamed_body(std::shared_ptr<transport> owner) : transport_(std::move(owner)) {}
    ~streamed_body() { close(); }

    /// Sends `request` (stream: true) and reads the head.
    boost::asio::awaitable<void> open(const request_line& request, const telemetry::operation_span& span);
    /// The head open() read.
    const net::detail::http_response_head& head() const noexcept { return head_; }
    bool is_open() const noexcept { return connection_ != nullptr; }

    /// The next bytes (valid until the next call); empty once the body has ended.
    /// @throws stream_error (stream_too_large), transport_error.
    boost::asio::awaitable<std::string_view> read_some();

    /// The rest of the body, for a server that answered with a whole JSON body.
    boost::asio::awaitable<std::string> read_rest();

    /// Closes at once (after a failure or a cancellation).
    void close() noexcept;

    transport& owner() const noexcept { return *transport_; }

private:
    std::shared_ptr<transport> transport_;
    std::unique_ptr<net::detail::http_connection> connection_;
    net::detail::http_response_head head_{};
    net::detail::exchange_limits limits_{};
    std::size_t streamed_ = 0;
};

} // namespace forma::openai::detail
