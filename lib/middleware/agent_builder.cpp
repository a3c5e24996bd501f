#include <forma/middleware/agent_builder.hpp>

#include <forma/agent/stored_agent.hpp>
#include <forma/error.hpp>
#include <forma/middleware/structured_output_agent.hpp>

#include "../chat/decorator_chain.hpp"

namespace forma {

agent_builder::agent_builder(std::shared_ptr<agent> inner) : inner_(std::move(inner)) {
    if (!inner_) throw error("agent_builder needs an agent");
}

agent_builder::agent_builder(agent& inner) : inner_(chat_detail::not_owned(inner)) {}

agent_builder& agent_builder::use(factory decorator) & {
    if (!decorator) throw error("agent_builder::use needs a factory");
    factories_.push_back(std::move(decorator));
    return *this;
}

agent_builder&& agent_builder::use(factory decorator) && { return std::move(use(std::move(decorator))); }

agent_builder& agent_builder::use_structured_output(chat_client& client) & {
    return use([&client](std::shared_ptr<agent> inner) -> std::shared_ptr<agent> {
        return std::make_shared<structured_output_agent>(std::move(inner), client);
    });
}

agent_builder&& agent_builder::use_structured_output(chat_client& client) && {
    return std::move(use_structured_output(client));
}

agent_builder& agent_builder::use_telemetry(telemetry_options options) & {
    if (!options.exporter) throw error("agent_builder::use_telemetry needs an exporter");
    return use([options = std::move(options)](std::shared_ptr<agent> inner) -> std::shared_ptr<agent> {
        return std::make_shared<telemetry_agent>(std::move(inner), options);
    });
}

agent_builder&& agent_builder::use_telemetry(telemetry_options options) && {
    return std::move(use_telemetry(std::move(options)));
}

agent_builder& agent_builder::use_session_store(std::shared_ptr<session_store> store) & {
    if (!store) throw error("agent_builder::use_session_store needs a store");
    return use([store = std::move(store)](std::shared_ptr<agent> inner) -> std::shared_ptr<agent> {
        return std::make_shared<stored_agent>(std::move(inner), store);
    });
}

agent_builder&& agent_builder::use_session_store(std::shared_ptr<session_store> store) && {
    return std::move(use_session_store(std::move(store)));
}

std::shared_ptr<agent> agent_builder::build() const {
    return chat_detail::build_chain(inner_, factories_, "agent_builder");
}

} // namespace forma
