#include <forma/redis/client.hpp>

#include "../json/json_text.hpp"
#include "../net/credentials.hpp"
#include "../net/tls_client.hpp"
#include "../net/tls_stream.hpp"
#include "reply_reader.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <openssl/ssl.h>

#include <algorithm>
#include <array>
#include <deque>

namespace forma::redis {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using std::chrono::milliseconds;
using clock = std::chrono::steady_clock;

namespace {

constexpr auto as_result = asio::as_tuple(asio::use_awaitable);

std::string duration_text(milliseconds d) {
    return d.count() % 1000 == 0 ? std::to_string(d.count() / 1000) + " s" : std::to_string(d.count()) + " ms";
}

// Commands sent together, and their replies as they come.
struct batch {
    explicit batch(asio::any_io_executor ex) : signal(std::move(ex)) {}
    asio::steady_timer signal; // cancelled when the batch is done
    std::string bytes;
    std::size_t expected = 0;
    std::size_t received = 0;
    std::string label; // "GET", or "a pipeline of 3 commands", for messages
    std::vector<reply> replies;
    std::optional<redis_error> failure;
    bool done = false;
    bool written = false;
    bool abandoned = false; // its waiter left (cancelled): replies are read and dropped

    void finish() {
        done = true;
        signal.cancel();
    }
};

// A server error reply that is about credentials is an auth error.
redis_error_kind kind_of_error_reply(std::string_view text) {
    return text.starts_with("NOAUTH") || text.starts_with("WRONGPASS") ? redis_error_kind::auth : redis_error_kind::server;
}

std::string first_word_upper(std::string_view name) {
    std::string out(name.substr(0, 40));
    for (char& c : out) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    return json_detail::valid_utf8(out);
}

} // namespace

// One connection: its socket, its parser, and the batches queued and sent on it.
struct connection {
    connection(const asio::any_io_executor& ex, std::size_t max_reply_bytes)
        : resolver(ex), socket(ex), watchdog(ex), reader(max_reply_bytes) {}

    tcp::resolver resolver;
    tcp::socket socket;
    net::detail::ssl_handle ssl;
    std::optional<net::detail::tls_stream> secure;
    asio::steady_timer watchdog; // bounds the connect
    bool timed_out = false;
    detail::reply_reader reader;
    std::array<char, 16 * 1024> read_buffer{};
    std::deque<std::shared_ptr<batch>> unsent;
    std::deque<std::shared_ptr<batch>> sent;
    bool writing = false;
    bool broken = false;

    void close_socket() noexcept {
        error_code ignored;
        resolver.cancel();
        socket.shutdown(tcp::socket::shutdown_both, ignored);
        socket.close(ignored);
    }
};

struct client::state : std::enable_shared_from_this<state> {
    state(asio::any_io_executor ex, client_options o)
        : executor(std::move(ex)), options(std::move(o)), connect_signal(executor), backoff_timer(executor) {
        name = "redis at " + json_detail::valid_utf8(options.host) + ":" + std::to_string(options.port);
        secrets.add(options.password);
        connect_signal.expires_at(clock::time_point::max());
    }

    asio::any_io_executor executor;
    client_options options;
    net::detail::credentials secrets;
    std::string name;
    std::shared_ptr<ssl_ctx_st> tls; // made at the first TLS connect
    std::shared_ptr<connection> current;
    std::shared_ptr<connection> opening;
    bool connecting = false;
    std::uint64_t attempts = 0;
    std::uint64_t failed_attempt = 0; // the attempt last_failure is of
    std::optional<redis_error> last_failure;
    milliseconds backoff{0};
    clock::time_point retry_not_before{};
    asio::steady_timer connect_signal; // cancelled when an attempt ends
    asio::steady_timer backoff_timer;
    bool closed = false;

    redis_error closed_error() const { return redis_error(redis_error_kind::closed, name + ": the client is closed"); }

    // Fails every batch of `c` and closes it; `reason` is said of the server. (`c` by value: it
    // may be `current`, which this resets.)
    void break_connection(std::shared_ptr<connection> c, redis_error_kind kind, const std::string& reason,
                          error_code code = {}) {
        if (c->broken) return;
        c->broken = true;
        c->close_socket();
        c->watchdog.cancel();
        if (current == c) current.reset();
        for (auto& b : c->sent) {
            if (b->done) continue;
            b->failure.emplace(kind, name + " " + reason + ": " + b->label + " was sent and may have run", true, code);
            b->finish();
        }
        for (auto& b : c->unsent) {
            if (b->done) continue;
            b->failure.emplace(kind, name + " " + reason + ": " + b->label + " was not sent", false, code);
            b->finish();
        }
        c->sent.clear();
        c->unsent.clear();
    }

