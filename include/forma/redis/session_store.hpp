#pragma once

#include <forma/agent/session_store.hpp>
#include <forma/redis/client.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

namespace forma::redis {

struct session_store_options {
    /// Sessions are kept under this prefix followed by their id.
    std::string key_prefix = "forma:session:";
    /// A session not saved again within this expires (PEXPIRE at each save); zero: kept until erased.
    std::chrono::milliseconds ttl{0};
    /// A session whose JSON is larger than this is not saved (forma::error).
    std::size_t max_session_bytes = 16 * 1024 * 1024;
};

/** A forma::session_store on Redis, so that any server instance can continue a conversation.

    Each session is a hash under `key_prefix + id`: `version` and `session` (its JSON). A save
    is one Lua script on the server, which compares the version and writes both fields, so it
    is never torn: a save that fails or is cancelled (even once sent) either wrote the whole
    session or nothing.

    A key that holds something else (another type, a hash without the fields, JSON that is
    not a session) is a redis_error of kind foreign_data naming the key; nothing is overwritten.
*/
class session_store final : public forma::session_store {
public:
    session_store(std::shared_ptr<client> redis, session_store_options options = {});

    executor_type get_executor() const override;
    boost::asio::awaitable<std::optional<agent_session>> load(session_id id) override;
    boost::asio::awaitable<void> save(agent_session& session) override;
    boost::asio::awaitable<bool> erase(session_id id) override;

    const session_store_options& options() const noexcept { return options_; }
    /// The Redis key of the session `id`.
    std::string key_of(const session_id& id) const { return options_.key_prefix + id.str(); }

private:
    std::shared_ptr<client> redis_;
    session_store_options options_;
};

} // namespace forma::redis
