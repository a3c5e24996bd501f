// forma::redis::task_store: served tasks in Redis, for a fleet of servers.
#include <forma/error.hpp>
#include <forma/redis/redis_error.hpp>
#include <forma/redis/script.hpp>
#include <forma/redis/task_store.hpp>

#include "../agent/task_listing.hpp"
#include "../json/json_text.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <charconv>
#include <map>
#include <set>

namespace forma::redis {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;

// What every script shares: the server's time in ms; the TTL of both keys (ARGV[1], ms; '0':
// none); a task's time of update, which is also its place in its owner's listing (a sorted set
// named in the task's 'index' field, of task keys by time); a running task whose claim has lapsed
// failed (the instance that ran it is gone); a change of the task's own hash: touched, its version
// the next, both keys kept.
#define FORMA_TASK_SCRIPT_PRELUDE                                                                                   \
    "local function now_ms() local t = redis.call('TIME') "                                                       \
    "return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) end\n"                                      \
    "local function keep() if ARGV[1] ~= '0' then redis.call('PEXPIRE', KEYS[1], ARGV[1]) "                      \
    "redis.call('PEXPIRE', KEYS[2], ARGV[1]) end end\n"                                                          \
    "local function touch(key, t) redis.call('HSET', key, 'updated', t) "                                         \
    "local index = redis.call('HGET', key, 'index') if index then redis.call('ZADD', index, t, key) "             \
    "if ARGV[1] ~= '0' then redis.call('PEXPIRE', index, ARGV[1]) end end end\n"                                 \
    "local function lapse(key, why) local state = redis.call('HGET', key, 'state') "                              \
    "if (state == 'submitted' or state == 'working') and "                                                        \
    "tonumber(redis.call('HGET', key, 'lease_until') or '0') < now_ms() then "                                    \
    "redis.call('HSET', key, 'state', 'failed', 'error', why) touch(key, now_ms()) "                              \
    "redis.call('HINCRBY', key, 'version', 1) end end\n"                                                          \
    "local function changed(t) touch(KEYS[1], t) local version = redis.call('HINCRBY', KEYS[1], 'version', 1) "   \
    "keep() return version end\n"

// KEYS: hash, updates, the owner's listing. ARGV: ttl, lease, context_id, state, error, properties,
// input, owner, updates... 1 when created, 0 when the id is taken.
const script create_script(FORMA_TASK_SCRIPT_PRELUDE R"lua(
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local t = now_ms()
redis.call('HSET', KEYS[1], 'context_id', ARGV[3], 'state', ARGV[4], 'error', ARGV[5], 'properties', ARGV[6],
           'input', ARGV[7], 'owner', ARGV[8], 'cancel', '0', 'version', '1', 'created', t, 'index', KEYS[3],
           'lease_until', t + tonumber(ARGV[2]))
touch(KEYS[1], t)
for i = 9, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
keep()
return 1
)lua");

// KEYS: hash, updates. ARGV: ttl, lease, updates... The new version, or -1 for no task.
const script append_script(FORMA_TASK_SCRIPT_PRELUDE R"lua(
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
for i = 3, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
local t = now_ms()
redis.call('HSET', KEYS[1], 'lease_until', t + tonumber(ARGV[2]))
return changed(t)
)lua");

// KEYS: hash, updates. ARGV: ttl, lease, state, error, the state it must have now ('': any).
// The new version; 0 when the task is not in that state; -1 for no task.
const script set_state_script(FORMA_TASK_SCRIPT_PRELUDE R"lua(
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if ARGV[5] ~= '' and redis.call('HGET', KEYS[1], 'state') ~= ARGV[5] then return 0 end
local t = now_ms()
redis.call('HSET', KEYS[1], 'state', ARGV[3], 'error', ARGV[4], 'lease_until', t + tonumber(ARGV[2]))
return changed(t)
)lua");

// KEYS: hash, updates. ARGV: ttl. -1 for no task, 1 when asked now, 0 when asked before or final.
const script cancel_script(FORMA_TASK_SCRIPT_PRELUDE R"lua(
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local state = redis.call('HGET', KEYS[1], 'state')
if redis.call('HGET', KEYS[1], 'cancel') == '1' or state == 'completed' or state == 'failed' or state == 'canceled' then return 0 end
redis.call('HSET', KEYS[1], 'cancel', '1')
changed(now_ms())
return 1
)lua");

// KEYS: hash, updates. ARGV: ttl, the index of the first update wanted, why an unclaimed
// running task failed, "whole" (the hash) or "changes" (state, error, cancel, version).
// nil for no task; else {fields, updates from the index, the number of updates}. A running
// task whose claim has lapsed is failed first.
const script read_script(FORMA_TASK_SCRIPT_PRELUDE R"lua(
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
lapse(KEYS[1], ARGV[3])
local fields
if ARGV[4] == 'whole' then fields = redis.call('HGETALL', KEYS[1])
else fields = redis.call('HMGET', KEYS[1], 'state', 'error', 'cancel', 'version') end
return {fields, redis.call('LRANGE', KEYS[2], ARGV[2], -1), redis.call('LLEN', KEYS[2])}
)lua");

// KEYS: an owner's listing. ARGV: ttl, why an unclaimed running task failed, context ('': any),
// state ('': any), updated since (ms, '': any time), page size, the page's cursor (ms and task
// key; '' '': the first page). {the number of tasks that match, the page's task keys, the time
// of the last one when more follow, else ''}. Expired tasks leave the listing.
const script list_script(FORMA_TASK_SCRIPT_PRELUDE R"lua(
for _, key in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if redis.call('EXISTS', key) == 0 then redis.call('ZREM', KEYS[1], key) else lapse(key, ARGV[2]) end
end
local since = tonumber(ARGV[5])
local size = tonumber(ARGV[6])
local after_ms = tonumber(ARGV[7])
local total, page, last_t, more = 0, {}, 0, ''
local listed = redis.call('ZREVRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for i = 1, #listed, 2 do
  local key, t = listed[i], tonumber(listed[i + 1])
  local fields = redis.call('HMGET', key, 'context_id', 'state')
  if (ARGV[3] == '' or fields[1] == ARGV[3]) and (ARGV[4] == '' or fields[2] == ARGV[4]) and (not since or t >= since) then
    total = total + 1
    if not after_ms or t < after_ms or (t == after_ms and key < ARGV[8]) then
      if #page < size then page[#page + 1] = key last_t = t
      elseif more == '' then more = string.format('%d', last_t) end
    end
  end
end
return {total, page, more}
)lua");

// KEYS: the hashes of the tasks this instance runs. ARGV: lease. Renews the claims of those still running.
const script renew_script(R"lua(
local t = redis.call('TIME')
local until_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
for _, key in ipairs(KEYS) do
  local state = redis.call('HGET', key, 'state')
  if state == 'submitted' or state == 'working' then redis.call('HSET', key, 'lease_until', until_ms) end
end
return #KEYS
)lua");

#undef FORMA_TASK_SCRIPT_PRELUDE

constexpr std::string_view lapsed_claim = "the server running this task stopped before it ended";

bool runs(task_state s) noexcept { return s == task_state::submitted || s == task_state::working; }

// An id with a ':' could name another task's list of updates ("<id>:updates"): no task has one.
bool possible_id(const std::string& id) noexcept { return !id.empty() && id.find(':') == std::string::npos; }

void check_id(const std::string& id) {
    if (!possible_id(id)) throw error("the task id \"" + json_detail::valid_utf8(id) + "\" cannot be stored in Redis: ids are not empty and hold no ':'");
}

std::uint64_t number_of(const std::string& text) {
    std::uint64_t n = 0;
    std::from_chars(text.data(), text.data() + text.size(), n);
    return n;
}

std::chrono::system_clock::time_point time_of(const std::string& ms) {
    return std::chrono::system_clock::time_point(std::chrono::milliseconds(number_of(ms)));
}

} // namespace

struct task_store::state : std::enable_shared_from_this<state> {
    state(std::shared_ptr<client> r, task_store_options o) : redis(std::move(r)), options(std::move(o)) {}

