#include <forma/telemetry/otlp_http_exporter.hpp>

#include "../json/body_excerpt.hpp"
#include "../net/connection_pool.hpp"
#include "../net/credentials.hpp"

#include <forma/net/base_url.hpp>
#include <forma/registered_secret.hpp>
#include <forma/telemetry/otlp_json.hpp>

#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <atomic>
#include <cstdlib>
#include <deque>
#include <mutex>

namespace forma::telemetry {

namespace asio = boost::asio;

namespace {

constexpr std::size_t max_answer_body = 64 * 1024;

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

std::string base_url_of(const otlp_http_exporter_options& options) {
    if (!options.base_url.empty()) return options.base_url;
    std::string from_environment = environment("OTEL_EXPORTER_OTLP_ENDPOINT");
    return from_environment.empty() ? "http://localhost:4318" : from_environment;
}

attribute_list resource_of(const otlp_http_exporter_options& options) {
    attribute_list resource = options.resource;
    if (!find(resource, "service.name")) {
        std::string name = environment("OTEL_SERVICE_NAME");
        set(resource, "service.name", name.empty() ? std::string("unknown_service") : name);
    }
    set(resource, "telemetry.sdk.name", std::string("forma"));
    set(resource, "telemetry.sdk.language", std::string("cpp"));
    set(resource, "telemetry.sdk.version", std::string(library_version()));
    return resource;
}

} // namespace

struct otlp_http_exporter::state {
    state(executor_type ex, otlp_http_exporter_options opts, std::shared_ptr<const metric_store> store)
        : executor(std::move(ex)), options(std::move(opts)), server(net::parse_base_url(base_url_of(options))),
          traces_target(server.path + "/v1/traces"), metrics_target(server.path + "/v1/metrics"),
          resource(resource_of(options)),
          connections(executor, server,
                      server.tls ? net::detail::make_tls_client_context(options.trust)
                                 : nullptr,
                      1),
          metrics(std::move(store)), delay(executor), idle_signal(executor) {
        headers.assign(options.headers.begin(), options.headers.end());
        secrets.add_named(options.headers);
        idle_signal.expires_at(asio::steady_timer::time_point::max()); // only ever cancelled
    }

    // Whether the caller must start the send loop (after releasing `mutex`, which it holds:
    // co_spawn may run the loop at once, and the loop takes the mutex).
    bool claim_sending_locked() {
        if (sending) return false;
        return sending = true;
    }

    static void start_sending(const std::shared_ptr<state>& self) {
        asio::co_spawn(self->executor, send_loop(self), asio::detached);
    }

    static asio::awaitable<void> send_loop(std::shared_ptr<state> self) {
        for (;;) {
            bool now = false;
            {
                const std::lock_guard lock(self->mutex);
                now = self->urgent || self->queue.size() >= self->options.max_batch_size;
            }
            if (!now) {
                boost::system::error_code ignored; // cancelled by flush() or the destructor: send now
                self->delay.expires_after(self->options.schedule_delay);
                co_await self->delay.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
            }
            co_await self->send_pending();
            const std::lock_guard lock(self->mutex);
            if (self->queue.empty() && self->metrics->version() == self->metrics_sent) {
                self->sending = false;
                self->urgent = false;
                break;
            }
        }
        self->idle_signal.cancel(); // wakes flush()es
    }

    asio::awaitable<void> send_pending() {
        for (;;) {
            std::vector<span_data> batch;
            {
                const std::lock_guard lock(mutex);
                const std::size_t n = std::min(queue.size(), options.max_batch_size);
                batch.assign(std::make_move_iterator(queue.begin()), std::make_move_iterator(queue.begin() + n));
                queue.erase(queue.begin(), queue.begin() + n);
            }
            if (batch.empty()) break;
            if (co_await post(traces_target, otlp_traces_json(batch, resource)))
                exported += batch.size();
            else
                dropped += batch.size();
        }
        const auto version = metrics->version();
        if (version != metrics_sent) {
            metrics_sent = version;
            const auto snapshot = metrics->snapshot();
            co_await post(metrics_target, otlp_metrics_json(snapshot, resource));
        }
    }

