#include "approvals.hpp"

#include "../json/json_text.hpp"

#include <forma/chat/tool_error.hpp>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace forma::chat_detail {
namespace {

bool is_approval(const content& c) noexcept {
    return std::holds_alternative<function_approval_request_content>(c) ||
           std::holds_alternative<function_approval_response_content>(c);
}

// A message of results only: what a tool message is.
bool is_tool_message(const chat_message& m) noexcept {
    if (m.role != chat_role::tool() || m.contents.empty()) return false;
    for (const content& c : m.contents)
        if (!std::holds_alternative<function_result_content>(c)) return false;
    return true;
}

/* Moves each tool message to just after the assistant message whose calls it answers (with
   the others answering it, in their order): the API wants every call's result before any
   other message, and a caller may have written text beside its approval answers. Returns
   where each message went. */
std::vector<std::size_t> results_after_calls(std::vector<chat_message>& messages) {
    std::unordered_map<std::string_view, std::size_t> caller_of; // call id -> assistant message
    std::vector<std::vector<std::size_t>> attached(messages.size());
    std::vector<bool> moved(messages.size(), false);
    bool any = false;
    for (std::size_t i = 0; i < messages.size(); ++i) {
        const chat_message& m = messages[i];
        if (is_tool_message(m)) {
            auto owner = caller_of.find(std::get<function_result_content>(m.contents.front()).call_id);
            if (owner != caller_of.end()) {
                attached[owner->second].push_back(i);
                moved[i] = true;
                any = any || owner->second + attached[owner->second].size() != i;
            }
            continue;
        }
        for (const content& c : m.contents)
            if (const auto* call = std::get_if<function_call_content>(&c)) caller_of.emplace(call->call_id, i);
    }
    std::vector<std::size_t> where(messages.size());
    for (std::size_t i = 0; i < where.size(); ++i) where[i] = i;
    if (!any) return where;
    std::vector<chat_message> ordered;
    ordered.reserve(messages.size());
    for (std::size_t i = 0; i < messages.size(); ++i) {
        if (moved[i]) continue;
        where[i] = ordered.size();
        ordered.push_back(std::move(messages[i]));
        for (std::size_t j : attached[i]) {
            where[j] = ordered.size();
            ordered.push_back(std::move(messages[j]));
        }
    }
    messages = std::move(ordered);
    return where;
}

} // namespace

prepared_conversation prepare_conversation(std::vector<chat_message> messages) {
    bool any = false;
    for (const chat_message& m : messages)
        for (const content& c : m.contents) any = any || is_approval(c);
    if (!any) return {std::move(messages), {}};

    std::unordered_set<std::string> answered; // call ids with a result
    std::unordered_set<std::string> called;   // call ids of calls in the conversation
    std::unordered_map<std::string, function_approval_response_content> answers; // by request id
    for (const chat_message& m : messages)
        for (const content& c : m.contents) {
            if (const auto* result = std::get_if<function_result_content>(&c)) answered.insert(result->call_id);
            else if (const auto* call = std::get_if<function_call_content>(&c)) called.insert(call->call_id);
            else if (const auto* answer = std::get_if<function_approval_response_content>(&c))
                answers.insert_or_assign(answer->id, *answer);
        }

    prepared_conversation out;
    std::unordered_set<std::string> asked; // request ids seen
    std::vector<std::size_t> group_messages;
    out.messages.reserve(messages.size());
    for (chat_message& m : messages) {
        if (std::none_of(m.contents.begin(), m.contents.end(), is_approval)) {
            out.messages.push_back(std::move(m));
            continue;
        }
        std::vector<content> kept;
        approval_group group;
        for (content& c : m.contents) {
            if (auto* request = std::get_if<function_approval_request_content>(&c)) {
                asked.insert(request->id);
                if (!called.insert(request->call.call_id).second) continue; // the call is there already
                if (!answered.count(request->call.call_id)) {
                    pending_approval pending{request->call, false, {}};
                    if (auto answer = answers.find(request->id); answer != answers.end()) {
                        pending.approved = answer->second.approved;
                        pending.reason = answer->second.reason;
                    } else {
                        pending.reason = "the caller did not approve this call";
                    }
                    group.calls.push_back(std::move(pending));
                }
                kept.emplace_back(std::move(request->call));
            } else if (!std::holds_alternative<function_approval_response_content>(c)) {
                kept.push_back(std::move(c));
            }
        }
        if (kept.empty()) continue;
        m.contents = std::move(kept);
        out.messages.push_back(std::move(m));
        if (!group.calls.empty()) {
            group.message = out.messages.size() - 1;
            out.pending.push_back(std::move(group));
        }
    }
    for (const auto& [id, answer] : answers)
        if (!asked.count(id) && !answered.count(answer.call.call_id))
            throw tool_error("the approval answer \"" + json_detail::valid_utf8(id) +
                                 "\" matches no approval request in the conversation: answer in a run on the "
                                 "session whose run asked",
                             answer.call.name, answer.call.call_id);

    const std::vector<std::size_t> where = results_after_calls(out.messages);
    for (approval_group& group : out.pending) group.message = where[group.message];
    return out;
}

void place_results(std::vector<chat_message>& messages, const approval_group& group,
                   const std::vector<chat_message>& results) {
    std::size_t at = group.message + 1;
    while (at < messages.size() && is_tool_message(messages[at])) ++at;
    messages.insert(messages.begin() + static_cast<std::ptrdiff_t>(at), results.begin(), results.end());
}

void ask_approval(std::vector<chat_message>& messages) {
    for (chat_message& m : messages)
        for (content& c : m.contents)
            if (auto* call = std::get_if<function_call_content>(&c)) {
                std::string id = call->call_id;
                c = function_approval_request_content(std::move(id), std::move(*call));
            }
}

std::vector<content> approval_requests(std::vector<function_call_content> calls) {
    std::vector<content> out;
    out.reserve(calls.size());
    for (function_call_content& call : calls) {
        std::string id = call.call_id;
        out.emplace_back(function_approval_request_content(std::move(id), std::move(call)));
    }
    return out;
}

} // namespace forma::chat_detail