    std::shared_ptr<client> redis;
    task_store_options options;
    std::set<std::string> claimed;                                        // ids of the running tasks written here
    struct watch {
        std::shared_ptr<asio::steady_timer> changed; // canceled at a write here
        int watchers = 0;
    };
    std::map<std::string, watch> watches; // of the tasks changes() waits on here
    std::shared_ptr<asio::steady_timer> renewal;                          // the renewal's pause, while it runs
    bool closed = false;

    std::string hash_key(const std::string& id) const { return options.key_prefix + id; }
    // A task id holds no ':', so that no task's keys begin with prefix + ":".
    std::string listing_key(const std::string& owner) const { return options.key_prefix + ":owner:" + owner; }
    std::vector<std::string> keys_of(const std::string& id) const { return {hash_key(id), hash_key(id) + ":updates"}; }
    std::string ttl() const { return std::to_string(options.ttl.count()); }
    std::string lease() const { return std::to_string(options.lease.count()); }

    asio::awaitable<reply> eval(const script& lua, const std::string& id, std::vector<std::string> arguments) {
        reply r = co_await redis->eval(lua, keys_of(id), std::move(arguments));
        co_return r;
    }

    // A write here: wakes this instance's watchers of the task, and claims or releases it.
    void wrote(const std::string& id, std::optional<task_state> now) {
        if (const auto it = watches.find(id); it != watches.end()) {
            it->second.changed->cancel();
            watches.erase(it);
        }
        if (!now) return;
        if (runs(*now)) claim(id);
        else claimed.erase(id);
    }

