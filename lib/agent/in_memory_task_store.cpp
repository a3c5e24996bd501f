// forma::in_memory_task_store: tasks in a map, watchers woken by a timer per task; the waiting
// and the ended ones queued by age, so that making room and expiring take the oldest first.
#include <forma/agent/in_memory_task_store.hpp>
#include <forma/error.hpp>

#include "task_footprint.hpp"
#include "task_listing.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

namespace forma {

namespace asio = boost::asio;

namespace {

std::string in_seconds(std::chrono::milliseconds d) {
    return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(d).count()) + " s";
}

} // namespace

in_memory_task_store::in_memory_task_store(executor_type executor, in_memory_task_store_options options)
    : executor_(std::move(executor)), options_(options) {
    options_.max_tasks = std::max<std::size_t>(options_.max_tasks, 1);
}

in_memory_task_store::in_memory_task_store(executor_type executor, std::size_t max_tasks)
    : in_memory_task_store(std::move(executor), in_memory_task_store_options{.max_tasks = max_tasks}) {}

in_memory_task_store::iterator in_memory_task_store::find(const std::string& id) {
    const auto it = tasks_.find(id);
    if (it == tasks_.end()) throw error("no task " + id + " in the task store");
    return it;
}

void in_memory_task_store::touch(entry& e) {
    ++e.task.version;
    e.task.updated = std::chrono::system_clock::now();
    e.changed->cancel();
    e.changed = std::make_shared<asio::steady_timer>(executor_, asio::steady_timer::time_point::max());
}

in_memory_task_store::queue* in_memory_task_store::queue_of(const entry& e) noexcept {
    if (e.expired) return &expired_;
    if (e.task.state == task_state::input_required) return &waiting_;
    return is_final(e.task.state) ? &finished_ : nullptr;
}

// A state change, with the task queued anew by the time it began to wait or ended.
void in_memory_task_store::set(iterator it, task_state state, std::string why) {
    entry& e = it->second;
    if (queue* q = queue_of(e)) q->erase({e.since, it->first});
    e.bytes = e.bytes - e.task.error.size() + why.size();
    bytes_ = bytes_ - e.task.error.size() + why.size();
    e.task.state = state;
    e.task.error = std::move(why);
    e.since = clock::now();
    if (queue* q = queue_of(e)) q->insert({e.since, it->first});
    touch(e);
}

// Ends a waiting task as expired, keeping only what tells whoever asks for it why.
void in_memory_task_store::expire(iterator it, const std::string& why) {
    entry& e = it->second;
    if (queue* q = queue_of(e)) q->erase({e.since, it->first});
    e.expired = true;
    --live_;
    e.task.input = {};
    e.task.updates = {};
    e.task.properties = {};
    e.task.state = task_state::failed;
    e.task.error = "expired: " + why;
    bytes_ -= e.bytes;
    e.bytes = agent_detail::footprint(e.task);
    bytes_ += e.bytes;
    e.since = clock::now();
    expired_.insert({e.since, it->first});
    touch(e);
    if (expired_.size() > options_.max_tasks) drop(tasks_.find(expired_.begin()->second));
}

void in_memory_task_store::drop(iterator it) {
    entry& e = it->second;
    if (queue* q = queue_of(e)) q->erase({e.since, it->first});
    if (!e.expired) --live_;
    bytes_ -= e.bytes;
    e.changed->cancel();
    tasks_.erase(it);
}

// The waiting past waiting_ttl expire; the ended past finished_ttl go.
void in_memory_task_store::sweep() {
    const auto now = clock::now();
    if (options_.waiting_ttl.count() > 0)
        while (!waiting_.empty() && now - waiting_.begin()->first > options_.waiting_ttl)
            expire(tasks_.find(waiting_.begin()->second), "no answer came within " + in_seconds(options_.waiting_ttl) +
                                                             ", the time the server keeps a task waiting");
    if (options_.finished_ttl.count() > 0)
        for (queue* q : {&finished_, &expired_})
            while (!q->empty() && now - q->begin()->first > options_.finished_ttl) drop(tasks_.find(q->begin()->second));
}

// Room for `more_bytes` (and one more task): the ended go first, then the waiting expire, then
// (for bytes) the expired go.
void in_memory_task_store::make_room(std::size_t more_bytes, bool one_more_task) {
    sweep();
    if (more_bytes > options_.max_bytes)
        throw error("a task of " + std::to_string(more_bytes) + " bytes is larger than the task store's limit of " +
                    std::to_string(options_.max_bytes) + " bytes (max_bytes)");
    for (;;) {
        const bool too_many = live_ + (one_more_task ? 1 : 0) > options_.max_tasks;
        const bool too_large = bytes_ + more_bytes > options_.max_bytes;
        if (!too_many && !too_large) return;
        if (!finished_.empty()) {
            drop(tasks_.find(finished_.begin()->second));
        } else if (!waiting_.empty()) {
            expire(tasks_.find(waiting_.begin()->second), "the server needed room for new work while the task waited for an answer");
        } else if (too_large && !expired_.empty()) {
            drop(tasks_.find(expired_.begin()->second));
        } else {
            throw error("the task store holds " + std::to_string(live_) + " running tasks of " + std::to_string(bytes_) +
                        " bytes, at its limits (max_tasks " + std::to_string(options_.max_tasks) + ", max_bytes " +
                        std::to_string(options_.max_bytes) + "); none can be dropped");
        }
    }
}

