// forma::in_memory_task_store: tasks in a map, watchers woken by a timer per task.
#include <forma/agent/in_memory_task_store.hpp>
#include <forma/error.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

namespace forma {

namespace asio = boost::asio;

in_memory_task_store::in_memory_task_store(executor_type executor, std::size_t max_tasks)
    : executor_(std::move(executor)), max_tasks_(std::max<std::size_t>(max_tasks, 1)) {}

in_memory_task_store::entry& in_memory_task_store::find(const std::string& id) {
    const auto it = tasks_.find(id);
    if (it == tasks_.end()) throw error("no task " + id + " in the task store");
    return it->second;
}

void in_memory_task_store::touch(entry& e) {
    ++e.task.version;
    e.task.updated = std::chrono::system_clock::now();
    e.changed->cancel();
    e.changed = std::make_shared<asio::steady_timer>(executor_, asio::steady_timer::time_point::max());
}

void in_memory_task_store::make_room() {
    while (tasks_.size() >= max_tasks_) {
        auto oldest = tasks_.end();
        for (auto it = tasks_.begin(); it != tasks_.end(); ++it)
            if (is_final(it->second.task.state) && (oldest == tasks_.end() || it->second.task.updated < oldest->second.task.updated))
                oldest = it;
        if (oldest == tasks_.end()) throw error("the task store holds " + std::to_string(tasks_.size()) +
                                                " unfinished tasks, its limit; none can be dropped");
        oldest->second.changed->cancel();
        tasks_.erase(oldest);
    }
}

asio::awaitable<void> in_memory_task_store::create(agent_task task) {
    if (tasks_.contains(task.id)) throw error("a task " + task.id + " is already in the task store");
    make_room();
    const auto now = std::chrono::system_clock::now();
    if (task.created == std::chrono::system_clock::time_point{}) task.created = now;
    task.updated = now;
    task.version = 1;
    std::string id = task.id;
    tasks_.emplace(std::move(id), entry{std::move(task), std::make_shared<asio::steady_timer>(executor_, asio::steady_timer::time_point::max())});
    co_return;
}

asio::awaitable<std::optional<agent_task>> in_memory_task_store::load(std::string id) {
    const auto it = tasks_.find(id);
    if (it == tasks_.end()) co_return std::nullopt;
    co_return it->second.task;
}

asio::awaitable<void> in_memory_task_store::append(std::string id, std::vector<agent_response_update> updates) {
    entry& e = find(id);
    for (auto& u : updates) e.task.updates.push_back(std::move(u));
    touch(e);
    co_return;
}

asio::awaitable<void> in_memory_task_store::set_state(std::string id, task_state state, std::string why) {
    entry& e = find(id);
    e.task.state = state;
    e.task.error = std::move(why);
    touch(e);
    co_return;
}

asio::awaitable<bool> in_memory_task_store::transition(std::string id, task_state from, task_state to) {
    const auto it = tasks_.find(id);
    if (it == tasks_.end() || it->second.task.state != from) co_return false;
    it->second.task.state = to;
    it->second.task.error.clear();
    touch(it->second);
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

bool in_memory_task_store::erase(const std::string& id) {
    const auto it = tasks_.find(id);
    if (it == tasks_.end()) return false;
    it->second.changed->cancel();
    tasks_.erase(it);
    return true;
}

} // namespace forma
