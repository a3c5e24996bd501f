#include "push_notifier.hpp"

#include <forma/agent/agent.hpp>
#include <forma/error.hpp>
#include <forma/net/base_url.hpp>
#include <forma/net/transport_error.hpp>

#include "../json/json_members.hpp"
#include "../json/json_text.hpp"
#include "../net/http_connection.hpp"
#include "../net/tls_client.hpp"
#include "task_wire.hpp"
#include "wire_v1.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace forma::a2a {

namespace {

namespace ip = boost::asio::ip;

bool is_public_v4(const ip::address_v4& a) noexcept {
    const auto b = a.to_bytes();
    return !(a.is_loopback() || a.is_unspecified() || a.is_multicast() || b[0] == 0 || b[0] == 10 ||
             (b[0] == 172 && (b[1] & 0xF0) == 16) || (b[0] == 192 && b[1] == 168) || (b[0] == 169 && b[1] == 254) ||
             (b[0] == 100 && (b[1] & 0xC0) == 64) || b[0] >= 240);
}

} // namespace

bool is_public_address(const ip::address& address) noexcept {
    if (address.is_v4()) return is_public_v4(address.to_v4());
    const ip::address_v6 a = address.to_v6();
    if (a.is_v4_mapped()) return is_public_v4(ip::make_address_v4(ip::v4_mapped, a));
    const auto b = a.to_bytes();
    return !(a.is_loopback() || a.is_unspecified() || a.is_multicast() || a.is_link_local() || a.is_site_local() ||
             (b[0] & 0xFE) == 0xFC);
}

} // namespace forma::a2a

namespace forma::a2a::detail {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace ip = boost::asio::ip;
using clock = std::chrono::steady_clock;

// How long a follower waits on a quiet task before it looks again.
constexpr std::chrono::seconds quiet_task{30};
// A webhook's answer is read (so that the connection ends cleanly) up to this, then dropped.
constexpr std::size_t max_answer = 64 * 1024;

std::function<bool(const ip::address&)> allowed_by(const push_notification_options& options) {
    if (options.allow_address) return options.allow_address;
    return [](const ip::address& a) { return is_public_address(a); };
}

// A webhook URL taken apart: the base (scheme, host, port, path) and the query after it.
struct webhook {
    net::base_url base;
    std::string target;
};

webhook parse_webhook(const std::string& url) {
    const std::size_t query = url.find('?');
    webhook w;
    try {
        w.base = net::parse_base_url(url.substr(0, query));
    } catch (const forma::error& e) {
        throw std::invalid_argument("the push notification url cannot be reached: " + std::string(e.what()));
    }
    w.target = (w.base.path.empty() ? std::string("/") : w.base.path) + (query == std::string::npos ? std::string() : url.substr(query));
    return w;
}

const json::object* object_member(const json::object& o, std::string_view key) {
    const json::value* v = o.if_contains(key);
    return v ? v->if_object() : nullptr;
}

} // namespace

push_config push_config_fields(const json::object& given) {
    const json::object* nested = object_member(given, "pushNotificationConfig");
    const json::object& o = nested ? *nested : given;
    push_config config{.id = json_detail::string_member(o, "id"), .task_id = json_detail::string_member(given, "taskId"),
                       .url = json_detail::string_member(o, "url"), .token = json_detail::string_member(o, "token")};
    if (const json::object* auth = object_member(o, "authentication")) {
        config.scheme = json_detail::string_member(*auth, "scheme");
        if (const json::value* schemes = auth->if_contains("schemes"); config.scheme.empty() && schemes && schemes->is_array() &&
                                                                         !schemes->get_array().empty() && schemes->get_array()[0].is_string())
            config.scheme = schemes->get_array()[0].get_string();
        config.credentials = json_detail::string_member(*auth, "credentials");
    }
    return config;
}

push_config read_push_config(const json::object& given, std::string task_id, protocol_version version,
                             const push_notification_options& options) {
    push_config config = push_config_fields(given);
    config.task_id = std::move(task_id);
    config.version = version;
    if (config.url.empty()) throw std::invalid_argument("a push notification config needs a url (the webhook's)");
    const webhook w = parse_webhook(config.url);
    boost::system::error_code ec;
    const ip::address literal = ip::make_address(w.base.host, ec);
    if (!ec && !allowed_by(options)(literal))
        throw std::invalid_argument("the push notification url names " + w.base.host +
                                    ", an address this agent does not send to (loopback, private and link-local addresses are refused)");
    for (const std::string* field : {&config.scheme, &config.credentials, &config.token})
        if (field->find_first_of("\r\n") != std::string::npos)
            throw std::invalid_argument("a push notification config's token and authentication hold no line breaks");
    return config;
}

