#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>

namespace forma {

/** Where caching_chat_client keeps responses (as JSON text) by key: this process's memory
    (in_memory_response_cache) or one Redis for a fleet (redis::response_cache).
*/
class response_cache {
public:
    virtual ~response_cache();

    /// The value stored under `key`, unless it is absent or expired.
    virtual boost::asio::awaitable<std::optional<std::string>> get(std::string key) = 0;
    /// Stores `value` under `key` for `ttl` (zero: until evicted).
    virtual boost::asio::awaitable<void> put(std::string key, std::string value, std::chrono::milliseconds ttl) = 0;
};

struct in_memory_response_cache_options {
    /// Entries at most; the least recently used go first.
    std::size_t max_entries = 1000;
    /// Bytes of values at most; the least recently used go first. A larger value is not kept.
    std::size_t max_bytes = 64 * 1024 * 1024;
};

/// A response_cache in this process: least recently used entries evicted past the limits.
class in_memory_response_cache final : public response_cache {
public:
    explicit in_memory_response_cache(in_memory_response_cache_options options = {});

    boost::asio::awaitable<std::optional<std::string>> get(std::string key) override;
    boost::asio::awaitable<void> put(std::string key, std::string value, std::chrono::milliseconds ttl) override;

    std::size_t size() const noexcept { return entries_.size(); }
    std::size_t bytes() const noexcept { return bytes_; }

private:
    struct entry {
        std::string key;
        std::string value;
        std::optional<std::chrono::steady_clock::time_point> expires;
    };
    void erase(std::list<entry>::iterator it);

    in_memory_response_cache_options options_;
    std::list<entry> entries_; // most recently used first
    std::unordered_map<std::string, std::list<entry>::iterator> index_;
    std::size_t bytes_ = 0;
};

} // namespace forma
