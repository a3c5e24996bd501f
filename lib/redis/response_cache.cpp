#include <forma/redis/response_cache.hpp>

namespace forma::redis {

response_cache::response_cache(std::shared_ptr<client> redis, std::string key_prefix)
    : redis_(std::move(redis)), prefix_(std::move(key_prefix)) {}

boost::asio::awaitable<std::optional<std::string>> response_cache::get(std::string key) {
    const auto redis = redis_;
    reply r = co_await redis->execute(command("GET", prefix_ + key));
    if (r.is_nil()) co_return std::nullopt;
    if (r.kind != reply_kind::string) co_return std::nullopt;
    co_return std::move(r.text);
}

boost::asio::awaitable<void> response_cache::put(std::string key, std::string value, std::chrono::milliseconds ttl) {
    const auto redis = redis_;
    command set("SET", prefix_ + key, value);
    if (ttl > std::chrono::milliseconds::zero()) set.arg("PX").arg(ttl.count());
    co_await redis->execute(std::move(set));
}

} // namespace forma::redis
