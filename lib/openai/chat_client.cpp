#include <forma/openai/chat_client.hpp>

#include "../net/http_connection.hpp"

#include <forma/net/base_url.hpp>
#include <forma/net/http_error.hpp>
#include <forma/net/transport_error.hpp>
#include <forma/openai/request_builder.hpp>
#include <forma/openai/response_parser.hpp>
#include <forma/openai/stream_parser.hpp>
#include <forma/telemetry/gen_ai.hpp>
#include <forma/telemetry/operation_span.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <random>

namespace forma::openai {

namespace asio = boost::asio;
using net::detail::exchange_limits;
using net::detail::http_connection;
using net::detail::http_response_head;
using clock = std::chrono::steady_clock;

namespace {

constexpr std::size_t max_error_body = 64 * 1024;

std::string replace_all(std::string text, std::string_view secret, std::string_view replacement) {
    if (secret.empty()) return text;
    for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at + replacement.size()))
        text.replace(at, secret.size(), replacement);
    return text;
}

// The provider's message may quote the key it was given ("Incorrect API key provided: sk-...").
http_error redacted(const http_error& e, std::string_view api_key) {
    return http_error(e.status(), e.type(), replace_all(e.message(), api_key, "[redacted]"), e.code(), e.param());
}

std::optional<std::chrono::milliseconds> server_retry_hint(const http_response_head& head) {
    if (auto ms = net::parse_retry_after_ms(head.header("retry-after-ms"))) return ms;
    return net::parse_retry_after(head.header("retry-after"), std::chrono::system_clock::now());
}

} // namespace

namespace detail {

struct chat_client_state {
    using executor_type = boost::asio::any_io_executor;

    chat_client_state(executor_type ex, client_options opts)
        : executor(std::move(ex)), options(std::move(opts)), server(net::parse_base_url(options.base_url)),
          random(std::random_device{}()) {
        if (server.tls)
            tls = net::detail::make_tls_client_context(
                {.verify_peer = options.verify_peer, .ca_file = options.ca_file, .ca_certificates = options.ca_certificates});
        if (options.azure) {
            if (options.azure->deployment.empty()) throw error("azure_options needs a deployment name");
            target = server.path + "/deployments/" + options.azure->deployment +
                     "/chat/completions?api-version=" + options.azure->api_version;
            if (options.model.empty()) options.model = options.azure->deployment;
            if (!options.api_key.empty()) headers.emplace_back("api-key", options.api_key);
        } else {
            target = server.path + "/chat/completions";
            if (!options.api_key.empty()) headers.emplace_back("Authorization", "Bearer " + options.api_key);
        }
        if (!options.organization.empty()) headers.emplace_back("OpenAI-Organization", options.organization);
        if (!options.project.empty()) headers.emplace_back("OpenAI-Project", options.project);
        for (const auto& header : options.headers) headers.push_back(header);
    }

    exchange_limits limits_from_now() const {
        exchange_limits limits{.limits = options.timeouts, .deadline = std::nullopt};
        if (options.timeouts.total > std::chrono::milliseconds::zero())
            limits.deadline = clock::now() + options.timeouts.total;
        return limits;
    }

    std::unique_ptr<http_connection> take_connection() {
        while (!idle.empty()) {
            auto connection = std::move(idle.back());
            idle.pop_back();
            if (connection->is_open()) return connection;
        }
        return std::make_unique<http_connection>(executor, server, tls);
    }

    void give_back(std::unique_ptr<http_connection> connection) {
        if (connection->reusable() && idle.size() < options.max_idle_connections) idle.push_back(std::move(connection));
    }

    http_error provider_error(unsigned status, std::string_view body) const {
        return redacted(parse_error(static_cast<int>(status), body), options.api_key);
    }

    struct opened_response {
        std::unique_ptr<http_connection> connection;
        http_response_head head;
    };

    provider_metadata provider() const {
        return {.name = options.azure ? "azure.ai.openai" : "openai",
                .server_address = server.host,
                .server_port = server.port,
                .default_model = options.model};
    }