    void claim(const std::string& id) {
        claimed.insert(id);
        if (renewal || closed) return;
        renewal = std::make_shared<asio::steady_timer>(redis->get_executor());
        asio::co_spawn(redis->get_executor(), renew(shared_from_this()), asio::detached);
    }

    // Renews the claims of the running tasks written here, every third of the lease, while there are any.
    static asio::awaitable<void> renew(std::shared_ptr<state> self) {
        const std::shared_ptr<asio::steady_timer> pause = self->renewal;
        while (!self->closed && !self->claimed.empty()) {
            pause->expires_after(std::max<std::chrono::milliseconds>(self->options.lease / 3, std::chrono::milliseconds(1)));
            co_await pause->async_wait(asio::as_tuple(asio::use_awaitable));
            if (self->closed || self->claimed.empty()) break;
            std::vector<std::string> keys;
            for (const std::string& id : self->claimed) keys.push_back(self->hash_key(id));
            try {
                std::vector<std::string> arguments{self->lease()};
                (void)co_await self->redis->eval(renew_script, std::move(keys), std::move(arguments));
            } catch (const std::exception&) {
                // Redis is away for now: the next round tries again, within the lease.
            }
        }
        self->renewal.reset();
    }

    // The read script's answer for `id`: nullopt for no task.
    asio::awaitable<std::optional<reply>> read(const std::string& id, std::size_t from, bool whole) {
        std::vector<std::string> arguments{ttl(), std::to_string(from), std::string(lapsed_claim), whole ? "whole" : "changes"};
        reply r = co_await eval(read_script, id, std::move(arguments));
        if (r.is_nil()) co_return std::nullopt;
        if (r.kind != reply_kind::array || r.elements.size() != 3 || r.elements[0].kind != reply_kind::array ||
            r.elements[1].kind != reply_kind::array)
            throw redis_error(redis_error_kind::protocol, redis->name() + " answered the task read script with a " +
                                                              std::string(to_string(r.kind)) + " forma did not ask for");
        co_return std::move(r);
    }

    agent_response_update update_of(const reply& r, const std::string& id) const {
        try {
            return json::value_to<agent_response_update>(json::parse(r.text));
        } catch (const std::exception& e) {
            throw redis_error(redis_error_kind::foreign_data, redis->name() + ": an update of the task \"" + json_detail::valid_utf8(id) +
                                                                  "\" is not forma's (" + json_detail::valid_utf8(e.what()) + ")");
        }
    }

