#include <forma/json/json_error.hpp>
#include <forma/redis/session_store.hpp>

#include "../agent/stored_session.hpp"
#include "../json/body_excerpt.hpp"

#include <boost/system/system_error.hpp>

#include <charconv>

namespace forma::redis {

namespace {

// KEYS[1]: the session's key. ARGV: the version it was loaded at, its JSON, the TTL in ms (0: none).
// Returns {"saved", new version}, {"conflict", stored version} or {"foreign", what the key holds}.
const script save_script(R"lua(
local kind = redis.call('TYPE', KEYS[1])['ok']
local stored = '0'
if kind == 'hash' then
  stored = redis.call('HGET', KEYS[1], 'version')
  if not stored or not string.match(stored, '^[1-9][0-9]*$') or redis.call('HEXISTS', KEYS[1], 'session') == 0 then
    return {'foreign', 'a hash without forma session fields'}
  end
elseif kind ~= 'none' then
  return {'foreign', 'a ' .. kind}
end
if stored ~= ARGV[1] then return {'conflict', stored} end
local saved = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'session', ARGV[2])
if ARGV[3] ~= '0' then redis.call('PEXPIRE', KEYS[1], ARGV[3]) else redis.call('PERSIST', KEYS[1]) end
return {'saved', tostring(saved)}
)lua");

std::uint64_t parse_version(std::string_view text, bool& ok) {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    ok = !text.empty() && ec == std::errc() && end == text.data() + text.size() && value > 0;
    return value;
}

} // namespace

session_store::session_store(std::shared_ptr<client> redis, session_store_options options)
    : redis_(std::move(redis)), options_(std::move(options)) {}

session_store::executor_type session_store::get_executor() const { return redis_->get_executor(); }

boost::asio::awaitable<std::optional<agent_session>> session_store::load(session_id id) {
    const auto redis = redis_;
    const std::string key = key_of(id);
    const auto foreign = [&](const std::string& what) {
        return redis_error(redis_error_kind::foreign_data, redis->name() + ": the key \"" + json_detail::valid_utf8(key) +
                                                               "\" holds " + what + ", not a forma session; erase it or choose "
                                                               "another key_prefix");
    };
    std::vector<command> get; // one round trip: nil fields alone cannot tell a missing key
    get.emplace_back("EXISTS", key);
    get.emplace_back("HMGET", key, "version", "session");
    std::vector<reply> replies = co_await redis->execute(std::move(get));
    const bool exists = replies[0].integer > 0;
    const reply& r = replies[1];
    if (r.is_error()) {
        if (r.text.starts_with("WRONGTYPE")) throw foreign("a value of another type than a hash");
        throw redis_error(redis_error_kind::server, redis->name() + " answered HMGET with an error: " +
                                                        json_detail::valid_utf8(r.text));
    }
    if (r.kind != reply_kind::array || r.elements.size() != 2) throw foreign("what HMGET cannot read");
    const reply& version = r.elements[0];
    const reply& json = r.elements[1];
    if (!exists) co_return std::nullopt;
    if (version.kind != reply_kind::string || json.kind != reply_kind::string)
        throw foreign("a hash without forma session fields");
    bool ok = false;
    const std::uint64_t number = parse_version(version.text, ok);
    if (!ok) throw foreign("the version \"" + json_detail::body_excerpt(version.text, 40) + "\"");
    agent_session session;
    try {
        session = agent_detail::stored_session_from_json(json.text);
    } catch (const json_error& e) {
        throw foreign(std::string("JSON that is not a session (") + e.what() + ")");
    } catch (const boost::system::system_error& e) {
        throw foreign(std::string("text that is not JSON (") + e.code().message() + ")");
    }
    if (session.id != id) throw foreign("the session \"" + json_detail::valid_utf8(session.id.str()) + "\"");
    session.version = number;
    co_return session;
}

boost::asio::awaitable<void> session_store::save(agent_session& session) {
    const auto redis = redis_;
    std::string json = agent_detail::stored_session_json(session, options_.max_session_bytes);
    const std::string key = key_of(session.id);
    std::vector<std::string> keys{key};
    std::vector<std::string> arguments{std::to_string(session.version), std::move(json),
                                       std::to_string(options_.ttl.count())};
    const reply r = co_await redis->eval(save_script, std::move(keys), std::move(arguments));
    if (r.kind != reply_kind::array || r.elements.size() != 2 || r.elements[0].kind != reply_kind::string ||
        r.elements[1].kind != reply_kind::string) {
        throw redis_error(redis_error_kind::protocol, redis->name() + " answered the save script with a " +
                                                          std::string(to_string(r.kind)) + " forma did not ask for");
    }
    const std::string& outcome = r.elements[0].text;
    const std::string& detail = r.elements[1].text;
    bool ok = false;
    if (outcome == "foreign") {
        throw redis_error(redis_error_kind::foreign_data, redis->name() + ": the key \"" + json_detail::valid_utf8(key) +
                                                              "\" holds " + detail + ", not a forma session; nothing "
                                                              "was saved (erase it or choose another key_prefix)");
    }
    const std::uint64_t version = detail == "0" ? 0 : parse_version(detail, ok);
    if (outcome == "conflict") throw session_conflict_error(session.id, session.version, version);
    if (outcome != "saved" || !ok) {
        throw redis_error(redis_error_kind::protocol, redis->name() + " answered the save script with \"" +
                                                          json_detail::valid_utf8(outcome) + "\"");
    }
    session.version = version;
}

boost::asio::awaitable<bool> session_store::erase(session_id id) {
    const auto redis = redis_;
    const reply r = co_await redis->execute(command("DEL", key_of(id)));
    co_return r.integer > 0;
}

} // namespace forma::redis
