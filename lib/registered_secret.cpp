#include <forma/registered_secret.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

namespace forma {
namespace {

constexpr std::size_t shortest_secret = 4;
constexpr std::string_view marker = "[redacted]";

// The secrets of the process, each with how many handles keep it.
struct secret_registry {
    std::shared_mutex mutex;
    std::map<std::string, std::size_t, std::less<>> counts;
    std::atomic<std::size_t> size{0}; // read without the lock: no secrets, nothing to do

    // Never destroyed: a handle in a static object may outlive any static registry.
    static secret_registry& instance() {
        static secret_registry* const registry = new secret_registry;
        return *registry;
    }

    void add(const std::string& secret) {
        std::unique_lock lock(mutex);
        if (++counts[secret] == 1) size.store(counts.size(), std::memory_order_release);
    }

    void remove(const std::string& secret) noexcept {
        std::unique_lock lock(mutex);
        const auto it = counts.find(secret);
        if (it == counts.end() || --it->second > 0) return;
        counts.erase(it);
        size.store(counts.size(), std::memory_order_release);
    }

    std::string redact(std::string_view text) {
        std::string out(text);
        if (size.load(std::memory_order_acquire) == 0) return out;
        std::shared_lock lock(mutex);
        // Longest first: a secret that contains another is replaced whole.
        std::vector<std::string_view> secrets;
        secrets.reserve(counts.size());
        for (const auto& entry : counts) secrets.push_back(entry.first);
        std::sort(secrets.begin(), secrets.end(), [](auto a, auto b) { return a.size() > b.size(); });
        for (const std::string_view secret : secrets)
            for (auto at = out.find(secret); at != std::string::npos; at = out.find(secret, at + marker.size()))
                out.replace(at, secret.size(), marker);
        return out;
    }
};

} // namespace

registered_secret::registered_secret(std::string_view secret) {
    if (secret.size() < shortest_secret) return;
    secret_ = std::string(secret);
    secret_registry::instance().add(secret_);
}

registered_secret::registered_secret(registered_secret&& other) noexcept : secret_(std::exchange(other.secret_, {})) {}

registered_secret& registered_secret::operator=(registered_secret&& other) noexcept {
    if (this != &other) {
        if (active()) secret_registry::instance().remove(secret_);
        secret_ = std::exchange(other.secret_, {});
    }
    return *this;
}

registered_secret::~registered_secret() {
    if (active()) secret_registry::instance().remove(secret_);
}

std::string redact_secrets(std::string_view text) { return secret_registry::instance().redact(text); }

} // namespace forma