json::object push_config_object(const push_config& config) {
    json::object details{{"url", json_detail::valid_utf8(config.url)}};
    if (!config.id.empty()) details["id"] = json_detail::valid_utf8(config.id);
    if (!config.token.empty()) details["token"] = json_detail::valid_utf8(config.token);
    if (!config.scheme.empty()) {
        json::object auth;
        if (config.version == protocol_version::v1_0) auth["scheme"] = json_detail::valid_utf8(config.scheme);
        else auth["schemes"] = json::array{json::string(json_detail::valid_utf8(config.scheme))};
        if (!config.credentials.empty()) auth["credentials"] = json_detail::valid_utf8(config.credentials);
        details["authentication"] = std::move(auth);
    }
    if (config.version == protocol_version::v0_3) return {{"taskId", config.task_id}, {"pushNotificationConfig", std::move(details)}};
    details["taskId"] = config.task_id;
    return details;
}

struct push_notifier::state : std::enable_shared_from_this<state> {
    struct task_entry {
        std::vector<push_config> configs;
        std::unique_ptr<asio::cancellation_signal> stop; // while a follower runs
        std::uint64_t ended = 0;                          // when its task ended (an order), 0 while it runs
    };

    state(asio::any_io_executor ex, std::shared_ptr<task_store> t, push_notification_options o, bool data)
        : executor(std::move(ex)), tasks(std::move(t)), options(std::move(o)), allowed(allowed_by(options)), as_data(data) {}

    asio::any_io_executor executor;
    std::shared_ptr<task_store> tasks;
    push_notification_options options;
    std::function<bool(const ip::address&)> allowed;
    bool as_data;
    std::map<std::string, task_entry> entries; // by task id
    std::size_t configs = 0;
    std::uint64_t endings = 0;
    push_delivery_counts counts;
    std::shared_ptr<ssl_ctx_st> tls; // made at the first https webhook
    bool closed = false;

    // Room for one more config: the configs of the task that ended first go.
    void make_room() {
        while (configs >= options.max_configs) {
            auto oldest = entries.end();
            for (auto it = entries.begin(); it != entries.end(); ++it)
                if (it->second.ended != 0 && !it->second.stop && (oldest == entries.end() || it->second.ended < oldest->second.ended)) oldest = it;
            if (oldest == entries.end())
                throw error("the agent keeps " + std::to_string(configs) + " push notification configs of running tasks, its limit (max_configs)");
            configs -= oldest->second.configs.size();
            entries.erase(oldest);
        }
    }

    void start(const agent_task& task) {
        task_entry& entry = entries[task.id];
        if (is_final(task.state)) {
            if (entry.ended == 0) entry.ended = ++endings;
            return;
        }
        if (entry.stop || closed) return;
        entry.stop = std::make_unique<asio::cancellation_signal>();
        asio::co_spawn(executor, follow(shared_from_this(), task.id, task.state, task.updates.size(), task.version),
                       asio::bind_cancellation_slot(entry.stop->slot(), asio::detached));
    }

    // Watches a task until it ends (or has no config left), notifying each change of its state.
    static asio::awaitable<void> follow(std::shared_ptr<state> self, std::string task_id, task_state sent, std::size_t next,
                                        std::uint64_t version) {
        bool ended = false;
        try {
            while (!self->closed && !self->configs_of(task_id).empty()) {
                std::optional<task_changes> changes = co_await self->tasks->changes(task_id, next, version, quiet_task);
                if (!changes) break; // gone from the store
                if (changes->version == version) continue;
                version = changes->version;
                next = changes->next;
                if (changes->state == sent) continue;
                std::optional<agent_task> task = co_await self->tasks->load(task_id);
                if (!task) break;
                sent = task->state;
                version = task->version;
                next = task->updates.size();
                std::vector<json::value> events;
                if (sent == task_state::completed)
                    if (json::array parts = task_view(*task).answer_parts(self->as_data); !parts.empty())
                        events.push_back(artifact_update(*task, std::move(parts), false, true));
                events.push_back(status_update(*task, self->as_data));
                for (const push_config& config : self->configs_of(task_id))
                    for (const json::value& event : events) co_await self->deliver(config, event);
                ended = is_final(sent);
                if (ended) break;
            }
        } catch (const std::exception&) {
            // Canceled (the server stops), or the store failed: this task's notifications end.
        }
        const auto it = self->entries.find(task_id);
        if (it == self->entries.end()) co_return;
        it->second.stop.reset();
        if (ended && it->second.ended == 0) it->second.ended = ++self->endings;
        if (it->second.configs.empty()) self->entries.erase(it);
    }

    std::vector<push_config> configs_of(const std::string& task_id) const {
        const auto it = entries.find(task_id);
        return it == entries.end() ? std::vector<push_config>() : it->second.configs;
    }

