#include <forma/redis/rate_limit_store.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace forma::redis {

namespace {

// The same two buckets in a Redis hash, taken from atomically by every instance. Returns 0
// when both were taken from, else the milliseconds to wait before asking again.
const script buckets_script(R"lua(
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function level(prefix, rate)
  if rate <= 0 then return nil end
  local l = tonumber(redis.call('HGET', KEYS[1], prefix .. 'level'))
  local at = tonumber(redis.call('HGET', KEYS[1], prefix .. 'at'))
  if not l or not at then return rate end
  return math.min(rate, l + math.max(0, now - at) * rate / 60000)
end
local request_rate, token_rate, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local requests, tokens = level('requests_', request_rate), level('tokens_', token_rate)
local wait = 0
if requests and requests < 1 then wait = math.max(wait, (1 - requests) * 60000 / request_rate) end
if tokens and tokens < math.min(cost, token_rate) then
  wait = math.max(wait, (math.min(cost, token_rate) - tokens) * 60000 / token_rate)
end
if wait > 0 then return math.ceil(wait) end
if requests then redis.call('HSET', KEYS[1], 'requests_level', requests - 1, 'requests_at', now) end
if tokens then redis.call('HSET', KEYS[1], 'tokens_level', tokens - cost, 'tokens_at', now) end
redis.call('PEXPIRE', KEYS[1], 120000)
return 0
)lua");

} // namespace

rate_limit_store::rate_limit_store(std::shared_ptr<client> redis, std::string key)
    : redis_(std::move(redis)), key_(std::move(key)) {}

boost::asio::awaitable<std::chrono::milliseconds> rate_limit_store::take(double requests_per_minute,
                                                                         double tokens_per_minute, double tokens) {
    const auto redis = redis_;
    std::vector<std::string> keys{key_};
    std::vector<std::string> arguments{std::to_string(requests_per_minute), std::to_string(tokens_per_minute),
                                       std::to_string(tokens)};
    const reply r = co_await redis->eval(buckets_script, std::move(keys), std::move(arguments));
    co_return std::chrono::milliseconds(std::max<std::int64_t>(0, r.integer));
}

} // namespace forma::redis