    static std::string io_reason(const error_code& ec) {
        if (ec == asio::error::eof || ec == asio::ssl::error::stream_truncated) return "closed the connection";
        return "broke the connection (" + ec.message() + ")";
    }

    // Writes whatever is queued, in one write per round, until nothing is.
    static asio::awaitable<void> write_all(std::shared_ptr<state> self, std::shared_ptr<connection> c) {
        std::string out;
        while (!c->broken && !c->unsent.empty()) {
            out.clear();
            for (auto& b : c->unsent) {
                if (b->done) continue; // cancelled before it was sent
                if (out.empty()) {
                    out.swap(b->bytes); // one batch alone (the usual case) is not copied
                } else {
                    out += b->bytes;
                }
                b->bytes = std::string();
                b->written = true;
                c->sent.push_back(b);
            }
            c->unsent.clear();
            if (out.empty()) break;
            error_code ec;
            if (c->secure) {
                std::tie(ec, std::ignore) = co_await asio::async_write(*c->secure, asio::buffer(out), as_result);
            } else {
                std::tie(ec, std::ignore) = co_await asio::async_write(c->socket, asio::buffer(out), as_result);
            }
            if (ec) self->break_connection(c, c->timed_out ? redis_error_kind::timeout : redis_error_kind::closed,
                                           io_reason(ec), ec);
        }
        c->writing = false;
    }

    // Reads replies and hands each to the oldest batch sent, until the connection ends.
    static asio::awaitable<void> read_all(std::shared_ptr<state> self, std::shared_ptr<connection> c) {
        reply next;
        while (!c->broken) {
            error_code ec;
            std::size_t n = 0;
            if (c->secure) {
                std::tie(ec, n) = co_await c->secure->async_read_some(asio::buffer(c->read_buffer), as_result);
            } else {
                std::tie(ec, n) = co_await c->socket.async_read_some(asio::buffer(c->read_buffer), as_result);
            }
            if (c->broken) break;
            if (ec) {
                self->break_connection(c, c->timed_out ? redis_error_kind::timeout : redis_error_kind::closed,
                                       io_reason(ec), ec);
                break;
            }
            if (!c->reader.feed(c->read_buffer.data(), n)) {
                self->reader_failed(c);
                break;
            }
            for (;;) {
                const auto status = c->reader.next(next);
                if (status == detail::reply_reader::status::failed) {
                    self->reader_failed(c);
                    break;
                }
                if (status == detail::reply_reader::status::need_more) break;
                if (!self->deliver(c, std::move(next))) break;
            }
        }
    }

    void reader_failed(const std::shared_ptr<connection>& c) {
        if (c->reader.too_large())
            break_connection(c, redis_error_kind::reply_too_large,
                             "sent a reply larger than " + std::to_string(options.max_reply_bytes) +
                                 " bytes (max_reply_bytes), or announced one");
        else
            break_connection(c, redis_error_kind::protocol,
                             "sent bytes that are not RESP (" + json_detail::valid_utf8(c->reader.error()) + ")");
    }

    bool deliver(const std::shared_ptr<connection>& c, reply r) {
        if (c->sent.empty()) {
            break_connection(c, redis_error_kind::protocol, "sent a reply to no command");
            return false;
        }
        batch& b = *c->sent.front();
        if (!b.abandoned) b.replies.push_back(std::move(r));
        if (++b.received < b.expected) return true;
        const auto finished = c->sent.front();
        c->sent.pop_front();
        if (!finished->done) finished->finish();
        return true;
    }

    // Queues `b` on `c` and waits for its replies, its failure, the timeout or the caller's cancellation.
    asio::awaitable<void> run_on(std::shared_ptr<connection> c, std::shared_ptr<batch> b, milliseconds timeout) {
        if (timeout > milliseconds::zero()) {
            b->signal.expires_after(timeout);
        } else {
            b->signal.expires_at(clock::time_point::max());
        }
        c->unsent.push_back(b);
        if (!c->writing) {
            c->writing = true;
            asio::co_spawn(executor, write_all(shared_from_this(), c), asio::detached);
        }
        error_code ec;
        co_await b->signal.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        if (!b->done) {
            if (ec == asio::error::operation_aborted) { // the caller's cancellation
                b->done = true;
                if (b->written) {
                    b->abandoned = true;
                } else {
                    std::erase(c->unsent, b);
                }
                throw boost::system::system_error(asio::error::operation_aborted);
            }
            // Its reply is late: later replies could no longer be matched, so the connection goes.
            break_connection(c, redis_error_kind::timeout, "did not answer within " + duration_text(timeout) +
                                                               " (command_timeout)");
        }
        if (b->failure) throw *b->failure;
    }

