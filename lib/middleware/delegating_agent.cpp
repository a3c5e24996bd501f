#include <forma/middleware/delegating_agent.hpp>

#include <stdexcept>

namespace forma {

delegating_agent::delegating_agent(std::shared_ptr<agent> inner) : inner_(std::move(inner)) {
    if (!inner_) throw std::invalid_argument("delegating_agent needs an inner agent");
}

boost::asio::awaitable<agent_response<>>
delegating_agent::run_core(std::vector<chat_message> messages, std::shared_ptr<agent_session> session,
                           agent_run_options options) {
    return inner_->run(std::move(messages), std::move(session), std::move(options));
}

update_stream delegating_agent::run_streaming_core(std::vector<chat_message> messages,
                                                   std::shared_ptr<agent_session> session,
                                                   agent_run_options options) {
    return inner_->run_streaming(std::move(messages), std::move(session), std::move(options));
}

} // namespace forma
