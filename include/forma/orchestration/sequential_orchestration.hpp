#pragma once

#include <forma/orchestration/orchestration.hpp>

#include <memory>
#include <vector>

namespace forma {

/// How a sequential_orchestration runs.
struct sequential_options {
    orchestration_options orchestration{};
};

/** Agents in a line (a pipeline): each gets the conversation so far, the answers of those
    before it included, and adds its own. The last one's answer is the run's: `run<T>` gives
    it alone the format. A participant that asks for approvals stops the line there; the next
    run brings the answers to it, and the line goes on.

        forma::sequential_orchestration pipeline({writer, reviewer, editor});
        auto text = (co_await pipeline.run("A product note about forma")).text();
*/
class sequential_orchestration : public orchestration {
public:
    /// @throws error for what orchestration refuses.
    explicit sequential_orchestration(std::vector<std::shared_ptr<agent>> participants, sequential_options options = {});

protected:
    void begin(orchestration_state& state) const override;
    boost::asio::awaitable<std::vector<std::size_t>> next_speakers(turn t) override;
    bool may_answer_last(std::size_t speaker, const turn& t) const override;
    std::vector<chat_message> after(std::size_t speaker, const agent_response<>& response, turn& t) override;
};

} // namespace forma
