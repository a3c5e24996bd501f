#include <forma/agent/stored_agent.hpp>
#include <forma/model/agent_response_builder.hpp>

#include "../json/json_text.hpp"

#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

namespace forma {

namespace asio = boost::asio;

namespace {

/// Keeps or drops the background run's token, saves the session, and on a conflict throws
/// with the answer and the session as the store now holds it.
asio::awaitable<void> save(session_store& store, agent_session& session, const agent_response<>& response,
                           bool resumed) {
    if (response.continuation_token) {
        session.state[stored_agent::continuation_key] = boost::json::value_from(*response.continuation_token);
    } else if (resumed) {
        session.state.erase(stored_agent::continuation_key);
    }
    std::optional<session_conflict_error> conflict;
    try {
        co_await store.save(session);
    } catch (const session_conflict_error& e) {
        conflict = e;
    }
    if (!conflict) co_return;
    std::optional<agent_session> current = co_await store.load(session.id);
    throw stored_run_conflict_error(*conflict, response, std::move(current));
}

} // namespace

stored_agent::stored_agent(std::shared_ptr<agent> inner, std::shared_ptr<session_store> store)
    : delegating_agent(std::move(inner)), store_(std::move(store)) {
    if (!store_) throw error("stored_agent needs a session store");
}

std::optional<continuation_token> stored_agent::pending_run(const agent_session& session) {
    const boost::json::value* token = session.state.if_contains(continuation_key);
    if (!token || token->is_null()) return std::nullopt;
    return boost::json::value_to<continuation_token>(*token);
}

asio::awaitable<std::shared_ptr<agent_session>> stored_agent::open_session(session_id id) {
    if (id.empty()) throw error("a stored run needs a session id");
    std::optional<agent_session> loaded = co_await store_->load(id);
    if (loaded) co_return std::make_shared<agent_session>(std::move(*loaded));
    std::shared_ptr<agent_session> fresh = create_session();
    fresh->id = std::move(id);
    fresh->version = 0;
    co_return fresh;
}

asio::awaitable<agent_response<>> stored_agent::run_core(agent_run run) {
    const std::shared_ptr<agent_session> session = run.session;
    const bool resumed = run.options.continuation_token.has_value();
    agent_response<> response = co_await delegating_agent::run_core(std::move(run));
    co_await save(*store_, *session, response, resumed);
    co_return response;
}

asio::awaitable<agent_response<>> stored_agent::resume(session_id id, agent_run_options options) {
    std::shared_ptr<agent_session> session = co_await open_session(id);
    std::optional<continuation_token> token = pending_run(*session);
    if (!token)
        throw error("the session \"" + json_detail::valid_utf8(id.str()) + "\" has no background run to resume");
    options.continuation_token = std::move(token);
    co_return co_await run(agent_input(), std::move(session), std::move(options));
}

// Passes the inner stream's updates on, and saves the session when it ends, before saying so.
class stored_agent::saving_stream : public update_source {
public:
    saving_stream(std::shared_ptr<session_store> store, std::shared_ptr<agent_session> session, update_stream inner,
                  bool resumed)
        : store_(std::move(store)), session_(std::move(session)), inner_(std::move(inner)), resumed_(resumed) {}

    asio::awaitable<std::optional<agent_response_update>> next() override {
        if (done_) co_return std::nullopt;
        std::optional<agent_response_update> update = co_await inner_.next();
        if (update) {
            answer_.add(*update);
            co_return update;
        }
        done_ = true;
        co_await save(*store_, *session_, answer_.response(), resumed_);
        co_return std::nullopt;
    }

private:
    std::shared_ptr<session_store> store_;
    std::shared_ptr<agent_session> session_;
    update_stream inner_;
    agent_response_builder answer_; // for the token, and for a conflict's report
    bool resumed_;
    bool done_ = false;
};

update_stream stored_agent::run_streaming_core(agent_run run) {
    std::shared_ptr<agent_session> session = run.session;
    const bool resumed = run.options.continuation_token.has_value();
    update_stream inner = delegating_agent::run_streaming_core(std::move(run));
    return update_stream(get_executor(),
                         std::make_unique<saving_stream>(store_, std::move(session), std::move(inner), resumed));
}

} // namespace forma
