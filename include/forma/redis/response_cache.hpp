#pragma once

#include <forma/chat/response_cache.hpp>
#include <forma/redis/client.hpp>

#include <memory>
#include <string>

namespace forma::redis {

/// A forma::response_cache in Redis, shared by a fleet: values under `key_prefix + key`,
/// expiring by Redis itself (SET ... PX).
class response_cache final : public forma::response_cache {
public:
    explicit response_cache(std::shared_ptr<client> redis, std::string key_prefix = "forma:cache:");

    boost::asio::awaitable<std::optional<std::string>> get(std::string key) override;
    boost::asio::awaitable<void> put(std::string key, std::string value, std::chrono::milliseconds ttl) override;

private:
    std::shared_ptr<client> redis_;
    std::string prefix_;
};

} // namespace forma::redis
