#pragma once

#include <forma/agent/session_store.hpp>

#include <chrono>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace forma {

struct in_memory_session_store_options {
    /// A session not saved again within this is gone; zero: kept until erased or room is needed.
    std::chrono::milliseconds ttl{std::chrono::hours(24)};
    /// A session whose JSON is larger than this is not saved (forma::error).
    std::size_t max_session_bytes = 16 * 1024 * 1024;
    /// Sessions kept at once; saving one more drops the one saved longest ago.
    std::size_t max_sessions = 10'000;
    /// Bytes kept at once (the sessions' JSON); past it, the sessions saved longest ago go.
    std::size_t max_bytes = 256 * 1024 * 1024;
};

/** A session_store in this process's memory: for tests, and for one server that needs the
    same optimistic saves as a fleet. Sessions are kept as their JSON, so what comes back from
    load() is a copy, as from any other store. Bounded as a peak by `max_sessions` and
    `max_bytes`: the sessions saved longest ago give way (a run that then continues one starts
    afresh). One executor; not thread-safe.
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
    using clock = std::chrono::steady_clock;
    struct entry {
        std::string json;
        std::uint64_t version = 0;
        clock::time_point saved{};
    };
    using iterator = std::map<session_id, entry>::iterator;
    bool expired(const entry& e) const;
    void drop(iterator it);
    void make_room(std::size_t more_bytes);

    executor_type executor_;
    in_memory_session_store_options options_;
    std::map<session_id, entry> sessions_;
    std::set<std::pair<clock::time_point, session_id>> by_age_; // (saved, id), the oldest first
    std::size_t bytes_ = 0;
};

} // namespace forma
