#pragma once

#include <forma/orchestration/orchestration.hpp>

#include <boost/describe/class.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace forma {

/// What a group chat's speaker selector sees before a round.
struct group_chat_turn {
    const std::vector<chat_message>& conversation;
    /// Rounds of the current run so far (0 before the first).
    std::size_t round;
    const std::vector<std::shared_ptr<agent>>& participants;
};

/// A manager agent's choice of the next speaker (it is asked with run<group_chat_choice>).
struct group_chat_choice {
    /// A participant's name; empty when the conversation has reached its goal.
    std::string next_speaker;
    std::string reason;
};
BOOST_DESCRIBE_STRUCT(group_chat_choice, (), (next_speaker, reason))

/// How a group chat picks its speakers and when it ends.
struct group_chat_options {
    /// Names the next speaker; an empty name ends the chat. Unset (and no manager): round robin.
    std::function<std::string(const group_chat_turn&)> select_speaker{};
    /** An agent that names the next speaker instead: it gets the conversation and a message
        listing the participants (names and descriptions), and answers a group_chat_choice.
    */
    std::shared_ptr<agent> manager{};
    /// Asked after each round: true ends the chat.
    std::function<bool(const std::vector<chat_message>&)> terminate{};
    /// Rounds (speakers' turns) in one run.
    std::size_t max_rounds = 10;
    orchestration_options orchestration{};
};

/** Agents in a conversation led by a manager: before each round the manager (a function, an
    agent, or round robin) names who speaks next, and that participant gets the whole
    conversation and adds to it, until the manager names nobody, `terminate` says so, or
    `max_rounds` rounds have run. Any speaker may answer last, so `run<T>` gives each one the
    format. A speaker that asks for approvals stops the chat; the next run brings it the
    answers, and the chat goes on.
*/
class group_chat_orchestration : public orchestration {
public:
    /// @throws error for what orchestration refuses, or both a select_speaker and a manager.
    explicit group_chat_orchestration(std::vector<std::shared_ptr<agent>> participants, group_chat_options options = {});

    const group_chat_options& options() const noexcept { return options_; }

protected:
    void begin(orchestration_state& state) const override;
    boost::asio::awaitable<std::vector<std::size_t>> next_speakers(turn t) override;
    std::vector<chat_message> after(std::size_t speaker, const agent_response<>& response, turn& t) override;

private:
    boost::asio::awaitable<std::string> ask_manager(const turn& t);

    group_chat_options options_;
};

} // namespace forma
