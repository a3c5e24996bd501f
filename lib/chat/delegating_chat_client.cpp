#include <forma/chat/delegating_chat_client.hpp>

#include <forma/error.hpp>

#include "decorator_chain.hpp"

namespace forma {

delegating_chat_client::delegating_chat_client(std::shared_ptr<chat_client> inner) : inner_(std::move(inner)) {
    if (!inner_) throw error("a chat-client decorator needs an inner client");
}

delegating_chat_client::delegating_chat_client(chat_client& inner) : inner_(chat_detail::not_owned(inner)) {}

delegating_chat_client::~delegating_chat_client() = default;

boost::asio::awaitable<agent_response<>> delegating_chat_client::get_response_core(chat_request request) {
    return inner_->get_response_core(std::move(request));
}

update_stream delegating_chat_client::get_streaming_response_core(chat_request request) {
    return inner_->get_streaming_response_core(std::move(request));
}

} // namespace forma
