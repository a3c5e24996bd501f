#pragma once
// The provider kit's HTTP side: what every provider's client shares (the connection pool, TLS,
// retries with Retry-After, deadlines, size limits, secrets, rate-limit headers), so that a
// provider's client only writes its request bodies and reads its answers.

#include <forma/chat/run_context.hpp>
#include <forma/net/base_url.hpp>
#include <forma/net/http_error.hpp>
#include <forma/model/rate_limits.hpp>
#include <forma/net/retry_policy.hpp>
#include <forma/net/timeouts.hpp>
#include <forma/net/tls_trust.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace forma {

/// How a provider's client reaches its server.
struct provider_transport_options {
    /// The API's base ("https://api.example.com/v1"); request targets are appended to its path.
    std::string base_url{};
    /** Sent with every request: the key, the API version, a gateway's own. The values of
        credential-named headers (Authorization, x-api-key, api-key, Cookie, ...) never
        appear in an error (see registered_secret).
    */
    std::vector<std::pair<std::string, std::string>> headers{};
    /// Further values no error may carry (a key sent under a header of another name).
    std::vector<std::string> secrets{};
    net::tls_trust trust{};
    net::timeouts timeouts{};
    net::retry_policy retry{};
    /// The largest whole response body; past it the request fails (transport_error body_too_large).
    std::size_t max_response_body = 32 * 1024 * 1024;
    /// The most bytes a streamed body may carry; past it the stream fails (stream_error stream_too_large).
    std::size_t max_stream_bytes = 64 * 1024 * 1024;
    /// Idle connections kept for reuse by later requests.
    std::size_t max_idle_connections = 8;
    /// The headers the provider states its rate limits in; none are read when all are empty.
    forma::rate_limit_headers rate_limit_headers{};
    /** The provider's error from a status that is not 2xx and the first 64 KiB of its body.
        Unset: an http_error with the status and an excerpt of the body.
    */
    std::function<http_error(int status, std::string_view body)> read_error{};
};

/** The transport options of a provider's client options, read by the names every provider's
    options share (base_url, trust, timeouts, retry, max_response_body, max_stream_bytes,
    max_idle_connections, and `headers`, sent after `provider_headers`, the key's and the API
    version's), with the provider's rate-limit header names and error reader.
*/
template <class ClientOptions>
provider_transport_options transport_options_from(const ClientOptions& options,
                                                  std::vector<std::pair<std::string, std::string>> provider_headers,
                                                  const forma::rate_limit_headers& rate_limit_headers,
                                                  std::function<http_error(int status, std::string_view body)> read_error) {
    provider_transport_options out{.base_url = options.base_url,
                                   .headers = std::move(provider_headers),
                                   .secrets = {},
                                   .trust = options.trust,
                                   .timeouts = options.timeouts,
                                   .retry = options.retry,
                                   .max_response_body = options.max_response_body,
                                   .max_stream_bytes = options.max_stream_bytes,
                                   .max_idle_connections = options.max_idle_connections,
                                   .rate_limit_headers = rate_limit_headers,
                                   .read_error = std::move(read_error)};
    out.headers.insert(out.headers.end(), options.headers.begin(), options.headers.end());
    return out;
}

/// One request as a provider's client makes it; the transport adds the headers.
struct provider_request {
    std::string_view method = "POST";
    /// From provider_transport::target.
    std::string target{};
    std::string body{};
    /// Asks for an event stream (`Accept: text/event-stream`).
    bool stream = false;
};

/** Sends a provider's requests: a pooled connection (TLS when the base URL is https), the
    options' headers and the W3C `traceparent` of the run's trace, retries of what the retry
    policy allows (429, 5xx and failures before a response, after the server's Retry-After or
    retry-after-ms when it sends one), the timeouts and total deadline. A client holds one in a
    shared_ptr, which its open streams share.
*/
class provider_transport {
public:
    using executor_type = boost::asio::any_io_executor;

    /// @throws error for a base_url that does not parse or a trust anchor that cannot be read.
    provider_transport(executor_type executor, provider_transport_options options);
    ~provider_transport();
    provider_transport(const provider_transport&) = delete;
    provider_transport& operator=(const provider_transport&) = delete;

    const executor_type& executor() const noexcept;
    const provider_transport_options& options() const noexcept;
    /// The parsed base URL: the server's host and port, for provider_metadata.
    const net::base_url& server() const noexcept;
    std::size_t idle_connections() const noexcept;

    /// The base URL's path, then `path` ("/messages"), then `query` (without '?') when not empty.
    std::string target(std::string_view path, std::string_view query = {}) const;

    struct whole_body {
        std::string text;
        /// What the response's rate-limit headers said; nullopt when nothing.
        std::optional<forma::rate_limits> rate_limits;
    };
    /** Sends `request` and reads the whole 2xx body.
        @throws http_error (from options().read_error) for a status that is not 2xx after the
                retries, transport_error.
    */
    boost::asio::awaitable<whole_body> exchange(provider_request request, run_context context);

private:
    friend class provider_body_stream;
    struct state;
    std::unique_ptr<state> state_;
};

/** A streamed response body: open() sends the request and reads the head, then read_some()
    hands out the body's bytes as they arrive, counted against max_stream_bytes. The connection
    goes back to the transport when the body ends, and is closed on failure or destruction.
*/
class provider_body_stream {
public:
    explicit provider_body_stream(std::shared_ptr<provider_transport> owner);
    ~provider_body_stream();
    provider_body_stream(provider_body_stream&&) noexcept;
    provider_body_stream& operator=(provider_body_stream&&) = delete;

    /// @throws as provider_transport::exchange.
    boost::asio::awaitable<void> open(provider_request request, run_context context);
    /// A header of the response open() read ("" when absent).
    std::string_view header(std::string_view name) const noexcept;
    /// Whether the server answered with a whole JSON body, not an event stream.
    bool is_whole_json() const noexcept;
    /// What the response's rate-limit headers said; nullopt when nothing.
    std::optional<forma::rate_limits> rate_limits() const;

    /// The next bytes (valid until the next call); empty once the body has ended.
    /// @throws stream_error (stream_too_large), transport_error.
    boost::asio::awaitable<std::string_view> read_some();
    /// The rest of the body (a whole JSON answer), at most max_response_body.
    boost::asio::awaitable<std::string> read_rest();
    /// Closes at once (after a failure or a cancellation).
    void close() noexcept;

private:
    struct state;
    std::shared_ptr<provider_transport> transport_;
    std::unique_ptr<state> state_;
};

} // namespace forma
