#pragma once

#include <forma/chat/chat_client.hpp>
#include <forma/chat/delegating_chat_client.hpp>
#include <forma/chat/response_cache.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace forma {

struct caching_chat_client_options {
    /// How long a response is served from the cache; zero: until the cache evicts it.
    std::chrono::milliseconds ttl{std::chrono::hours(1)};
    /** Cache sampled requests too. A request is sampled unless its temperature is 0 or it
        sets a seed: its answer may differ each time, and a cache would fix it to one. Off
        by default, so that caching never changes what a model may say.
    */
    bool cache_sampled_requests = false;
};

/** A chat_client decorator that answers a request it has seen before from a response_cache.

    The key is the SHA-256 of the request, normalized: its messages (without ids, times and
    raw representations) and every option that shapes the answer (model, instructions,
    sampling, limits, stop sequences, response format with its schema, tools with their
    schemas, tool choice, provider-specific members). A streamed request whose answer is
    cached replays it as updates; a streamed answer is cached once it has ended.

    Not cached: errors (nothing that throws is stored), answers with error contents,
    background runs (continuation tokens), and sampled requests unless asked. A cache that
    fails (Redis down) is skipped: the request goes to the model and cache_errors() counts it.

    Given as a shared_ptr, the inner client is owned; given as a reference, it must outlive
    this one. One executor; not thread-safe.
*/
class caching_chat_client : public delegating_chat_client {
public:
    /// The member of an answer's additional_properties that marks it as served from the cache.
    static constexpr std::string_view cache_hit_property = "cache_hit";

    /// @throws error for a null cache.
    caching_chat_client(std::shared_ptr<chat_client> inner, std::shared_ptr<response_cache> cache,
                        caching_chat_client_options options = {});
    caching_chat_client(chat_client& inner, std::shared_ptr<response_cache> cache,
                        caching_chat_client_options options = {});
    ~caching_chat_client() override;

    /// The cache key of a request: lowercase hex SHA-256 of its normalized JSON.
    static std::string cache_key(const std::vector<chat_message>& messages, const chat_options& options);
    /// Whether a request's answer may differ each time (see cache_sampled_requests).
    static bool is_sampled(const chat_options& options) noexcept;

    std::size_t hits() const noexcept;
    std::size_t misses() const noexcept;
    std::size_t cache_errors() const noexcept;

protected:
    boost::asio::awaitable<agent_response<>> get_response_core(chat_request request) override;
    update_stream get_streaming_response_core(chat_request request) override;

private:
    struct state;
    class caching_stream;
    std::shared_ptr<state> state_;
};

} // namespace forma