asio::awaitable<void> in_memory_task_store::create(agent_task task) {
    if (tasks_.contains(task.id)) throw error("a task " + task.id + " is already in the task store");
    const std::size_t bytes = agent_detail::footprint(task);
    make_room(bytes, true);
    const auto now = std::chrono::system_clock::now();
    if (task.created == std::chrono::system_clock::time_point{}) task.created = now;
    task.updated = now;
    task.version = 1;
    std::string id = task.id;
    const auto it = tasks_.emplace(std::move(id), entry{std::move(task), std::make_shared<asio::steady_timer>(executor_, asio::steady_timer::time_point::max()),
                                                        bytes}).first;
    entry& e = it->second;
    bytes_ += bytes;
    ++live_;
    e.since = clock::now();
    if (e.task.state == task_state::input_required) waiting_.insert({e.since, it->first});
    else if (is_final(e.task.state)) finished_.insert({e.since, it->first});
    co_return;
}

asio::awaitable<std::optional<agent_task>> in_memory_task_store::load(std::string id) {
    sweep();
    const auto it = tasks_.find(id);
    if (it == tasks_.end()) co_return std::nullopt;
    co_return it->second.task;
}

asio::awaitable<void> in_memory_task_store::append(std::string id, std::vector<agent_response_update> updates) {
    std::size_t bytes = 0;
    for (const auto& u : updates) bytes += agent_detail::footprint(u);
    auto it = find(id);
    const std::size_t kept = tasks_.size();
    make_room(bytes, false);
    if (tasks_.size() != kept) it = find(id); // room was made by dropping tasks (an ended one may be this)
    entry& e = it->second;
    for (auto& u : updates) e.task.updates.push_back(std::move(u));
    e.bytes += bytes;
    bytes_ += bytes;
    touch(e);
    co_return;
}

asio::awaitable<void> in_memory_task_store::set_state(std::string id, task_state state, std::string why) {
    set(find(id), state, std::move(why));
    co_return;
}

asio::awaitable<bool> in_memory_task_store::transition(std::string id, task_state from, task_state to) {
    const auto it = tasks_.find(id);
    if (it == tasks_.end() || it->second.task.state != from) co_return false;
    set(it, to, {});
    co_return true;
}

asio::awaitable<std::optional<agent_task>> in_memory_task_store::request_cancel(std::string id) {
    const auto it = tasks_.find(id);
    if (it == tasks_.end()) co_return std::nullopt;
    if (!it->second.task.cancel_requested && !is_final(it->second.task.state)) {
        it->second.task.cancel_requested = true;
        touch(it->second);
    }
    co_return it->second.task;
}

asio::awaitable<std::optional<task_changes>> in_memory_task_store::changes(std::string id, std::size_t from,
                                                                           std::uint64_t seen_version,
                                                                           std::chrono::milliseconds wait) {
    auto it = tasks_.find(id);
    if (it == tasks_.end()) co_return std::nullopt;
    if (it->second.task.version == seen_version && wait.count() > 0) {
        const std::shared_ptr<asio::steady_timer> changed = it->second.changed;
        asio::steady_timer deadline(executor_, wait);
        // Wakes on a change (the task's timer is canceled) or at the deadline, whichever comes first.
        deadline.async_wait([changed](boost::system::error_code ec) {
            if (!ec) changed->cancel();
        });
        co_await changed->async_wait(asio::as_tuple(asio::use_awaitable));
        deadline.cancel();
        it = tasks_.find(id);
        if (it == tasks_.end()) co_return std::nullopt;
    }
    const agent_task& t = it->second.task;
    task_changes out{.state = t.state, .error = t.error, .cancel_requested = t.cancel_requested, .next = t.updates.size(),
                     .version = t.version};
    for (std::size_t i = std::min(from, t.updates.size()); i < t.updates.size(); ++i) out.updates.push_back(t.updates[i]);
    co_return out;
}

asio::awaitable<task_page> in_memory_task_store::list(task_query query) {
    sweep();
    std::optional<agent_detail::task_cursor> after;
    if (!query.page_token.empty()) after = agent_detail::cursor_of(query.page_token);
    std::vector<std::pair<std::int64_t, const agent_task*>> found; // (updated ms, task)
    for (const auto& [id, e] : tasks_)
        if (agent_detail::matches(query, e.task)) found.emplace_back(agent_detail::epoch_ms(e.task.updated), &e.task);
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second->id > b.second->id;
    });
    task_page page{.total = found.size()};
    const std::size_t size = std::max<std::size_t>(query.page_size, 1);
    for (const auto& [updated, task] : found) {
        if (after && !after->precedes(updated, task->id)) continue;
        if (page.tasks.size() == size) {
            const agent_task& last = page.tasks.back();
            page.next_page_token = agent_detail::page_token({agent_detail::epoch_ms(last.updated), last.id});
            break;
        }
        page.tasks.push_back(*task);
    }
    co_return page;
}

bool in_memory_task_store::erase(const std::string& id) {
    const auto it = tasks_.find(id);
    if (it == tasks_.end()) return false;
    drop(it);
    return true;
}

} // namespace forma