    // The span of one call, a child of the span its options carry (none without one).
    telemetry::operation_span start_span(const std::vector<chat_message>& messages, const chat_options& request,
                                         bool stream) const {
        if (!request.telemetry) return telemetry::operation_span({}, {});
        const std::string& model = request.model.empty() ? options.model : request.model;
        std::string name(telemetry::gen_ai::operation::chat);
        if (!model.empty()) name.append(" ").append(model);
        return telemetry::operation_span(*request.telemetry, {.operation_name = telemetry::gen_ai::operation::chat,
                                                              .span_name = std::move(name),
                                                              .provider = provider(),
                                                              .request = &request,
                                                              .streaming = stream,
                                                              .input_messages = &messages});
    }

    // The client's headers, with the W3C traceparent of the call's span when it has one.
    net::detail::header_list headers_for(const telemetry::operation_span& span) const {
        net::detail::header_list out = headers;
        if (span.recording()) out.emplace_back("traceparent", telemetry::to_traceparent(span.context()));
        return out;
    }

    // Sends `body` until a 2xx response's head arrives, retrying what the policy allows.
    asio::awaitable<opened_response> open(const std::string& body, const net::detail::header_list& request_headers,
                                          bool stream, const exchange_limits& limits) {
        const net::detail::http_request request{.method = "POST",
                                                .target = target,
                                                .content_type = "application/json",
                                                .accept = stream ? "text/event-stream" : "application/json",
                                                .headers = &request_headers,
                                                .body = body};
        for (int retry = 0;; ++retry) {
            std::exception_ptr failure;
            std::optional<std::chrono::milliseconds> hint;
            auto connection = take_connection();
            const bool reused = connection->is_open();
            try {
                co_await connection->connect(limits);
                http_response_head head = co_await connection->send(request, limits);
                if (head.status / 100 == 2) co_return opened_response{std::move(connection), std::move(head)};
                std::string error_body;
                try {
                    error_body = co_await connection->read_body(max_error_body, limits);
                    give_back(std::move(connection));
                } catch (const transport_error&) {
                    // The status says enough.
                }
                http_error failed = provider_error(head.status, error_body);
                if (!net::is_retryable_status(head.status) || retry >= options.retry.max_retries) throw failed;
                hint = server_retry_hint(head);
                if (hint && *hint > options.retry.max_retry_after) throw failed;
                failure = std::make_exception_ptr(std::move(failed));
            } catch (const transport_error& e) {
                // A kept connection the server has closed meanwhile: try a new one (only then, so
                // that a request the server may be working on is never sent twice for free).
                if (reused && e.before_response() && e.kind() == transport_error_kind::closed) {
                    --retry;
                    continue;
                }
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
    client_options options;
    net::base_url server;
    std::string target;
    net::detail::header_list headers;
    std::shared_ptr<ssl_ctx_st> tls;
    std::vector<std::unique_ptr<http_connection>> idle;
    std::minstd_rand random;
};

} // namespace detail

namespace {

using client_state = std::shared_ptr<detail::chat_client_state>;

agent_response<> parse_redacted(const detail::chat_client_state& state, std::string_view text, unsigned status) {
    try {
        return parse_response(text, static_cast<int>(status));
    } catch (const http_error& e) {
        throw redacted(e, state.options.api_key);
    }
}

asio::awaitable<agent_response<>> complete(client_state state, std::string body, telemetry::operation_span span) {
    try {
        const exchange_limits limits = state->limits_from_now();
        const auto headers = state->headers_for(span);
        auto opened = co_await state->open(body, headers, false, limits);
        std::string text = co_await opened.connection->read_body(state->options.max_response_body, limits);
        state->give_back(std::move(opened.connection));
        agent_response<> response = parse_redacted(*state, text, opened.head.status);
        span.end(response);
        co_return response;
    } catch (...) {
        span.fail(std::current_exception());
        throw;
    }
}

// A streamed response: the request is sent on the first next(); the body is read as it is consumed.
class response_stream final : public update_source {
public:
    response_stream(client_state state, std::string body, telemetry::operation_span span)
        : state_(std::move(state)), body_(std::move(body)), span_(std::move(span)),
          parser_({.sse = {.max_event_size = state_->options.max_stream_event}, .keep_raw_chunks = false}) {}

    asio::awaitable<std::optional<agent_response_update>> next() override {
        if (ended_) co_return std::nullopt;
        try {
            if (!connection_) co_await start();
            for (;;) {
                std::optional<agent_response_update> update;
                if (whole_next_ < whole_.size())
                    update = std::move(whole_[whole_next_++]);
                else
                    update = parser_.next(pending_);
                if (update) {
                    span_.add_update(*update);
                    co_return update;
                }
                if (body_ended_) {
                    if (!replied_whole_) parser_.finish();
                    ended_ = true;
                    state_->give_back(std::move(connection_));
                    span_.end();
                    co_return std::nullopt;
                }
                pending_ = co_await connection_->read_some(limits_);
                body_ended_ = pending_.empty();
                count_streamed(pending_.size());
            }
        } catch (const http_error& e) {
            fail();
            const http_error safe = redacted(e, state_->options.api_key);
            span_.fail(std::make_exception_ptr(safe));
            throw safe;
        } catch (...) {
            fail();
            span_.fail(std::current_exception());
            throw;
        }
    }

private:
    asio::awaitable<void> start() {
        limits_ = state_->limits_from_now();
        const auto headers = state_->headers_for(span_);
        auto opened = co_await state_->open(body_, headers, true, limits_);
        connection_ = std::move(opened.connection);
        body_.clear();
        body_.shrink_to_fit();
        // A server that ignores "stream" answers with one JSON body: hand it out as updates.
        if (opened.head.header("content-type").starts_with("application/json")) {
            replied_whole_ = true;
            const std::string text = co_await connection_->read_body(state_->options.max_response_body, limits_);
            whole_ = parse_redacted(*state_, text, opened.head.status).to_updates();
            body_ended_ = true;
        }
    }

    void count_streamed(std::size_t bytes) {
        streamed_ += bytes;
        const std::size_t limit = state_->options.max_stream_bytes;
        if (streamed_ > limit)
            throw stream_error(stream_error_kind::stream_too_large,
                               "the response stream carried more than " + std::to_string(limit) +
                                   " bytes (client_options::max_stream_bytes) before it ended; raise the "
                                   "limit or ask for a shorter answer");
    }

    void fail() noexcept {
        ended_ = true;
        if (connection_) connection_->close();
        connection_.reset();
    }

    client_state state_;
    std::string body_;
    telemetry::operation_span span_;
    stream_parser parser_;
    exchange_limits limits_{};
    std::unique_ptr<http_connection> connection_;
    std::string_view pending_{};
    std::vector<agent_response_update> whole_{}; // a whole response's updates, handed out in turn
    std::size_t whole_next_ = 0;
    std::size_t streamed_ = 0; // body bytes read so far
    bool body_ended_ = false;
    bool replied_whole_ = false;
    bool ended_ = false;
};

} // namespace

chat_client::chat_client(executor_type executor, client_options options)
    : state_(std::make_shared<detail::chat_client_state>(std::move(executor), std::move(options))) {}

chat_client::~chat_client() = default;

chat_client::executor_type chat_client::get_executor() const { return state_->executor; }

provider_metadata chat_client::provider() const { return state_->provider(); }

const client_options& chat_client::options() const noexcept { return state_->options; }

std::size_t chat_client::idle_connections() const noexcept { return state_->idle.size(); }

asio::awaitable<agent_response<>> chat_client::get_response(std::vector<chat_message> messages,
                                                            chat_options options) {
    // Built now, so that a request that cannot be expressed fails before any I/O.
    std::string body = boost::json::serialize(build_request(messages, options, state_->options.model, false));
    return complete(state_, std::move(body), state_->start_span(messages, options, false));
}

update_stream chat_client::get_streaming_response(std::vector<chat_message> messages, chat_options options) {
    std::string body = boost::json::serialize(build_request(messages, options, state_->options.model, true));
    return update_stream(state_->executor, std::make_unique<response_stream>(state_, std::move(body),
                                                                              state_->start_span(messages, options, true)));
}

} // namespace forma::openai
