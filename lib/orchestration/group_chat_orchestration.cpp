#include <forma/orchestration/group_chat_orchestration.hpp>

#include "../json/json_text.hpp"
#include "../text/failure_text.hpp"

namespace forma {

using json_detail::valid_utf8;

group_chat_orchestration::group_chat_orchestration(std::vector<std::shared_ptr<agent>> participants,
                                                   group_chat_options options)
    : orchestration("group_chat", std::move(participants), std::move(options.orchestration)),
      options_(std::move(options)) {
    options_.orchestration = {};
    if (options_.select_speaker && options_.manager)
        throw error("a group chat takes a select_speaker function or a manager agent, not both");
}

void group_chat_orchestration::begin(orchestration_state& state) const { state.rounds = 0; }

boost::asio::awaitable<std::string> group_chat_orchestration::ask_manager(const turn& t) {
    std::string roster = "Participants of this conversation:\n";
    for (const auto& p : participants()) {
        roster += "- " + std::string(p->name());
        if (!p->description().empty()) roster += ": " + std::string(p->description());
        roster += "\n";
    }
    roster += "Name the participant who should speak next in next_speaker, with your reason; leave next_speaker "
              "empty when the conversation has reached its goal.";
    std::vector<chat_message> messages = t.conversation;
    messages.emplace_back(chat_role::user(), std::move(roster));
    agent_run_options options;
    options.context = t.options.context;
    std::exception_ptr failure;
    try {
        const agent_response<group_chat_choice> choice =
            co_await options_.manager->run<group_chat_choice>(std::move(messages), nullptr, std::move(options));
        co_return choice.result().next_speaker;
    } catch (...) {
        failure = std::current_exception();
    }
    if (text_detail::is_cancellation(failure)) std::rethrow_exception(failure);
    // Named, so that the run's orchestration_error says the manager failed, not a participant.
    throw orchestration_error("its manager \"" + valid_utf8(options_.manager->name()) + "\" failed: " +
                                  valid_utf8(text_detail::failure_text(failure)),
                              std::string(options_.manager->name()), 0, failure, {});
}

boost::asio::awaitable<std::vector<std::size_t>> group_chat_orchestration::next_speakers(turn t) {
    std::vector<std::size_t> none;
    if (t.state.rounds >= options_.max_rounds) co_return none;
    if (t.state.rounds > 0 && options_.terminate && options_.terminate(t.conversation)) co_return none;
    std::string next;
    if (options_.select_speaker)
        next = options_.select_speaker(group_chat_turn{t.conversation, t.state.rounds, participants()});
    else if (options_.manager)
        next = co_await ask_manager(t);
    else
        next = participants()[t.state.rounds % participants().size()]->name();
    if (next.empty()) co_return none;
    if (!participant(next))
        throw orchestration_error("the group chat \"" + valid_utf8(name()) + "\" was told to give the word to \"" + valid_utf8(next) +
                                      "\", who is not one of its participants",
                                  options_.manager ? std::string(options_.manager->name()) : std::string(), 0, nullptr, {});
    ++t.state.rounds;
    co_return std::vector<std::size_t>{index_of(next)};
}

std::vector<chat_message> group_chat_orchestration::after(std::size_t, const agent_response<>&, turn&) { return {}; }

} // namespace forma
