#include <forma/testing/scripted_chat_client.hpp>

#include <forma/model/agent_response_builder.hpp>

#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace forma::testing {
namespace {

class scripted_source final : public update_source {
public:
    scripted_source(boost::asio::any_io_executor executor, std::vector<agent_response_update> updates,
                    std::exception_ptr error, std::shared_ptr<long> live, std::shared_ptr<std::size_t> yielded)
        : executor_(std::move(executor)), updates_(std::move(updates)), error_(std::move(error)),
          live_(std::move(live)), yielded_(std::move(yielded)) {
        ++*live_;
    }
    ~scripted_source() override { --*live_; }

    boost::asio::awaitable<std::optional<agent_response_update>> next() override {
        co_await boost::asio::post(executor_, boost::asio::use_awaitable); // a real stream would wait here
        if (next_ == updates_.size()) {
            if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
            co_return std::nullopt;
        }
        ++*yielded_;
        co_return std::move(updates_[next_++]);
    }

private:
    boost::asio::any_io_executor executor_;
    std::vector<agent_response_update> updates_;
    std::exception_ptr error_;
    std::size_t next_ = 0;
    std::shared_ptr<long> live_;
    std::shared_ptr<std::size_t> yielded_;
};

} // namespace

scripted_chat_client::scripted_chat_client(executor_type executor) : executor_(std::move(executor)) {}

void scripted_chat_client::add_response(agent_response<> response) { replies_.emplace_back(std::move(response)); }

void scripted_chat_client::add_text_response(std::string text) {
    add_response(agent_response<>(chat_message(chat_role::assistant(), std::move(text))));
}

void scripted_chat_client::add_updates(std::vector<agent_response_update> updates, std::exception_ptr error) {
    replies_.emplace_back(scripted_updates{std::move(updates), std::move(error)});
}

void scripted_chat_client::add_error(std::exception_ptr error) { replies_.emplace_back(std::move(error)); }

scripted_chat_client::reply scripted_chat_client::take_reply(chat_request& request, bool streaming) {
    requests_.push_back({std::move(request.messages), std::move(request.options), std::move(request.context), streaming});
    ++calls_;
    if (replies_.empty())
        return std::make_exception_ptr(
            error("scripted_chat_client: no scripted reply left for request " + std::to_string(calls_)));
    reply next = std::move(replies_.front());
    replies_.pop_front();
    return next;
}

boost::asio::awaitable<agent_response<>> scripted_chat_client::get_response_core(chat_request request) {
    reply next = take_reply(request, false);
    if (auto* e = std::get_if<std::exception_ptr>(&next)) std::rethrow_exception(*e);
    if (auto* updates = std::get_if<scripted_updates>(&next)) {
        if (updates->error) std::rethrow_exception(updates->error);
        co_return to_agent_response(std::move(updates->updates));
    }
    co_return std::move(std::get<agent_response<>>(next));
}

update_stream scripted_chat_client::get_streaming_response_core(chat_request request) {
    reply next = take_reply(request, true);
    scripted_updates script;
    if (auto* e = std::get_if<std::exception_ptr>(&next)) script.error = *e;
    else if (auto* response = std::get_if<agent_response<>>(&next)) script.updates = response->to_updates();
    else script = std::move(std::get<scripted_updates>(next));
    return update_stream(executor_, std::make_unique<scripted_source>(executor_, std::move(script.updates),
                                                                      std::move(script.error), live_streams_,
                                                                      updates_yielded_));
}

} // namespace forma::testing
