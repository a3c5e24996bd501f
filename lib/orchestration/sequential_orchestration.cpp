#include <forma/orchestration/sequential_orchestration.hpp>

namespace forma {

sequential_orchestration::sequential_orchestration(std::vector<std::shared_ptr<agent>> participants,
                                                   sequential_options options)
    : orchestration("sequential", std::move(participants), std::move(options.orchestration)) {}

void sequential_orchestration::begin(orchestration_state&) const {}

boost::asio::awaitable<std::vector<std::size_t>> sequential_orchestration::next_speakers(turn t) {
    if (t.state.step < participants().size()) co_return std::vector<std::size_t>{t.state.step};
    co_return std::vector<std::size_t>{};
}

bool sequential_orchestration::may_answer_last(std::size_t speaker, const turn&) const {
    return speaker + 1 == participants().size();
}

std::vector<chat_message> sequential_orchestration::after(std::size_t, const agent_response<>&, turn&) { return {}; }

} // namespace forma
