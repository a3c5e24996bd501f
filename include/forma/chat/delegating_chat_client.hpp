#pragma once

#include <forma/chat/chat_client.hpp>

#include <memory>

namespace forma {

/** A chat_client that forwards everything to an inner client: the base of chat-client
    decorators (the tool loop, the cache, the limiter, your own), which override what they
    change, as delegating_agent is for agents.

    The inner client is owned when given as a shared_ptr; given as a reference, the caller
    keeps it alive for as long as this client and its streams.
*/
class delegating_chat_client : public chat_client {
public:
    /// @throws error for a null inner client.
    explicit delegating_chat_client(std::shared_ptr<chat_client> inner);
    /// Decorates a client the caller owns.
    explicit delegating_chat_client(chat_client& inner);
    ~delegating_chat_client() override;

    executor_type get_executor() const override { return inner_->get_executor(); }
    provider_metadata provider() const override { return inner_->provider(); }

    chat_client& inner() const noexcept { return *inner_; }
    /// The inner client, shared: what a decorator's open streams keep.
    const std::shared_ptr<chat_client>& shared_inner() const noexcept { return inner_; }

protected:
    /// Both pass the request to the inner client unchanged.
    boost::asio::awaitable<agent_response<>> get_response_core(chat_request request) override;
    update_stream get_streaming_response_core(chat_request request) override;
    chat_client* next_layer() const noexcept override { return inner_.get(); }

private:
    std::shared_ptr<chat_client> inner_;
};

} // namespace forma