    // One export request; false (counted, remembered) when it fails.
    asio::awaitable<bool> post(const std::string& target, std::string body) {
        const net::detail::http_request request{.method = "POST", .target = target, .content_type = "application/json",
                                                .accept = "application/json", .headers = &headers, .body = body};
        try {
            const net::detail::exchange_limits limits{
                .limits = options.timeouts, .deadline = std::chrono::steady_clock::now() + options.timeouts.total};
            auto answer = co_await connections.open(request, limits);
            const std::string text = co_await answer.connection->read_body(max_answer_body, limits);
            connections.give_back(std::move(answer.connection));
            if (answer.head.status / 100 == 2) co_return true;
            failed_with("the collector answered " + std::to_string(answer.head.status) + " to " + target + ": " +
                        json_detail::body_excerpt(text, 200));
        } catch (const std::exception& e) {
            failed_with(e.what());
        }
        co_return false;
    }

    void failed_with(const std::string& message) {
        ++failed;
        const std::lock_guard lock(mutex);
        last_error = redact_secrets(message);
    }

    executor_type executor;
    otlp_http_exporter_options options;
    net::base_url server;
    std::string traces_target;
    std::string metrics_target;
    attribute_list resource;
    net::detail::header_list headers;
    net::detail::credentials secrets;
    net::detail::connection_pool connections; // one kept connection: exports go one at a time
    std::shared_ptr<const metric_store> metrics;

    std::mutex mutex; // guards the members below it up to the timers
    std::deque<span_data> queue;
    bool sending = false;
    bool urgent = false;
    std::string last_error;

    std::atomic<std::uint64_t> exported{0};
    std::atomic<std::uint64_t> dropped{0};
    std::atomic<std::uint64_t> failed{0};

    // Only on the executor:
    std::uint64_t metrics_sent = 0;
    asio::steady_timer delay;
    asio::steady_timer idle_signal;
};

otlp_http_exporter::otlp_http_exporter(executor_type executor, otlp_http_exporter_options options)
    : state_(std::make_shared<state>(std::move(executor), std::move(options), store())) {}

otlp_http_exporter::~otlp_http_exporter() {
    // What is queued goes now rather than after the delay.
    {
        const std::lock_guard lock(state_->mutex);
        if (!state_->sending) return;
        state_->urgent = true;
    }
    asio::post(state_->executor, [s = state_] { s->delay.cancel(); });
}

void otlp_http_exporter::export_span(span_data span) {
    {
        const std::lock_guard lock(state_->mutex);
        if (state_->queue.size() >= state_->options.max_queue_size) {
            ++state_->dropped;
            return;
        }
        state_->queue.push_back(std::move(span));
        if (!state_->claim_sending_locked()) return;
    }
    state::start_sending(state_);
}

void otlp_http_exporter::on_metrics_recorded() {
    {
        const std::lock_guard lock(state_->mutex);
        if (!state_->claim_sending_locked()) return;
    }
    state::start_sending(state_);
}

asio::awaitable<void> otlp_http_exporter::flush() {
    auto s = state_;
    // Named, not a temporary in the co_await: GCC 12 destroys such a temporary twice.
    auto on_executor = [s]() -> asio::awaitable<void> {
        bool start = false;
        {
            const std::lock_guard lock(s->mutex);
            s->urgent = true;
            if (!s->sending) s->sending = start = true;
        }
        if (start) {
            co_await state::send_loop(s);
            co_return;
        }
        s->delay.cancel();
        boost::system::error_code ignored;
        co_await s->idle_signal.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    };
    co_await asio::co_spawn(s->executor, std::move(on_executor), asio::use_awaitable);
}

otlp_http_exporter::executor_type otlp_http_exporter::get_executor() const { return state_->executor; }

std::uint64_t otlp_http_exporter::exported_spans() const { return state_->exported; }
std::uint64_t otlp_http_exporter::dropped_spans() const { return state_->dropped; }
std::uint64_t otlp_http_exporter::failed_exports() const { return state_->failed; }

std::string otlp_http_exporter::last_error() const {
    const std::lock_guard lock(state_->mutex);
    return state_->last_error;
}

} // namespace forma::telemetry
