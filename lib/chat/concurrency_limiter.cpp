#include <forma/chat/concurrency_limiter.hpp>
#include <forma/model/rate_limits.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <cmath>
#include <deque>

namespace forma {

namespace asio = boost::asio;
using clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

// A token bucket that holds a minute's worth of `per_minute` and refills continuously.
// Taking more than is there leaves a debt that later requests wait out.
class minute_bucket {
public:
    explicit minute_bucket(double per_minute) : rate_(per_minute), level_(per_minute), updated_(clock::now()) {}

    bool limited() const noexcept { return rate_ > 0; }

    /// How long until `cost` (at most a full bucket) can be taken.
    milliseconds wait_for(double cost) {
        if (!limited()) return milliseconds::zero();
        refill();
        const double needed = std::min(cost, rate_) - level_;
        if (needed <= 0) return milliseconds::zero();
        return milliseconds(static_cast<std::int64_t>(std::ceil(needed * 60000.0 / rate_)));
    }
    void take(double cost) {
        if (limited()) level_ -= cost;
    }
    /// Gives back (or takes more) once the real cost is known.
    void adjust(double refund) {
        if (limited()) level_ = std::min(rate_, level_ + refund);
    }

private:
    void refill() {
        const auto now = clock::now();
        level_ = std::min(rate_, level_ + std::chrono::duration<double>(now - updated_).count() * rate_ / 60.0);
        updated_ = now;
    }

    double rate_;
    double level_;
    clock::time_point updated_;
};

struct waiter {
    waiter(const asio::any_io_executor& ex, double cost) : signal(ex), tokens(cost) {
        signal.expires_at(clock::time_point::max());
    }
    asio::steady_timer signal; // cancelled when admitted
    double tokens;
    std::exception_ptr failure; // the shared bucket could not be asked
    bool admitted = false;
    bool cancelled = false;
};

} // namespace

rate_limit_store::~rate_limit_store() = default;

struct concurrency_limiter::state : std::enable_shared_from_this<state> {
    state(std::shared_ptr<chat_client> c, concurrency_limiter_options o)
        : inner(std::move(c)), options(std::move(o)), executor(inner->get_executor()), wake(executor),
          requests(options.requests_per_minute), tokens(options.tokens_per_minute) {}

    std::shared_ptr<chat_client> inner; // kept by waiting requests and open streams
    concurrency_limiter_options options;
    asio::any_io_executor executor;
    asio::steady_timer wake; // the admission loop's wait: cancelled when something changes
    minute_bucket requests;
    minute_bucket tokens;
    token_estimator estimator;
    std::size_t in_flight = 0;
    std::deque<std::shared_ptr<waiter>> waiters;
    bool admitting = false;
    // What the provider last said, while it holds.
    clock::time_point requests_reset_at{};
    clock::time_point tokens_reset_at{};
    std::optional<std::int64_t> provider_tokens_left;
    bool provider_requests_exhausted = false;

    // What a request takes from the token bucket: its estimated input and its output allowance.
    double cost_of(const std::vector<chat_message>& messages, const chat_options& o) const {
        if (options.tokens_per_minute <= 0 && !options.follow_rate_limit_headers) return 0;
        return static_cast<double>(estimator.estimate(messages)) + static_cast<double>(o.max_output_tokens.value_or(0));
    }

    bool shared() const noexcept {
        return options.shared_store && (options.requests_per_minute > 0 || options.tokens_per_minute > 0);
    }

