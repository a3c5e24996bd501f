#pragma once

#include <forma/model/chat_message.hpp>

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace forma {

/** What a run is given: a user message's text, one message, or several messages. Converts
    from each, so `agent.run("Hi")`, `agent.run(message)` and `agent.run(messages)` all work.
*/
class agent_input {
public:
    agent_input() = default;
    agent_input(std::string user_message) { messages_.emplace_back(chat_role::user(), std::move(user_message)); }
    agent_input(std::string_view user_message) : agent_input(std::string(user_message)) {}
    agent_input(const char* user_message) : agent_input(std::string(user_message)) {}
    agent_input(chat_message message) { messages_.push_back(std::move(message)); }
    agent_input(std::vector<chat_message> messages) : messages_(std::move(messages)) {}
    agent_input(std::initializer_list<chat_message> messages) : messages_(messages) {}

    const std::vector<chat_message>& messages() const& noexcept { return messages_; }
    std::vector<chat_message> messages() && noexcept { return std::move(messages_); }

private:
    std::vector<chat_message> messages_;
};

} // namespace forma
