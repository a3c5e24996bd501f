#include <forma/chat/provider_transport.hpp>

#include "../json/body_excerpt.hpp"
#include "../net/connection_pool.hpp"
#include "../net/credentials.hpp"
#include "../net/media_type.hpp"
#include "../net/tls_client.hpp"

#include <forma/net/stream_error.hpp>
#include <forma/net/transport_error.hpp>
#include <forma/telemetry/trace_parent.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <random>

namespace forma {

namespace asio = boost::asio;
using net::detail::exchange_limits;
using net::detail::http_response_head;
using clock = std::chrono::steady_clock;

namespace {

constexpr std::size_t max_error_body = 64 * 1024;

std::optional<std::chrono::milliseconds> server_retry_hint(const http_response_head& head) {
    if (auto ms = net::parse_retry_after_ms(head.header("retry-after-ms"))) return ms;
    return net::parse_retry_after(head.header("retry-after"), std::chrono::system_clock::now());
}

} // namespace

struct provider_transport::state {
    state(executor_type executor, provider_transport_options settings)
        : executor(std::move(executor)), options(std::move(settings)), server(net::parse_base_url(options.base_url)),
          tls(server.tls ? net::detail::make_tls_client_context(options.trust) : nullptr),
          pool(this->executor, server, tls, options.max_idle_connections), random(std::random_device{}()) {
        secrets.add_named(options.headers);
        for (const std::string& secret : options.secrets) secrets.add(secret);
    }

    exchange_limits limits_from_now() const {
        exchange_limits limits{.limits = options.timeouts, .deadline = std::nullopt};
        if (options.timeouts.total > std::chrono::milliseconds::zero())
            limits.deadline = clock::now() + options.timeouts.total;
        return limits;
    }

    http_error read_error(int status, std::string_view body) const {
        if (options.read_error) return options.read_error(status, body);
        return http_error(status, {}, json_detail::body_excerpt(body));
    }

    std::optional<rate_limits> limits_of(const http_response_head& head) const {
        const rate_limits said = rate_limits::from_headers([&](std::string_view name) { return head.header(name); },
                                                           options.rate_limit_headers);
        if (said.empty()) return std::nullopt;
        return said;
    }

    // Sends `request` until a 2xx response's head arrives, retrying what the policy allows.
    asio::awaitable<net::detail::connection_pool::opened> open(const provider_request& request,
                                                               const run_context& context,
                                                               const exchange_limits& limits) {
        net::detail::header_list request_headers = options.headers;
        if (context.trace && context.trace->context.valid())
            request_headers.emplace_back("traceparent", telemetry::to_traceparent(context.trace->context));
        const net::detail::http_request http{.method = request.method,
                                             .target = request.target,
                                             .content_type = "application/json",
                                             .accept = request.stream ? "text/event-stream" : "application/json",
                                             .headers = &request_headers,
                                             .body = request.body};
        for (int retry = 0;; ++retry) {
            std::exception_ptr failure;
            std::optional<std::chrono::milliseconds> hint;
            try {
                auto opened = co_await pool.open(http, limits);
                if (opened.head.status / 100 == 2) co_return opened;
                std::string error_body;
                try {
                    error_body = co_await opened.connection->read_body(max_error_body, limits);
                    pool.give_back(std::move(opened.connection));
                } catch (const transport_error&) {
                    // The status says enough.
                }
                http_error failed = read_error(static_cast<int>(opened.head.status), error_body);
                if (!net::is_retryable_status(opened.head.status) || retry >= options.retry.max_retries) throw failed;
                hint = server_retry_hint(opened.head);
                if (hint && *hint > options.retry.max_retry_after) throw failed;
                failure = std::make_exception_ptr(std::move(failed));
            } catch (const transport_error& e) {
                const bool repeatable = e.before_response() && e.kind() != transport_error_kind::tls;
                if (!repeatable || retry >= options.retry.max_retries) throw;
                failure = std::current_exception();
            }
            const auto delay = net::retry_delay(options.retry, retry + 1, hint,
                                                std::uniform_real_distribution<double>(0.0, 1.0)(random));
            if (limits.deadline && clock::now() + delay >= *limits.deadline) std::rethrow_exception(failure);
            asio::steady_timer timer(executor, delay);
            co_await timer.async_wait(asio::use_awaitable);
        }
    }

