#include <forma/chat/caching_chat_client.hpp>
#include <forma/model/agent_response_builder.hpp>

#include "../net/hex_digest.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

namespace forma {

namespace asio = boost::asio;

namespace {

// What a cached entry is: its format's version, so that a future layout is not misread.
constexpr std::string_view entry_format = "forma.cached_response.v1";

boost::json::value normalized(const chat_message& message) {
    boost::json::value json = boost::json::value_from(message);
    boost::json::object& o = json.as_object();
    o.erase("message_id"); // the same question asked again has new ids and times
    o.erase("created_at");
    o.erase("raw_representation");
    if (boost::json::value* contents = o.if_contains("contents"); contents && contents->is_array())
        for (boost::json::value& c : contents->as_array())
            if (c.is_object()) c.as_object().erase("raw_representation");
    return json;
}

template <class T>
void put_optional(boost::json::object& o, std::string_view key, const std::optional<T>& value) {
    if (value) o[key] = *value;
}

boost::json::object normalized(const chat_options& options) {
    boost::json::object o;
    o["model"] = options.model;
    o["instructions"] = options.instructions;
    put_optional(o, "temperature", options.temperature);
    put_optional(o, "top_p", options.top_p);
    put_optional(o, "max_output_tokens", options.max_output_tokens);
    put_optional(o, "seed", options.seed);
    put_optional(o, "parallel_tool_calls", options.parallel_tool_calls);
    boost::json::array stops;
    for (const auto& s : options.stop_sequences) stops.emplace_back(s);
    o["stop"] = std::move(stops);
    if (options.response_format) {
        const response_format& f = *options.response_format;
        boost::json::object format{{"kind", static_cast<int>(f.kind())}, {"name", f.name()}, {"description", f.description()}};
        if (f.kind() == response_format_kind::json_schema) format["schema"] = f.schema();
        put_optional(format, "strict", f.strict());
        o["response_format"] = std::move(format);
    }
    if (options.structured_output_mode) o["structured_output_mode"] = static_cast<int>(*options.structured_output_mode);
    boost::json::array tools;
    for (const function_tool& t : options.tools)
        tools.push_back(boost::json::object{
            {"name", t.name()}, {"description", t.description()}, {"parameters", t.parameters()}, {"strict", t.strict()}});
    o["tools"] = std::move(tools);
    if (options.tool_choice)
        o["tool_choice"] = boost::json::object{{"mode", static_cast<int>(options.tool_choice->mode())},
                                               {"function", options.tool_choice->function_name()}};
    o["additional_properties"] = options.additional_properties;
    return o;
}

bool holds_error(const agent_response<>& response) {
    for (const chat_message& m : response.messages)
        for (const content& c : m.contents)
            if (std::holds_alternative<error_content>(c)) return true;
    return false;
}

} // namespace

struct caching_chat_client::state {
    state(std::shared_ptr<chat_client> c, std::shared_ptr<response_cache> rc, caching_chat_client_options o)
        : inner(std::move(c)), cache(std::move(rc)), options(o) {}

    std::shared_ptr<chat_client> inner; // kept by open streams
    std::shared_ptr<response_cache> cache;
    caching_chat_client_options options;
    std::size_t hits = 0;
    std::size_t misses = 0;
    std::size_t errors = 0;

    bool cacheable(const chat_options& request) const {
        if (request.continuation_token || request.allow_background_responses) return false;
        return options.cache_sampled_requests || !is_sampled(request);
    }
    static bool keep(const agent_response<>& response) {
        return !response.continuation_token && !holds_error(response) && !response.messages.empty();
    }

    // The cached response under `key`, if any; a cache that fails or holds something else is a miss.
    asio::awaitable<std::optional<agent_response<>>> look_up(const std::string& key) {
        std::optional<std::string> text;
        try {
            text = co_await cache->get(key);
        } catch (const std::exception&) {
            ++errors;
        }
        if (text) {
            try {
                const boost::json::value entry = boost::json::parse(*text);
                const boost::json::object& o = entry.as_object();
                if (o.at("format").as_string() == entry_format) {
                    ++hits;
                    agent_response<> hit = boost::json::value_to<agent_response<>>(o.at("response"));
                    hit.usage.reset(); // no tokens were spent on this answer
                    hit.additional_properties[cache_hit_property] = true;
                    co_return hit;
                }
            } catch (const std::exception&) {
            }
            ++errors; // not an entry of this format
        }
        ++misses;
        co_return std::nullopt;
    }

