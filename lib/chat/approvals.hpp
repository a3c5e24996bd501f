#pragma once
// Approval requests and answers in a conversation: what the model sees of them (plain
// calls and results), and which calls wait to run or to be refused.

#include <forma/model/chat_message.hpp>

#include <string>
#include <vector>

namespace forma::chat_detail {

/// A call whose approval was asked and that has no result yet, with the caller's decision.
struct pending_approval {
    function_call_content call;
    bool approved = false;
    /// Why it was refused (the caller's reason, or that nobody answered).
    std::string reason;
};

/// The pending calls of one assistant message.
struct approval_group {
    /// Index, in prepared_conversation::messages, of the assistant message holding the calls.
    std::size_t message = 0;
    std::vector<pending_approval> calls;
};

struct prepared_conversation {
    std::vector<chat_message> messages;
    std::vector<approval_group> pending;
};

/** The conversation as the model sees it. With no approval content it is `messages`
    as they are. Otherwise each request becomes its call (unless the call is there
    already), answers are taken out (a message left empty goes), tool messages follow
    the assistant message whose calls they answer, and the calls without a result are
    returned with the caller's decision: a request nobody answered counts as refused.
    @throws tool_error for an answer that matches no request (another session's).
*/
prepared_conversation prepare_conversation(std::vector<chat_message> messages);

/// Inserts the tool messages of the group's results after its assistant message (and the tool
/// messages already after it); groups must be placed last to first.
void place_results(std::vector<chat_message>& messages, const approval_group& group,
                   const std::vector<chat_message>& results);

/// Each call in `messages` replaced, in place, by a request for its approval.
void ask_approval(std::vector<chat_message>& messages);

/// The calls as approval requests, in order.
std::vector<content> approval_requests(std::vector<function_call_content> calls);

} // namespace forma::chat_detail
