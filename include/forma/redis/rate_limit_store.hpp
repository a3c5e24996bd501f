#pragma once

#include <forma/chat/rate_limit_store.hpp>
#include <forma/redis/client.hpp>

#include <memory>
#include <string>

namespace forma::redis {

/// A forma::rate_limit_store in Redis, shared by a fleet: both buckets in one hash under `key`,
/// taken from by a Lua script (atomic), expiring two minutes after the last take.
class rate_limit_store final : public forma::rate_limit_store {
public:
    explicit rate_limit_store(std::shared_ptr<client> redis, std::string key = "forma:rate_limit");

    boost::asio::awaitable<std::chrono::milliseconds> take(double requests_per_minute, double tokens_per_minute,
                                                           double tokens) override;

private:
    std::shared_ptr<client> redis_;
    std::string key_;
};

} // namespace forma::redis
