#include <forma/agent/stored_agent.hpp>
#include <forma/model/agent_response_builder.hpp>

#include "../json/json_text.hpp"

#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

namespace forma {

namespace asio = boost::asio;

stored_agent::stored_agent(std::shared_ptr<agent> inner, std::shared_ptr<session_store> store)
    : inner_(std::move(inner)), store_(std::move(store)) {
    if (!inner_ || !store_) throw error("stored_agent needs an agent and a session store");
}

std::optional<continuation_token> stored_agent::pending_run(const agent_session& session) {
    const boost::json::value* token = session.state.if_contains(continuation_key);
    if (!token || token->is_null()) return std::nullopt;
    return boost::json::value_to<continuation_token>(*token);
}

asio::awaitable<std::shared_ptr<agent_session>> stored_agent::open(const std::string& session_id) const {
    if (session_id.empty()) throw error("a stored run needs a session id");
    std::optional<agent_session> loaded = co_await store_->load(session_id);
    if (loaded) co_return std::make_shared<agent_session>(std::move(*loaded));
    std::shared_ptr<agent_session> fresh = inner_->create_session();
    fresh->id = session_id;
    fresh->version = 0;
    co_return fresh;
}

asio::awaitable<void> stored_agent::close(std::shared_ptr<agent_session> session, const agent_response<>& response,
                                          bool resumed) const {
    if (response.continuation_token) {
        session->state[continuation_key] = boost::json::value_from(*response.continuation_token);
    } else if (resumed) {
        session->state.erase(continuation_key);
    }
    std::optional<session_conflict_error> conflict;
    try {
        co_await store_->save(*session);
    } catch (const session_conflict_error& e) {
        conflict = e;
    }
    if (!conflict) co_return;
    std::optional<agent_session> current = co_await store_->load(session->id);
    throw stored_run_conflict_error(*conflict, response, std::move(current));
}

asio::awaitable<agent_response<>> stored_agent::run(std::string session_id, std::vector<chat_message> messages,
                                                    agent_run_options options) {
    const stored_agent self = *this; // this stored_agent may go while the run waits
    const bool resumed = options.continuation_token.has_value();
    std::shared_ptr<agent_session> session = co_await self.open(session_id);
    agent_response<> response = co_await self.inner_->run(std::move(messages), session, std::move(options));
    co_await self.close(session, response, resumed);
    co_return response;
}

asio::awaitable<agent_response<>> stored_agent::run(std::string session_id, std::string user_message,
                                                    agent_run_options options) {
    std::vector<chat_message> messages;
    messages.emplace_back(chat_role::user(), std::move(user_message));
    return run(std::move(session_id), std::move(messages), std::move(options));
}

asio::awaitable<agent_response<>> stored_agent::resume(std::string session_id, agent_run_options options) {
    const stored_agent self = *this;
    std::shared_ptr<agent_session> session = co_await self.open(session_id);
    std::optional<continuation_token> token = pending_run(*session);
    if (!token) throw error("the session \"" + lib_detail::valid_utf8(session_id) + "\" has no background run to resume");
    options.continuation_token = std::move(token);
    agent_response<> response = co_await self.inner_->run(std::vector<chat_message>(), session, std::move(options));
    co_await self.close(session, response, true);
    co_return response;
}

// Loads the session at the first next(), passes the inner stream's updates on, and saves the
// session when the inner stream ends, before saying so.
class stored_agent::saving_stream : public update_source {
public:
    saving_stream(stored_agent owner, std::string session_id, std::vector<chat_message> messages,
                  agent_run_options options)
        : owner_(std::move(owner)), session_id_(std::move(session_id)), messages_(std::move(messages)),
          options_(std::move(options)) {}

    asio::awaitable<std::optional<agent_response_update>> next() override {
        if (done_) co_return std::nullopt;
        if (!stream_) {
            session_ = co_await owner_.open(session_id_);
            resumed_ = options_.continuation_token.has_value();
            stream_.emplace(owner_.inner_->run_streaming(std::move(messages_), session_, std::move(options_)));
        }
        std::optional<agent_response_update> update = co_await stream_->next();
        if (update) {
            answer_.add(*update);
            co_return update;
        }
        done_ = true;
        co_await owner_.close(session_, answer_.response(), resumed_);
        co_return std::nullopt;
    }

private:
    stored_agent owner_; // a copy: two shared pointers
    std::string session_id_;
    std::vector<chat_message> messages_;
    agent_run_options options_;
    std::shared_ptr<agent_session> session_;
    std::optional<update_stream> stream_;
    agent_response_builder answer_; // for the token, and for a conflict's report
    bool resumed_ = false;
    bool done_ = false;
};

update_stream stored_agent::run_streaming(std::string session_id, std::vector<chat_message> messages,
                                          agent_run_options options) {
    return update_stream(inner_->get_executor(),
                         std::make_unique<saving_stream>(*this, std::move(session_id), std::move(messages), std::move(options)));
}

update_stream stored_agent::run_streaming(std::string session_id, std::string user_message, agent_run_options options) {
    std::vector<chat_message> messages;
    messages.emplace_back(chat_role::user(), std::move(user_message));
    return run_streaming(std::move(session_id), std::move(messages), std::move(options));
}

} // namespace forma