    executor_type executor;
    provider_transport_options options;
    net::detail::credentials secrets;
    net::base_url server;
    std::shared_ptr<ssl_ctx_st> tls;
    net::detail::connection_pool pool;
    std::minstd_rand random;
};

provider_transport::provider_transport(executor_type executor, provider_transport_options options)
    : state_(std::make_unique<state>(std::move(executor), std::move(options))) {}

provider_transport::~provider_transport() = default;

const provider_transport::executor_type& provider_transport::executor() const noexcept { return state_->executor; }

const provider_transport_options& provider_transport::options() const noexcept { return state_->options; }

const net::base_url& provider_transport::server() const noexcept { return state_->server; }

std::size_t provider_transport::idle_connections() const noexcept { return state_->pool.idle_count(); }

std::string provider_transport::target(std::string_view path, std::string_view query) const {
    std::string out = state_->server.path;
    out.append(path);
    if (!query.empty()) out.append("?").append(query);
    return out;
}

asio::awaitable<provider_transport::whole_body> provider_transport::exchange(provider_request request,
                                                                             run_context context) {
    state& s = *state_;
    const exchange_limits limits = s.limits_from_now();
    auto opened = co_await s.open(request, context, limits);
    std::string text = co_await opened.connection->read_body(s.options.max_response_body, limits);
    s.pool.give_back(std::move(opened.connection));
    co_return whole_body{.text = std::move(text), .rate_limits = s.limits_of(opened.head)};
}

struct provider_body_stream::state {
    std::unique_ptr<net::detail::http_connection> connection;
    http_response_head head{};
    exchange_limits limits{};
    std::size_t streamed = 0;
};

provider_body_stream::provider_body_stream(std::shared_ptr<provider_transport> owner)
    : transport_(std::move(owner)), state_(std::make_unique<state>()) {}

provider_body_stream::~provider_body_stream() { close(); }

provider_body_stream::provider_body_stream(provider_body_stream&&) noexcept = default;

asio::awaitable<void> provider_body_stream::open(provider_request request, run_context context) {
    provider_transport::state& owner = *transport_->state_;
    state_->limits = owner.limits_from_now();
    auto opened = co_await owner.open(request, context, state_->limits);
    state_->connection = std::move(opened.connection);
    state_->head = std::move(opened.head);
}

std::string_view provider_body_stream::header(std::string_view name) const noexcept {
    return state_->head.header(name);
}

bool provider_body_stream::is_whole_json() const noexcept {
    return net::detail::has_media_type(header("content-type"), net::detail::json_media_type);
}

std::optional<rate_limits> provider_body_stream::rate_limits() const { return transport_->state_->limits_of(state_->head); }

asio::awaitable<std::string_view> provider_body_stream::read_some() {
    state& s = *state_;
    if (!s.connection) co_return std::string_view{};
    const std::string_view bytes = co_await s.connection->read_some(s.limits);
    if (bytes.empty()) {
        transport_->state_->pool.give_back(std::move(s.connection));
        co_return bytes;
    }
    s.streamed += bytes.size();
    const std::size_t limit = transport_->options().max_stream_bytes;
    if (s.streamed > limit)
        throw stream_error(stream_error_kind::stream_too_large,
                           "the response stream carried more than " + std::to_string(limit) +
                               " bytes (the client's max_stream_bytes) before it ended; raise the "
                               "limit or ask for a shorter answer");
    co_return bytes;
}

asio::awaitable<std::string> provider_body_stream::read_rest() {
    state& s = *state_;
    std::string text = co_await s.connection->read_body(transport_->options().max_response_body, s.limits);
    transport_->state_->pool.give_back(std::move(s.connection));
    co_return text;
}

void provider_body_stream::close() noexcept {
    if (!state_ || !state_->connection) return;
    state_->connection->close();
    state_->connection.reset();
}

} // namespace forma
