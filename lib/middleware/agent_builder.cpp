#include <forma/middleware/agent_builder.hpp>

#include <forma/middleware/structured_output_agent.hpp>

#include <stdexcept>

namespace forma {

agent_builder::agent_builder(std::shared_ptr<agent> inner) : inner_(std::move(inner)) {
    if (!inner_) throw std::invalid_argument("agent_builder needs an agent");
}

agent_builder::agent_builder(agent& inner)
    : inner_(std::shared_ptr<agent>(&inner, [](agent*) {})) {} // not owned

agent_builder& agent_builder::use(factory decorator) & {
    if (!decorator) throw std::invalid_argument("agent_builder::use needs a factory");
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
    if (!options.exporter) throw std::invalid_argument("agent_builder::use_telemetry needs an exporter");
    return use([options = std::move(options)](std::shared_ptr<agent> inner) -> std::shared_ptr<agent> {
        return std::make_shared<telemetry_agent>(std::move(inner), options);
    });
}

agent_builder&& agent_builder::use_telemetry(telemetry_options options) && {
    return std::move(use_telemetry(std::move(options)));
}

std::shared_ptr<agent> agent_builder::build() const {
    std::shared_ptr<agent> built = inner_;
    // The first `use` is outermost, so wrap from the last one outwards.
    for (auto it = factories_.rbegin(); it != factories_.rend(); ++it) {
        built = (*it)(std::move(built));
        if (!built) throw std::invalid_argument("an agent_builder factory returned no agent");
    }
    return built;
}

} // namespace forma
