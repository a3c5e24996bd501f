#include "task_follow.hpp"

#include <forma/agent/served_agent.hpp>

namespace forma::agent_detail {

boost::asio::awaitable<std::optional<task_changes>> next_task_changes(task_store& tasks, net::response_writer& writer,
                                                                     const std::string& id, follow_position& at) {
    for (;;) {
        std::optional<task_changes> changes = co_await tasks.changes(id, at.next, at.version, served_agent::keep_alive_interval);
        if (!changes) co_return std::nullopt;
        if (changes->version == at.version) {
            co_await writer.write(": keep-alive\n\n");
            continue;
        }
        at.next = changes->next;
        at.version = changes->version;
        co_return changes;
    }
}

} // namespace forma::agent_detail
