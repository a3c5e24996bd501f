#pragma once
// What every task_store's list() shares: the order of a listing (the most recently updated
// first, then by id from the largest), the page token that marks where a page ends, and the
// query's filters.

#include <forma/agent/task_store.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace forma::agent_detail {

/// Where a listing stands: after the task updated at `updated_ms` with id `id`.
struct task_cursor {
    std::int64_t updated_ms = 0;
    std::string id;

    /// Whether a task updated at `updated_ms` with `id` comes after this point in the listing's order.
    bool precedes(std::int64_t task_updated_ms, std::string_view task_id) const noexcept {
        return task_updated_ms < updated_ms || (task_updated_ms == updated_ms && task_id < id);
    }
};

/// Milliseconds since the epoch, the listing's time.
std::int64_t epoch_ms(std::chrono::system_clock::time_point t) noexcept;

/// "<ms>.<id>".
std::string page_token(const task_cursor& cursor);
/// The cursor a token names. @throws std::invalid_argument for text page_token did not write.
task_cursor cursor_of(std::string_view token);

/// Whether a task matches the query's owner, context, state and time (not its page).
bool matches(const task_query& query, const agent_task& task) noexcept;

} // namespace forma::agent_detail