    std::shared_ptr<batch> make_batch(const std::vector<command>& commands) {
        auto b = std::make_shared<batch>(executor);
        for (const command& cmd : commands) detail::append_command(b->bytes, cmd);
        b->expected = commands.size();
        b->label = commands.size() == 1 ? first_word_upper(commands.front().name())
                                        : "a pipeline of " + std::to_string(commands.size()) + " commands";
        return b;
    }

    asio::awaitable<std::vector<reply>> run(const std::vector<command>& commands) {
        const auto keep_alive = shared_from_this();
        auto b = make_batch(commands);
        std::shared_ptr<connection> c = co_await acquire();
        co_await run_on(std::move(c), b, options.command_timeout);
        co_return std::move(b->replies);
    }

    redis_error error_reply(const std::string& label, const reply& r) const {
        return redis_error(kind_of_error_reply(r.text), name + " answered " + label + " with an error: " +
                                                            json_detail::valid_utf8(r.text));
    }

    // The open connection, or a new one; commands wait for an attempt under way.
    asio::awaitable<std::shared_ptr<connection>> acquire() {
        for (;;) {
            if (closed) throw closed_error();
            if (current) co_return current;
            if (!connecting) co_return co_await open_connection();
            const std::uint64_t attempt = attempts;
            error_code ec;
            co_await connect_signal.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            if (connecting && attempts == attempt) throw boost::system::system_error(asio::error::operation_aborted);
            if (!current && last_failure && failed_attempt == attempt) throw *last_failure;
        }
    }

    asio::awaitable<std::shared_ptr<connection>> open_connection() {
        connecting = true;
        const std::uint64_t attempt = ++attempts;
        struct end_attempt {
            state* s;
            ~end_attempt() {
                s->connecting = false;
                s->opening.reset();
                s->connect_signal.cancel();
            }
        } on_exit{this};

        if (clock::now() < retry_not_before) { // a recent attempt failed: not at once again
            backoff_timer.expires_at(retry_not_before);
            co_await backoff_timer.async_wait(asio::use_awaitable);
        }
        auto c = std::make_shared<connection>(executor, options.max_reply_bytes);
        opening = c;
        try {
            co_await open(c);
        } catch (const redis_error& e) {
            break_connection(c, e.kind(), "failed while connecting");
            if (closed) throw closed_error();
            last_failure = e;
            failed_attempt = attempt;
            backoff = backoff == milliseconds::zero() ? options.reconnect_backoff
                                                      : std::min(backoff * 2, options.reconnect_backoff_max);
            retry_not_before = clock::now() + backoff;
            throw;
        } catch (...) {
            break_connection(c, redis_error_kind::closed, "was left while connecting");
            throw;
        }
        if (closed) {
            break_connection(c, redis_error_kind::closed, "is no longer wanted: the client is closed");
            throw closed_error();
        }
        backoff = milliseconds::zero();
        retry_not_before = {};
        last_failure.reset();
        current = c;
        co_return c;
    }

    redis_error connect_failure(const std::shared_ptr<connection>& c, redis_error_kind kind, std::string message,
                                error_code ec) const {
        if (c->timed_out) {
            return redis_error(redis_error_kind::timeout, "connecting to " + name + " took longer than " +
                                                              duration_text(options.connect_timeout) + " (connect_timeout)",
                               false, ec);
        }
        return redis_error(kind, std::move(message), false, ec);
    }

    // Resolves, connects, shakes hands, and sends AUTH, SELECT and CLIENT SETNAME.
    asio::awaitable<void> open(std::shared_ptr<connection> c) {
        if (options.connect_timeout > milliseconds::zero()) {
            c->watchdog.expires_after(options.connect_timeout);
            c->watchdog.async_wait([weak = std::weak_ptr<connection>(c)](const error_code& ec) {
                if (ec) return;
                if (auto alive = weak.lock()) {
                    alive->timed_out = true;
                    alive->close_socket();
                }
            });
        }
        const auto rethrow_cancellation = [&](const error_code& ec) {
            if (ec == asio::error::operation_aborted && !c->timed_out && !closed)
                throw boost::system::system_error(ec);
        };
        auto [resolve_error, endpoints] =
            co_await c->resolver.async_resolve(options.host, std::to_string(options.port), as_result);
        rethrow_cancellation(resolve_error);
        if (resolve_error) {
            throw connect_failure(c, redis_error_kind::connect,
                                  "cannot resolve the host name of " + name + ": " + resolve_error.message(), resolve_error);
        }
        error_code connect_error = asio::error::host_not_found;
        for (const auto& entry : endpoints) {
            if (c->timed_out) break;
            error_code ignored;
            c->socket.close(ignored);
            std::tie(connect_error) = co_await c->socket.async_connect(entry.endpoint(), as_result);
            rethrow_cancellation(connect_error);
            if (!connect_error) break;
        }
        if (connect_error || c->timed_out) {
            throw connect_failure(c, redis_error_kind::connect, "cannot connect to " + name + ": " + connect_error.message(),
                                  connect_error);
        }
        error_code ignored;
        c->socket.set_option(tcp::no_delay(true), ignored);
        if (options.tls) {
            if (!tls) {
                tls = net::detail::make_tls_client_context(options.trust);
            }
            c->socket.non_blocking(true, ignored);
            c->ssl = net::detail::start_tls_session(tls.get(), c->socket.native_handle(), options.host);
            c->secure.emplace(c->socket, c->ssl.get());
            auto [handshake_error, unused] = co_await c->secure->async_handshake(as_result);
            rethrow_cancellation(handshake_error);
            if (handshake_error) {
                throw connect_failure(c, redis_error_kind::tls,
                                      net::detail::tls_handshake_failure(c->ssl.get(), name, handshake_error), handshake_error);
            }
        }
        asio::co_spawn(executor, read_all(shared_from_this(), c), asio::detached);
        co_await greet(c);
        c->watchdog.cancel();
    }

