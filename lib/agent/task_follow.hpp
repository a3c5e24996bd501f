#pragma once
// Following a served task's changes as a stream does (A2A's SendStreamingMessage and
// SubscribeToTask, AG-UI's runs, Responses' streams): the store asked again until something
// changes, a keep-alive comment written each time nothing did. Shared by lib/a2a and lib/serving.

#include <forma/agent/task_store.hpp>
#include <forma/net/http_reply.hpp>

#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace forma::agent_detail {

/// Where a follower of a task stands: the first update it has not seen, and the version it saw.
struct follow_position {
    std::size_t next = 0;
    std::uint64_t version = 0;
};

/** The next changes of task `id` after `at`, which moves past them. Waits as long as it takes,
    writing a keep-alive comment to `writer` every served_agent::keep_alive_interval with no
    change, so that proxies keep the connection; nullopt once the store has no such task.
*/
boost::asio::awaitable<std::optional<task_changes>> next_task_changes(task_store& tasks, net::response_writer& writer,
                                                                     const std::string& id, follow_position& at);

} // namespace forma::agent_detail