    enum class outcome { delivered, again, refused };

    // One notification to one webhook, tried again after a failure that may pass.
    asio::awaitable<void> deliver(const push_config& config, const json::value& event_0_3) {
        const json::value event = config.version == protocol_version::v1_0 ? v1::result(event_0_3, true) : event_0_3;
        const std::string body = json_detail::serialize_utf8(event);
        std::chrono::milliseconds pause = options.retry_after;
        for (int attempt = 1;; ++attempt) {
            const outcome o = co_await post(config, body);
            if (o == outcome::delivered) {
                ++counts.delivered;
                co_return;
            }
            if (o == outcome::refused || attempt >= options.attempts) {
                ++counts.failed;
                co_return;
            }
            asio::steady_timer wait(executor, pause);
            co_await wait.async_wait(asio::use_awaitable);
            pause *= 2;
        }
    }

    asio::awaitable<outcome> post(const push_config& config, const std::string& body) {
        const webhook w = parse_webhook(config.url);
        if (w.base.tls && !tls) tls = net::detail::make_tls_client_context(options.trust);
        net::detail::http_connection connection(executor, w.base, w.base.tls ? tls : nullptr);
        connection.only_to(allowed);
        net::detail::header_list headers;
        if (!config.scheme.empty()) headers.emplace_back("Authorization", config.scheme + (config.credentials.empty() ? "" : " " + config.credentials));
        if (!config.token.empty()) headers.emplace_back("X-A2A-Notification-Token", config.token);
        const net::detail::http_request request{.method = "POST", .target = w.target, .headers = &headers, .body = body};
        const net::detail::exchange_limits limits{.limits = {.connect = options.timeout, .idle = options.timeout, .total = options.timeout},
                                                  .deadline = clock::now() + options.timeout};
        unsigned status = 0;
        try {
            co_await connection.connect(limits);
            status = (co_await connection.send(request, limits)).status;
            (void)co_await connection.read_body(max_answer, limits);
        } catch (const transport_error& e) {
            if (e.code() == asio::error::access_denied) co_return outcome::refused;
            if (status == 0) co_return outcome::again;
            // The answer's body broke off: its status said what happened.
        }
        if (status / 100 == 2) co_return outcome::delivered;
        co_return status == 429 || status >= 500 ? outcome::again : outcome::refused;
    }
};

push_notifier::push_notifier(asio::any_io_executor executor, std::shared_ptr<task_store> tasks, push_notification_options options, bool as_data)
    : state_(std::make_shared<state>(std::move(executor), std::move(tasks), std::move(options), as_data)) {}

push_notifier::~push_notifier() {
    state_->closed = true;
    for (auto& [id, entry] : state_->entries)
        if (entry.stop) entry.stop->emit(asio::cancellation_type::terminal);
}

push_config push_notifier::add(push_config config, const agent_task& task) {
    state& s = *state_;
    if (config.id.empty()) config.id = make_unique_id();
    std::vector<push_config>& kept = s.entries[task.id].configs;
    const auto same = std::find_if(kept.begin(), kept.end(), [&](const push_config& c) { return c.id == config.id; });
    if (same != kept.end()) {
        *same = config;
    } else {
        if (kept.size() >= s.options.max_configs_per_task)
            throw error("the task " + task.id + " has " + std::to_string(kept.size()) + " push notification configs, its limit (max_configs_per_task)");
        s.make_room(); // may drop this very entry, when its task is the one that ended first
        s.entries[task.id].configs.push_back(config);
        ++s.configs;
    }
    s.start(task);
    return config;
}

std::optional<push_config> push_notifier::find(const std::string& task_id, const std::string& id) const {
    for (const push_config& c : state_->configs_of(task_id))
        if (c.id == id) return c;
    return std::nullopt;
}

std::vector<push_config> push_notifier::of_task(const std::string& task_id) const { return state_->configs_of(task_id); }

bool push_notifier::remove(const std::string& task_id, const std::string& id) {
    state& s = *state_;
    const auto it = s.entries.find(task_id);
    if (it == s.entries.end()) return false;
    std::vector<push_config>& kept = it->second.configs;
    const auto found = std::find_if(kept.begin(), kept.end(), [&](const push_config& c) { return c.id == id; });
    if (found == kept.end()) return false;
    kept.erase(found);
    --s.configs;
    // A follower sees that no config is left when the task next changes (or within quiet_task)
    // and erases the entry; a config added before then keeps it going.
    if (kept.empty() && !it->second.stop) s.entries.erase(it);
    return true;
}

push_delivery_counts push_notifier::counts() const noexcept { return state_->counts; }

} // namespace forma::a2a::detail
