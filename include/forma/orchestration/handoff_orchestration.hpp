#pragma once

#include <forma/chat/function_tool.hpp>
#include <forma/orchestration/orchestration.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma {

/// What the agent a conversation is handed to sees of it.
enum class handoff_history {
    /// Everything, the handoff calls and their results too.
    full,
    /// Everything but the handoff calls, their results and the handoff contents (the default):
    /// the receiving agent reads the conversation as if it had had it from the start.
    without_handoffs,
};

/// How a handoff_orchestration passes the conversation around.
struct handoff_options {
    /// The participant a new conversation starts with, by name; the first participant when empty.
    std::string start{};
    /** Who may hand off to whom, by name. A participant without an entry may hand off to every
        other one; one with an empty list to none (it answers, or asks, itself).
    */
    std::map<std::string, std::vector<std::string>, std::less<>> routes{};
    handoff_history history = handoff_history::without_handoffs;
    /// Your own filter of what the receiving agent sees, applied after `history`'s.
    std::function<std::vector<chat_message>(std::vector<chat_message>)> filter{};
    /// Handoffs in one run; one more ends the run with an orchestration_error (the conversation
    /// stays with the agent it was handed to, and the next run starts there).
    std::size_t max_handoffs = 8;
    /// A new run starts with `start` instead of the agent that answered last.
    bool return_to_start = false;
    orchestration_options orchestration{};
};

/** Agents that pass the conversation to each other (the OpenAI Agents SDK's handoffs): control
    moves, unlike as_tool where the caller keeps it.

    Each participant's run gets a tool `handoff_to_<name>` for every participant it may hand off
    to (`routes`), with an optional `reason` argument. When it calls one, its tool loop ends
    there, a handoff_content (from, to, reason) joins the conversation (secondary output, in the
    response and the stream, never sent to a model) and the named agent gets the conversation
    (filtered by `history` and `filter`) and goes on. The run ends with the first answer that
    hands off no further; the next run on the session goes to the agent that gave it (a
    question to the user is answered to whoever asked), or to `start` with `return_to_start`.
    An agent that asks for approvals keeps the conversation: the answers go to it.

    Only chat agents (chat_client_agent, or agents over one) can call the tools; any other
    participant (a remote A2A agent) can receive a handoff and answers. Every participant may
    answer last, so `run<T>` gives each one the format.

        forma::handoff_orchestration desk({triage, billing, technical},
                                          {.routes = {{"billing", {}}, {"technical", {}}}});
        auto answer = co_await desk.run("I was charged twice");
*/
class handoff_orchestration : public orchestration {
public:
    /** @throws error for what orchestration refuses, a `start` or route naming no participant, or
        two names that make one tool name.
    */
    explicit handoff_orchestration(std::vector<std::shared_ptr<agent>> participants, handoff_options options = {});

    /** The name of the tool that hands off to the participant `name`: "handoff_to_<name>", with
        what a tool name may not hold (anything but letters, digits, `_` and `-`) made `_`, cut at
        64 characters: a remote agent's card may name it "Billing desk".
    */
    static std::string tool_name(std::string_view name);

    const handoff_options& options() const noexcept { return options_; }

protected:
    void begin(orchestration_state& state) const override;
    boost::asio::awaitable<std::vector<std::size_t>> next_speakers(turn t) override;
    std::vector<chat_message> view(std::size_t speaker, const turn& t) const override;
    void prepare(std::size_t speaker, agent_run_options& options, const turn& t) const override;
    std::vector<chat_message> after(std::size_t speaker, const agent_response<>& response, turn& t) override;

private:
    /// The participant a handoff tool hands off to.
    std::optional<std::size_t> target_of(std::string_view tool) const;

    handoff_options options_;
    std::size_t start_ = 0;
    std::vector<std::string> tool_names_;            // the tool that hands off to each participant
    std::vector<std::vector<function_tool>> tools_; // each participant's handoff tools
};

} // namespace forma
