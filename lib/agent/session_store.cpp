#include <forma/agent/in_memory_session_store.hpp>
#include <forma/agent/session_store.hpp>

#include "../json/json_text.hpp"
#include "stored_session.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <algorithm>

namespace forma {

namespace agent_detail {

using json_detail::valid_utf8;

std::string stored_session_json(const agent_session& session, std::size_t max_bytes) {
    if (session.id.empty()) throw error("a session needs an id to be saved");
    boost::json::value value = boost::json::value_from(session);
    value.as_object().erase("version"); // the store keeps the version
    // Valid UTF-8 whatever its strings hold (a model's tool arguments): it must parse back.
    std::string json = json_detail::serialize_utf8(value);
    if (json.size() > max_bytes) {
        throw error("the session \"" + valid_utf8(session.id.str()) + "\" takes " + std::to_string(json.size()) +
                    " bytes as JSON, more than the store's limit of " + std::to_string(max_bytes) +
                    " (max_session_bytes); trim its history");
    }
    return json;
}

agent_session stored_session_from_json(std::string_view json) {
    return boost::json::value_to<agent_session>(boost::json::parse(json));
}

} // namespace agent_detail

session_store::~session_store() = default;

in_memory_session_store::in_memory_session_store(executor_type executor, in_memory_session_store_options options)
    : executor_(std::move(executor)), options_(options) {}

bool in_memory_session_store::expired(const entry& e) const {
    return options_.ttl > std::chrono::milliseconds::zero() && clock::now() - e.saved >= options_.ttl;
}

void in_memory_session_store::drop(iterator it) {
    by_age_.erase({it->second.saved, it->first});
    bytes_ -= it->second.json.size();
    sessions_.erase(it);
}

// The expired go (the oldest saved are the first to expire), then the oldest while over a limit.
void in_memory_session_store::make_room(std::size_t more_bytes) {
    while (!by_age_.empty()) {
        const iterator oldest = sessions_.find(by_age_.begin()->second);
        const bool full = sessions_.size() + 1 > std::max<std::size_t>(options_.max_sessions, 1) || bytes_ + more_bytes > options_.max_bytes;
        if (!full && !expired(oldest->second)) return;
        drop(oldest);
    }
}

boost::asio::awaitable<std::optional<agent_session>> in_memory_session_store::load(session_id id) {
    const auto found = sessions_.find(id);
    if (found == sessions_.end()) co_return std::nullopt;
    if (expired(found->second)) {
        drop(found);
        co_return std::nullopt;
    }
    agent_session session = agent_detail::stored_session_from_json(found->second.json);
    session.version = found->second.version;
    co_return session;
}

boost::asio::awaitable<void> in_memory_session_store::save(agent_session& session) {
    std::string json = agent_detail::stored_session_json(session, std::min(options_.max_session_bytes, options_.max_bytes));
    json.shrink_to_fit(); // kept: not the capacity of the serializer's doubling
    auto found = sessions_.find(session.id);
    if (found != sessions_.end() && expired(found->second)) {
        drop(found);
        found = sessions_.end();
    }
    const std::uint64_t stored = found == sessions_.end() ? 0 : found->second.version;
    if (stored != session.version) throw session_conflict_error(session.id, session.version, stored);
    if (found != sessions_.end()) drop(found); // saved anew: the newest
    make_room(json.size());
    entry& e = sessions_[session.id];
    bytes_ += json.size();
    e.json = std::move(json);
    e.version = stored + 1;
    e.saved = clock::now();
    by_age_.insert({e.saved, session.id});
    session.version = e.version;
    co_return;
}

boost::asio::awaitable<bool> in_memory_session_store::erase(session_id id) {
    const auto found = sessions_.find(id);
    if (found == sessions_.end()) co_return false;
    const bool live = !expired(found->second);
    drop(found);
    co_return live;
}

std::size_t in_memory_session_store::size() const {
    std::size_t live = 0;
    for (const auto& [id, e] : sessions_) live += expired(e) ? 0 : 1;
    return live;
}

} // namespace forma
