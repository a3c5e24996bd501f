#pragma once

#include <forma/model/continuation_token.hpp>

#include <boost/json/object.hpp>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace forma::a2a {

/// Which of the caller's tasks agent::list_tasks asks a remote agent for (A2A ListTasks).
struct task_list_query {
    /// Only this context's; empty: every context.
    std::string context_id{};
    /// Only tasks in this state, named as A2A 0.3 names it ("working", "input-required", ...); empty: any.
    std::string state{};
    /// Only tasks whose status changed at or after this.
    std::optional<std::chrono::system_clock::time_point> updated_since{};
    /// At most this many (1 to 100); none: the agent's default (50).
    std::optional<std::size_t> page_size{};
    /// The `next_page_token` of the page before; empty: the first page.
    std::string page_token{};
    /// The last messages of each task's history to include; none: the agent's choice.
    std::optional<std::size_t> history_length{};
    /// Whether each task comes with its artifacts.
    bool include_artifacts = false;
};

/// A task of a remote agent, as it stood when listed.
struct remote_task {
    std::string id;
    std::string context_id;
    /// Its state, named as A2A 0.3 names it ("completed", "working", ...), whichever version was spoken.
    std::string state{};
    /// When its status last changed, where the agent said.
    std::optional<std::chrono::system_clock::time_point> updated{};
    /// Passed in agent_run_options::continuation_token, a run reads (or follows) the task;
    /// agent::cancel cancels it.
    continuation_token token;
    /// The task as the agent sent it, in A2A 0.3's shape.
    boost::json::object raw{};
};

/// One page of a remote agent's tasks, the most recently updated first.
struct remote_task_page {
    std::vector<remote_task> tasks{};
    /// How many tasks match, across every page.
    std::size_t total = 0;
    /// What finds the next page (task_list_query::page_token); empty on the last one.
    std::string next_page_token{};
};

} // namespace forma::a2a