    // Waits for a slot and for the buckets, in FIFO order. Cancellable while queued.
    asio::awaitable<void> acquire(double cost) {
        if (options.max_queued != 0 && waiting() >= options.max_queued) {
            throw concurrency_limit_error("the concurrency limiter's queue is full: " + std::to_string(waiting()) +
                                          " waiting (max_queued), " + std::to_string(in_flight) + " in flight");
        }
        if (waiters.empty() && (options.max_in_flight == 0 || in_flight < options.max_in_flight) && !shared() &&
            provider_wait(cost) == milliseconds::zero() && take_locally(cost) == milliseconds::zero()) {
            ++in_flight; // nobody waits and there is room: no queue, no timer
            co_return;
        }
        auto me = std::make_shared<waiter>(executor, cost);
        waiters.push_back(me);
        if (!admitting) {
            admitting = true;
            asio::co_spawn(executor, admit_all(shared_from_this()), asio::detached);
        } else {
            wake.cancel();
        }
        // (co_spawn may run the admission at once, here: then there is nothing to wait for.)
        if (!me->admitted && !me->failure) {
            boost::system::error_code ec;
            co_await me->signal.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        }
        if (me->failure) std::rethrow_exception(me->failure);
        if (me->admitted) co_return;
        me->cancelled = true;
        wake.cancel(); // it may be at the head
        throw boost::system::system_error(asio::error::operation_aborted);
    }

    /// Requests waiting, the cancelled ones not yet dropped left out.
    std::size_t waiting() const {
        return static_cast<std::size_t>(
            std::count_if(waiters.begin(), waiters.end(), [](const auto& w) { return !w->cancelled; }));
    }

    void release() {
        --in_flight;
        wake.cancel();
    }

    // How long the provider's own word says to hold `cost` back.
    milliseconds provider_wait(double cost) {
        if (!options.follow_rate_limit_headers) return milliseconds::zero();
        const auto now = clock::now();
        milliseconds wait{0};
        if (provider_requests_exhausted && now < requests_reset_at)
            wait = std::max(wait, std::chrono::ceil<milliseconds>(requests_reset_at - now));
        if (provider_tokens_left && static_cast<double>(*provider_tokens_left) < cost && now < tokens_reset_at)
            wait = std::max(wait, std::chrono::ceil<milliseconds>(tokens_reset_at - now));
        return wait;
    }

    asio::awaitable<milliseconds> take_from_buckets(double cost) {
        if (shared()) co_return co_await options.shared_store->take(options.requests_per_minute, options.tokens_per_minute, cost);
        co_return take_locally(cost);
    }

    // Takes from the local buckets when both hold enough; else how long until they will.
    milliseconds take_locally(double cost) {
        const milliseconds wait = std::max(requests.wait_for(1), tokens.wait_for(cost));
        if (wait == milliseconds::zero()) {
            requests.take(1);
            tokens.take(cost);
        }
        return wait;
    }

    static asio::awaitable<void> admit_all(std::shared_ptr<state> self) {
        state& s = *self;
        while (!s.waiters.empty()) {
            const std::shared_ptr<waiter> head = s.waiters.front();
            if (head->cancelled) {
                s.waiters.pop_front();
                continue;
            }
            milliseconds wait{0};
            if (s.options.max_in_flight != 0 && s.in_flight >= s.options.max_in_flight) {
                wait = milliseconds::max(); // until a request ends
            } else if (const milliseconds told = s.provider_wait(head->tokens); told > milliseconds::zero()) {
                wait = told;
            } else {
                try {
                    wait = co_await s.take_from_buckets(head->tokens);
                } catch (...) {
                    // The shared bucket cannot be asked: this request fails with the reason.
                    s.waiters.pop_front();
                    head->failure = std::current_exception();
                    head->signal.cancel();
                    continue;
                }
            }
            if (wait == milliseconds::zero()) {
                s.waiters.pop_front();
                if (head->cancelled) continue; // cancelled while the bucket was asked: not taken back, a small loss
                ++s.in_flight;
                head->admitted = true;
                head->signal.cancel();
                continue;
            }
            if (wait == milliseconds::max()) {
                s.wake.expires_at(clock::time_point::max());
            } else {
                s.wake.expires_after(wait);
            }
            boost::system::error_code ignored;
            co_await s.wake.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
        }
        s.admitting = false;
    }

