#pragma once

#include <forma/chat/chat_options.hpp>
#include <forma/chat/run_context.hpp>
#include <forma/model/chat_message.hpp>

#include <vector>

namespace forma {

/** One call of a chat client as its implementations see it: the messages, the options and
    the run's context. A decorator changes what it needs and passes the request on, as an
    agent decorator does with an agent_run.
*/
struct chat_request {
    std::vector<chat_message> messages;
    chat_options options;
    run_context context;
};

} // namespace forma