    asio::awaitable<void> store(const std::string& key, const agent_response<>& response) {
        boost::json::value kept = boost::json::value_from(response);
        kept.as_object().erase("rate_limits"); // what the provider said then, not later
        boost::json::object entry{{"format", entry_format}, {"response", std::move(kept)}};
        try {
            co_await cache->put(key, boost::json::serialize(entry), options.ttl);
        } catch (const std::exception&) {
            ++errors;
        }
    }
};

caching_chat_client::caching_chat_client(std::shared_ptr<chat_client> inner, std::shared_ptr<response_cache> cache,
                                         caching_chat_client_options options)
    : delegating_chat_client(std::move(inner)), state_(std::make_shared<state>(shared_inner(), std::move(cache), options)) {
    if (!state_->cache) throw error("caching_chat_client needs a response_cache");
}

caching_chat_client::caching_chat_client(chat_client& inner, std::shared_ptr<response_cache> cache,
                                         caching_chat_client_options options)
    : delegating_chat_client(inner), state_(std::make_shared<state>(shared_inner(), std::move(cache), options)) {
    if (!state_->cache) throw error("caching_chat_client needs a response_cache");
}

caching_chat_client::~caching_chat_client() = default;

std::size_t caching_chat_client::hits() const noexcept { return state_->hits; }
std::size_t caching_chat_client::misses() const noexcept { return state_->misses; }
std::size_t caching_chat_client::cache_errors() const noexcept { return state_->errors; }

bool caching_chat_client::is_sampled(const chat_options& options) noexcept {
    return !options.seed && !(options.temperature && *options.temperature == 0.0);
}

std::string caching_chat_client::cache_key(const std::vector<chat_message>& messages, const chat_options& options) {
    boost::json::array sent;
    sent.reserve(messages.size());
    for (const chat_message& m : messages) sent.push_back(normalized(m));
    const boost::json::object request{{"messages", std::move(sent)}, {"options", normalized(options)}};
    return net::detail::hex_digest(EVP_sha256(), boost::json::serialize(request));
}

asio::awaitable<agent_response<>> caching_chat_client::get_response_core(chat_request request) {
    const auto s = state_;
    std::string key;
    if (s->cacheable(request.options)) {
        key = cache_key(request.messages, request.options);
        std::optional<agent_response<>> cached = co_await s->look_up(key);
        if (cached) co_return std::move(*cached);
    }
    agent_response<> response = co_await s->inner->get_response(std::move(request));
    if (key.empty()) co_return response;
    if (state::keep(response)) co_await s->store(key, response);
    co_return response;
}

// Replays a cached answer, or passes the model's stream on and caches it once it has ended.
class caching_chat_client::caching_stream final : public update_source {
public:
    caching_stream(std::shared_ptr<state> s, chat_request request) : state_(std::move(s)), request_(std::move(request)) {}

    asio::awaitable<std::optional<agent_response_update>> next() override {
        if (!started_) {
            started_ = true;
            if (state_->cacheable(request_.options)) {
                key_ = cache_key(request_.messages, request_.options);
                std::optional<agent_response<>> cached = co_await state_->look_up(key_);
                if (cached) {
                    replay_ = cached->to_updates();
                    replaying_ = true;
                }
            }
            if (!replaying_) inner_.emplace(state_->inner->get_streaming_response(std::move(request_)));
        }
        if (replaying_) {
            if (replayed_ == replay_.size()) co_return std::nullopt;
            co_return std::move(replay_[replayed_++]);
        }
        std::optional<agent_response_update> update = co_await inner_->next(); // an error is passed on, not cached
        if (update) {
            if (!key_.empty()) answer_.add(*update);
            co_return update;
        }
        if (!key_.empty()) {
            const agent_response<> whole = answer_.take();
            if (state::keep(whole)) co_await state_->store(key_, whole);
            key_.clear();
        }
        co_return std::nullopt;
    }

private:
    std::shared_ptr<state> state_;
    chat_request request_;
    bool started_ = false;
    bool replaying_ = false;
    std::vector<agent_response_update> replay_;
    std::size_t replayed_ = 0;
    std::string key_; // empty: not cached
    std::optional<update_stream> inner_;
    agent_response_builder answer_;
};

update_stream caching_chat_client::get_streaming_response_core(chat_request request) {
    return update_stream(get_executor(), std::make_unique<caching_stream>(state_, std::move(request)));
}

} // namespace forma
