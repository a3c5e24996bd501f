#include <forma/orchestration/orchestration_error.hpp>

namespace forma {

orchestration_error::orchestration_error(std::string message, std::string participant, std::size_t step,
                                         std::exception_ptr cause, agent_response<> partial_response)
    : error(std::move(message)), participant_(std::move(participant)), step_(step), cause_(std::move(cause)),
      partial_(std::move(partial_response)) {}

orchestration_error::~orchestration_error() = default;

} // namespace forma
