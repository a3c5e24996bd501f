#include <forma/agent/delegating_agent.hpp>

#include <forma/error.hpp>

namespace forma {

delegating_agent::delegating_agent(std::shared_ptr<agent> inner) : inner_(std::move(inner)) {
    if (!inner_) throw error("delegating_agent needs an inner agent");
}

boost::asio::awaitable<agent_response<>> delegating_agent::run_core(agent_run run) {
    return inner_->run_core(std::move(run));
}

update_stream delegating_agent::run_streaming_core(agent_run run) {
    return inner_->run_streaming_core(std::move(run));
}

} // namespace forma
