#include "transport.hpp"

#include <forma/error.hpp>
#include <forma/net/retry_policy.hpp>
#include <forma/net/stream_error.hpp>
#include <forma/net/transport_error.hpp>
#include <forma/openai/response_parser.hpp>
#include <forma/telemetry/gen_ai.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace forma::openai::detail {

namespace asio = boost::asio;
using net::detail::exchange_limits;
using net::detail::http_connection;
using net::detail::http_response_head;
using clock = std::chrono::steady_clock;

namespace {

constexpr std::size_t max_error_body = 64 * 1024;

std::optional<std::chrono::milliseconds> server_retry_hint(const http_response_head& head) {
    if (auto ms = net::parse_retry_after_ms(head.header("retry-after-ms"))) return ms;
    return net::parse_retry_after(head.header("retry-after"), std::chrono::system_clock::now());
}

} // namespace

transport::transport(executor_type executor, client_options options)
    : executor_(std::move(executor)), options_(std::move(options)), server_(net::parse_base_url(options_.base_url)),
      tls_(server_.tls ? net::detail::make_tls_client_context(options_.trust)
                       : nullptr),
      pool_(executor_, server_, tls_, options_.max_idle_connections), random_(std::random_device{}()) {
    secrets_.add(options_.api_key);
    secrets_.add_named(options_.headers);
    if (options_.azure) {
        if (options_.azure->deployment.empty()) throw error("azure_options needs a deployment name");
        if (options_.model.empty()) options_.model = options_.azure->deployment;
        if (!options_.api_key.empty()) headers_.emplace_back("api-key", options_.api_key);
    } else if (!options_.api_key.empty()) {
        headers_.emplace_back("Authorization", "Bearer " + options_.api_key);
    }
    if (!options_.organization.empty()) headers_.emplace_back("OpenAI-Organization", options_.organization);
    if (!options_.project.empty()) headers_.emplace_back("OpenAI-Project", options_.project);
    for (const auto& header : options_.headers) headers_.push_back(header);
}

std::string transport::target(std::string_view path, std::string_view query) const {
    std::string out = server_.path;
    out.append(path);
    if (options_.azure) {
        out.append("?api-version=").append(options_.azure->api_version);
        if (!query.empty()) out.append("&").append(query);
    } else if (!query.empty()) {
        out.append("?").append(query);
    }
    return out;
}

provider_metadata transport::provider() const {
    return {.name = options_.azure ? "azure.ai.openai" : "openai",
            .server_address = server_.host,
            .server_port = server_.port,
            .default_model = options_.model};
}

exchange_limits transport::limits_from_now() const {
    exchange_limits limits{.limits = options_.timeouts, .deadline = std::nullopt};
    if (options_.timeouts.total > std::chrono::milliseconds::zero())
        limits.deadline = clock::now() + options_.timeouts.total;
    return limits;
}

telemetry::operation_span transport::start_span(const std::vector<chat_message>& messages,
                                                const chat_options& request, const run_context& context,
                                                bool stream) const {
    if (!context.trace) return telemetry::operation_span({}, {});
    const std::string& model = request.model.empty() ? options_.model : request.model;
    std::string name(telemetry::gen_ai::operation::chat);
    if (!model.empty()) name.append(" ").append(model);
    return telemetry::operation_span(*context.trace, {.operation_name = telemetry::gen_ai::operation::chat,
                                                          .span_name = std::move(name),
                                                          .provider = provider(),
                                                          .request = &request,
                                                          .streaming = stream,
                                                          .input_messages = &messages});
}

asio::awaitable<transport::opened_response> transport::open(const request_line& request,
                                                            const telemetry::operation_span& span,
                                                            const exchange_limits& limits) {
    net::detail::header_list request_headers = headers_;
    if (span.recording()) request_headers.emplace_back("traceparent", telemetry::to_traceparent(span.context()));
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
            auto opened = co_await pool_.open(http, limits);
            if (opened.head.status / 100 == 2) co_return opened;
            std::string error_body;
            try {
                error_body = co_await opened.connection->read_body(max_error_body, limits);
                give_back(std::move(opened.connection));
            } catch (const transport_error&) {
                // The status says enough.
            }
            http_error failed = parse_error(static_cast<int>(opened.head.status), error_body);
            if (!net::is_retryable_status(opened.head.status) || retry >= options_.retry.max_retries) throw failed;
            hint = server_retry_hint(opened.head);
            if (hint && *hint > options_.retry.max_retry_after) throw failed;
            failure = std::make_exception_ptr(std::move(failed));
        } catch (const transport_error& e) {
            const bool repeatable = e.before_response() && e.kind() != transport_error_kind::tls;
            if (!repeatable || retry >= options_.retry.max_retries) throw;
            failure = std::current_exception();
        }
        const auto delay = net::retry_delay(options_.retry, retry + 1, hint,
                                            std::uniform_real_distribution<double>(0.0, 1.0)(random_));
        if (limits.deadline && clock::now() + delay >= *limits.deadline) std::rethrow_exception(failure);
        asio::steady_timer timer(executor_, delay);
        co_await timer.async_wait(asio::use_awaitable);
    }
}

asio::awaitable<transport::exchanged_body> transport::exchange(const request_line& request,
                                                                const telemetry::operation_span& span) {
    const exchange_limits limits = limits_from_now();
    auto opened = co_await open(request, span, limits);
    std::string text = co_await opened.connection->read_body(options_.max_response_body, limits);
    give_back(std::move(opened.connection));
    co_return exchanged_body{.text = std::move(text), .limits = rate_limits_of(opened.head)};
}

asio::awaitable<void> streamed_body::open(const request_line& request, const telemetry::operation_span& span) {
    limits_ = transport_->limits_from_now();
    auto opened = co_await transport_->open(request, span, limits_);
    connection_ = std::move(opened.connection);
    head_ = std::move(opened.head);
}

asio::awaitable<std::string_view> streamed_body::read_some() {
    if (!connection_) co_return std::string_view{};
    const std::string_view bytes = co_await connection_->read_some(limits_);
    if (bytes.empty()) {
        transport_->give_back(std::move(connection_));
        co_return bytes;
    }
    streamed_ += bytes.size();
    const std::size_t limit = transport_->options().max_stream_bytes;
    if (streamed_ > limit)
        throw stream_error(stream_error_kind::stream_too_large,
                           "the response stream carried more than " + std::to_string(limit) +
                               " bytes (client_options::max_stream_bytes) before it ended; raise the "
                               "limit or ask for a shorter answer");
    co_return bytes;
}

asio::awaitable<std::string> streamed_body::read_rest() {
    std::string text = co_await connection_->read_body(transport_->options().max_response_body, limits_);
    transport_->give_back(std::move(connection_));
    co_return text;
}

void streamed_body::close() noexcept {
    if (connection_) connection_->close();
    connection_.reset();
}

} // namespace forma::openai::detail