    // What a response says: the provider's limits, and the real input tokens.
    void observe(const std::optional<rate_limits>& said, const std::optional<usage_details>& usage, double estimated) {
        if (options.follow_rate_limit_headers) {
            if (said) {
                const auto now = clock::now();
                if (said->remaining_requests) {
                    provider_requests_exhausted = *said->remaining_requests == 0;
                    requests_reset_at = now + said->reset_requests.value_or(milliseconds(1000));
                }
                if (said->remaining_tokens) {
                    provider_tokens_left = said->remaining_tokens;
                    tokens_reset_at = now + said->reset_tokens.value_or(milliseconds(1000));
                }
            }
        }
        // The estimate of the input gives way to the count (the output allowance stays taken).
        if (usage && usage->input_token_count && !shared())
            tokens.adjust(estimated - static_cast<double>(*usage->input_token_count));
    }
};

concurrency_limiter::concurrency_limiter(std::shared_ptr<chat_client> inner, concurrency_limiter_options options)
    : delegating_chat_client(std::move(inner)), state_(std::make_shared<state>(shared_inner(), std::move(options))) {}

concurrency_limiter::concurrency_limiter(chat_client& inner, concurrency_limiter_options options)
    : delegating_chat_client(inner), state_(std::make_shared<state>(shared_inner(), std::move(options))) {}

concurrency_limiter::~concurrency_limiter() = default;

std::size_t concurrency_limiter::in_flight() const noexcept { return state_->in_flight; }
std::size_t concurrency_limiter::queued() const noexcept { return state_->waiting(); }
const concurrency_limiter_options& concurrency_limiter::options() const noexcept { return state_->options; }

asio::awaitable<agent_response<>> concurrency_limiter::get_response_core(chat_request request) {
    const auto s = state_;
    const double cost = s->cost_of(request.messages, request.options);
    const double estimated_input = cost - static_cast<double>(request.options.max_output_tokens.value_or(0));
    co_await s->acquire(cost);
    struct slot {
        state& s;
        ~slot() { s.release(); }
    } held{*s};
    agent_response<> response = co_await s->inner->get_response(std::move(request));
    s->observe(response.rate_limits, response.usage, estimated_input);
    co_return response;
}

// Takes its slot at the first next(), and gives it back when the stream ends, fails or goes.
class concurrency_limiter::limited_stream final : public update_source {
public:
    limited_stream(std::shared_ptr<state> s, chat_request request) : state_(std::move(s)), request_(std::move(request)) {}

    ~limited_stream() override { give_back(); }

    asio::awaitable<std::optional<agent_response_update>> next() override {
        if (!inner_) {
            const double cost = state_->cost_of(request_.messages, request_.options);
            estimated_input_ = cost - static_cast<double>(request_.options.max_output_tokens.value_or(0));
            co_await state_->acquire(cost);
            holding_ = true;
            inner_.emplace(state_->inner->get_streaming_response(std::move(request_)));
        }
        std::optional<agent_response_update> update;
        try {
            update = co_await inner_->next();
        } catch (...) {
            give_back();
            throw;
        }
        if (!update) {
            state_->observe(limits_, usage_, estimated_input_);
            give_back();
            co_return update;
        }
        if (update->rate_limits) limits_ = update->rate_limits;
        for (const content& c : update->contents)
            if (const auto* u = std::get_if<usage_content>(&c)) usage_ = u->details;
        co_return update;
    }

private:
    void give_back() {
        if (!holding_) return;
        holding_ = false;
        state_->release();
    }

    std::shared_ptr<state> state_;
    chat_request request_;
    std::optional<update_stream> inner_;
    bool holding_ = false;
    double estimated_input_ = 0;
    std::optional<rate_limits> limits_;
    std::optional<usage_details> usage_;
};

update_stream concurrency_limiter::get_streaming_response_core(chat_request request) {
    return update_stream(state_->executor, std::make_unique<limited_stream>(state_, std::move(request)));
}

} // namespace forma
