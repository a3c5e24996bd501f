#include <forma/chat/response_cache.hpp>

namespace forma {

response_cache::~response_cache() = default;

in_memory_response_cache::in_memory_response_cache(in_memory_response_cache_options options) : options_(options) {}

void in_memory_response_cache::erase(std::list<entry>::iterator it) {
    bytes_ -= it->value.size();
    index_.erase(it->key);
    entries_.erase(it);
}

boost::asio::awaitable<std::optional<std::string>> in_memory_response_cache::get(std::string key) {
    const auto found = index_.find(key);
    if (found == index_.end()) co_return std::nullopt;
    const auto it = found->second;
    if (it->expires && std::chrono::steady_clock::now() >= *it->expires) {
        erase(it);
        co_return std::nullopt;
    }
    entries_.splice(entries_.begin(), entries_, it); // now the most recently used
    co_return it->value;
}

boost::asio::awaitable<void> in_memory_response_cache::put(std::string key, std::string value,
                                                           std::chrono::milliseconds ttl) {
    if (const auto found = index_.find(key); found != index_.end()) erase(found->second);
    if (value.size() > options_.max_bytes || options_.max_entries == 0) co_return;
    while (!entries_.empty() && (entries_.size() >= options_.max_entries || bytes_ + value.size() > options_.max_bytes))
        erase(std::prev(entries_.end()));
    std::optional<std::chrono::steady_clock::time_point> expires;
    if (ttl > std::chrono::milliseconds::zero()) expires = std::chrono::steady_clock::now() + ttl;
    bytes_ += value.size();
    entries_.push_front(entry{key, std::move(value), expires});
    index_.emplace(std::move(key), entries_.begin());
}

} // namespace forma
