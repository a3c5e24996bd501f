#pragma once

#include <forma/agent/agent_run_options.hpp>
#include <forma/agent/agent_session.hpp>
#include <forma/model/chat_message.hpp>

#include <memory>
#include <vector>

namespace forma {

/** One run as agents and their decorators see it: the new messages, the session (never null:
    agent::run makes or loads it first) and the options. A decorator changes what it needs and
    passes the run on.
*/
struct agent_run {
    std::vector<chat_message> messages;
    std::shared_ptr<agent_session> session;
    agent_run_options options;
};

} // namespace forma