    asio::awaitable<void> greet(const std::shared_ptr<connection>& c) {
        std::vector<command> hello;
        if (!options.password.empty()) {
            hello.push_back(options.username.empty() ? command("AUTH", options.password)
                                                     : command("AUTH", options.username, options.password));
        }
        if (options.database != 0) hello.emplace_back("SELECT", options.database);
        if (!options.client_name.empty()) hello.emplace_back("CLIENT", "SETNAME", options.client_name);
        if (hello.empty()) co_return;
        auto b = make_batch(hello);
        try {
            co_await run_on(c, b, milliseconds::zero()); // bounded by the watchdog
        } catch (const redis_error& e) {
            throw connect_failure(c, e.kind(), e.what(), e.code());
        }
        for (std::size_t i = 0; i < hello.size(); ++i) {
            const reply& r = b->replies[i];
            if (!r.is_error()) continue;
            const std::string& what = hello[i].name();
            if (what == "AUTH") {
                const std::string user = options.username.empty() ? std::string("the default user")
                                                                   : "user \"" + json_detail::valid_utf8(options.username) + "\"";
                throw redis_error(redis_error_kind::auth, name + " refused AUTH for " + user + ": " +
                                                              json_detail::valid_utf8(r.text));
            }
            throw error_reply(what == "SELECT" ? "SELECT " + std::to_string(options.database) : "CLIENT SETNAME", r);
        }
    }

    void close() {
        closed = true;
        if (current) break_connection(current, redis_error_kind::closed, "is no longer reachable: the client was closed");
        if (opening) opening->close_socket();
        backoff_timer.cancel();
    }
};

client::client(executor_type executor, client_options options)
    : state_(std::make_shared<state>(std::move(executor), std::move(options))) {}

client::~client() { state_->close(); }

client::executor_type client::get_executor() const noexcept { return state_->executor; }
const client_options& client::options() const noexcept { return state_->options; }
const std::string& client::name() const noexcept { return state_->name; }

// Each operation keeps the state alive: the client may be destroyed while it waits.
asio::awaitable<void> client::connect() {
    const auto s = state_;
    co_await s->acquire();
}

asio::awaitable<reply> client::execute(command cmd) {
    const auto s = state_;
    std::vector<command> one;
    one.push_back(std::move(cmd));
    std::vector<reply> replies = co_await s->run(one);
    if (replies.front().is_error()) throw s->error_reply(first_word_upper(one.front().name()), replies.front());
    co_return std::move(replies.front());
}

asio::awaitable<std::vector<reply>> client::execute(std::vector<command> commands) {
    const auto s = state_;
    if (commands.empty()) co_return std::vector<reply>();
    co_return co_await s->run(commands);
}

asio::awaitable<reply> client::eval(const script& lua, std::vector<std::string> keys, std::vector<std::string> arguments) {
    const auto s = state_;
    // The arguments are moved into the first form, and back out for the second.
    std::vector<command> call;
    call.emplace_back("EVALSHA", lua.sha1(), keys.size());
    for (auto& k : keys) call.front().arg(std::move(k));
    for (auto& a : arguments) call.front().arg(std::move(a));
    std::vector<reply> replies = co_await s->run(call);
    if (replies.front().is_error() && replies.front().text.starts_with("NOSCRIPT")) {
        std::vector<std::string> again = std::move(call.front()).take_arguments();
        again[0] = "EVAL";
        again[1] = lua.source();
        call.front() = command(std::move(again));
        replies = co_await s->run(call);
    }
    if (replies.front().is_error()) throw s->error_reply("a script (EVAL)", replies.front());
    co_return std::move(replies.front());
}

void client::close() { state_->close(); }

} // namespace forma::redis
