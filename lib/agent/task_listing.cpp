#include "task_listing.hpp"

#include <charconv>
#include <stdexcept>

namespace forma::agent_detail {

std::int64_t epoch_ms(std::chrono::system_clock::time_point t) noexcept {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

std::string page_token(const task_cursor& cursor) { return std::to_string(cursor.updated_ms) + "." + cursor.id; }

task_cursor cursor_of(std::string_view token) {
    task_cursor cursor;
    const char* end = token.data() + token.size();
    const auto [after, ec] = std::from_chars(token.data(), end, cursor.updated_ms);
    if (ec != std::errc{} || after == end || *after != '.' || after + 1 == end || cursor.updated_ms < 0)
        throw std::invalid_argument("the page token is not one this server gave: ask for the first page without one");
    cursor.id.assign(after + 1, end);
    return cursor;
}

bool matches(const task_query& query, const agent_task& task) noexcept {
    return task.owner == query.owner && (query.context_id.empty() || task.context_id == query.context_id) &&
           (!query.state || task.state == *query.state) && (!query.updated_since || task.updated >= *query.updated_since);
}

} // namespace forma::agent_detail
