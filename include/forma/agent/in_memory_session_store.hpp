#pragma once

#include <forma/agent/session_store.hpp>

#include <chrono>
#include <cstddef>
#include <map>
#include <string>

namespace forma {

struct in_memory_session_store_options {
    /// A session not saved again within this is gone; zero: kept until erased.
    std::chrono::milliseconds ttl{0};
    /// A session whose JSON is larger than this is not saved (forma::error).
    std::size_t max_session_bytes = 16 * 1024 * 1024;
};

/** A session_store in this process's memory: for tests, and for one server that needs the
    same optimistic saves as a fleet. Sessions are kept as their JSON, so what comes back from
    load() is a copy, as from any other store. One executor; not thread-safe.
*/
class in_memory_session_store final : public session_store {
public:
    explicit in_memory_session_store(executor_type executor, in_memory_session_store_options options = {});

    executor_type get_executor() const override { return executor_; }
    boost::asio::awaitable<std::optional<agent_session>> load(session_id id) override;
    boost::asio::awaitable<void> save(agent_session& session) override;
    boost::asio::awaitable<bool> erase(session_id id) override;

    /// Sessions stored now (expired ones not counted).
    std::size_t size() const;

private:
    struct entry {
        std::string json;
        std::uint64_t version = 0;
        std::chrono::steady_clock::time_point expires{};
    };
    bool expired(const entry& e) const;

    executor_type executor_;
    in_memory_session_store_options options_;
    std::map<session_id, entry> sessions_;
};

} // namespace forma