    task_state state_named(const std::string& name, const std::string& id) const {
        if (std::optional<task_state> s = task_state_from_string(name)) return *s;
        throw redis_error(redis_error_kind::foreign_data, redis->name() + ": the key \"" + json_detail::valid_utf8(hash_key(id)) +
                                                              "\" holds no forma task (its state is \"" + json_detail::valid_utf8(name) + "\")");
    }
};

task_store::task_store(std::shared_ptr<client> redis, task_store_options options)
    : state_(std::make_shared<state>(std::move(redis), std::move(options))) {}

task_store::~task_store() {
    state_->closed = true;
    if (state_->renewal) state_->renewal->cancel();
    for (auto& [id, w] : state_->watches) w.changed->cancel();
}

task_store::executor_type task_store::get_executor() const { return state_->redis->get_executor(); }

const task_store_options& task_store::options() const noexcept { return state_->options; }

asio::awaitable<void> task_store::create(agent_task task) {
    check_id(task.id);
    const auto s = state_;
    std::vector<std::string> arguments{s->ttl(), s->lease(), task.context_id, std::string(to_string(task.state)), task.error,
                                       json_detail::serialize_utf8(task.properties),
                                       json_detail::serialize_utf8(json::value_from(task.input)), task.owner};
    for (const agent_response_update& u : task.updates) arguments.push_back(json_detail::serialize_utf8(json::value_from(u)));
    std::vector<std::string> keys = s->keys_of(task.id);
    keys.push_back(s->listing_key(task.owner));
    const reply r = co_await s->redis->eval(create_script, std::move(keys), std::move(arguments));
    if (r.integer != 1) throw error("a task " + json_detail::valid_utf8(task.id) + " is already in the task store");
    s->wrote(task.id, task.state);
}

asio::awaitable<std::optional<agent_task>> task_store::load(std::string id) {
    if (!possible_id(id)) co_return std::nullopt;
    const auto s = state_;
    std::optional<reply> r = co_await s->read(id, 0, true);
    if (!r) co_return std::nullopt;
    std::map<std::string, std::string> fields;
    const std::vector<reply>& flat = r->elements[0].elements;
    for (std::size_t i = 0; i + 1 < flat.size(); i += 2) fields[flat[i].text] = flat[i + 1].text;
    agent_task task{.id = id, .context_id = fields["context_id"], .owner = fields["owner"], .state = s->state_named(fields["state"], id)};
    try {
        task.input = json::value_to<std::vector<chat_message>>(json::parse(fields["input"]));
        task.properties = json::parse(fields["properties"]).as_object();
    } catch (const std::exception& e) {
        throw redis_error(redis_error_kind::foreign_data, s->redis->name() + ": the task \"" + json_detail::valid_utf8(id) +
                                                              "\" holds what is not forma's (" + json_detail::valid_utf8(e.what()) + ")");
    }
    for (const reply& u : r->elements[1].elements) task.updates.push_back(s->update_of(u, id));
    task.error = fields["error"];
    task.cancel_requested = fields["cancel"] == "1";
    task.version = number_of(fields["version"]);
    task.created = time_of(fields["created"]);
    task.updated = time_of(fields["updated"]);
    co_return task;
}

asio::awaitable<void> task_store::append(std::string id, std::vector<agent_response_update> updates) {
    check_id(id);
    const auto s = state_;
    std::vector<std::string> arguments{s->ttl(), s->lease()};
    for (const agent_response_update& u : updates) arguments.push_back(json_detail::serialize_utf8(json::value_from(u)));
    const reply r = co_await s->eval(append_script, id, std::move(arguments));
    if (r.integer < 0) throw error("no task " + json_detail::valid_utf8(id) + " in the task store");
    s->wrote(id, std::nullopt);
}

asio::awaitable<void> task_store::set_state(std::string id, task_state new_state, std::string why) {
    check_id(id);
    const auto s = state_;
    std::vector<std::string> arguments{s->ttl(), s->lease(), std::string(to_string(new_state)), std::move(why), ""};
    const reply r = co_await s->eval(set_state_script, id, std::move(arguments));
    if (r.integer < 0) throw error("no task " + json_detail::valid_utf8(id) + " in the task store");
    s->wrote(id, new_state);
}

asio::awaitable<bool> task_store::transition(std::string id, task_state from, task_state to) {
    if (!possible_id(id)) co_return false;
    const auto s = state_;
    std::vector<std::string> arguments{s->ttl(), s->lease(), std::string(to_string(to)), "", std::string(to_string(from))};
    const reply r = co_await s->eval(set_state_script, id, std::move(arguments));
    if (r.integer <= 0) co_return false;
    s->wrote(id, to);
    co_return true;
}

asio::awaitable<std::optional<agent_task>> task_store::request_cancel(std::string id) {
    if (!possible_id(id)) co_return std::nullopt;
    const auto s = state_;
    std::vector<std::string> arguments{s->ttl()};
    const reply r = co_await s->eval(cancel_script, id, std::move(arguments));
    if (r.integer < 0) co_return std::nullopt;
    if (r.integer == 1) s->wrote(id, std::nullopt);
    co_return co_await load(std::move(id));
}

asio::awaitable<task_page> task_store::list(task_query query) {
    const auto s = state_;
    std::optional<agent_detail::task_cursor> after;
    if (!query.page_token.empty()) after = agent_detail::cursor_of(query.page_token);
    const std::size_t size = std::max<std::size_t>(query.page_size, 1);
    std::vector<std::string> arguments{s->ttl(),
                                       std::string(lapsed_claim),
                                       query.context_id,
                                       query.state ? std::string(to_string(*query.state)) : "",
                                       query.updated_since ? std::to_string(agent_detail::epoch_ms(*query.updated_since)) : "",
                                       std::to_string(size),
                                       after ? std::to_string(after->updated_ms) : "",
                                       after ? s->hash_key(after->id) : ""};
    std::vector<std::string> keys{s->listing_key(query.owner)};
    const reply r = co_await s->redis->eval(list_script, std::move(keys), std::move(arguments));
    if (r.kind != reply_kind::array || r.elements.size() != 3 || r.elements[1].kind != reply_kind::array)
        throw redis_error(redis_error_kind::protocol, s->redis->name() + " answered the task listing script with a " +
                                                          std::string(to_string(r.kind)) + " forma did not ask for");
    task_page page{.total = static_cast<std::size_t>(std::max<std::int64_t>(r.elements[0].integer, 0))};
    for (const reply& key : r.elements[1].elements) {
        if (!key.text.starts_with(s->options.key_prefix)) continue;
        // Gone since the listing (expired, or deleted): the page is shorter.
        std::optional<agent_task> task = co_await load(key.text.substr(s->options.key_prefix.size()));
        if (task) page.tasks.push_back(std::move(*task));
    }
    if (!r.elements[2].text.empty() && !r.elements[1].elements.empty()) {
        const std::string& last_key = r.elements[1].elements.back().text;
        page.next_page_token = agent_detail::page_token(
            {static_cast<std::int64_t>(number_of(r.elements[2].text)), last_key.substr(std::min(s->options.key_prefix.size(), last_key.size()))});
    }
    co_return page;
}

asio::awaitable<std::optional<task_changes>> task_store::changes(std::string id, std::size_t from, std::uint64_t seen_version,
                                                                 std::chrono::milliseconds wait) {
    if (!possible_id(id)) co_return std::nullopt;
    const auto s = state_;
    const auto deadline = std::chrono::steady_clock::now() + wait;
    std::chrono::milliseconds pause = s->options.poll_interval;
    for (;;) {
        std::optional<reply> r = co_await s->read(id, from, false);
        if (!r) co_return std::nullopt;
        const std::vector<reply>& f = r->elements[0].elements;
        if (f.size() != 4) throw redis_error(redis_error_kind::protocol, s->redis->name() + " answered HMGET of a task with a short array");
        task_changes out{.state = s->state_named(f[0].text, id), .error = f[1].text, .cancel_requested = f[2].text == "1",
                         .next = std::max<std::size_t>(from, static_cast<std::size_t>(r->elements[2].integer)), .version = number_of(f[3].text)};
        const auto now = std::chrono::steady_clock::now();
        if (out.version != seen_version || now >= deadline) {
            for (const reply& u : r->elements[1].elements) out.updates.push_back(s->update_of(u, id));
            co_return out;
        }
        // Until a write here wakes it, or the pause for a write elsewhere has passed.
        state::watch& w = s->watches[id];
        if (!w.changed) w.changed = std::make_shared<asio::steady_timer>(s->redis->get_executor(), asio::steady_timer::time_point::max());
        const std::shared_ptr<asio::steady_timer> changed = w.changed;
        ++w.watchers;
        asio::steady_timer look_again(s->redis->get_executor(), std::min<std::chrono::steady_clock::duration>(pause, deadline - now));
        look_again.async_wait([changed](boost::system::error_code ec) {
            if (!ec) changed->cancel();
        });
        co_await changed->async_wait(asio::as_tuple(asio::use_awaitable));
        look_again.cancel();
        if (const auto it = s->watches.find(id); it != s->watches.end() && it->second.changed == changed && --it->second.watchers == 0)
            s->watches.erase(it);
        pause = std::min(pause * 3 / 2, s->options.poll_interval * 10);
    }
}

} // namespace forma::redis
