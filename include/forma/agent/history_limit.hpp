#pragma once

#include <forma/chat/token_estimator.hpp>
#include <forma/model/chat_message.hpp>

#include <cstddef>
#include <vector>

namespace forma {

/** How much of a conversation's history a run sends. The newest messages are kept, as many
    as the limits allow; older ones are left out, oldest first. Whatever the limits:
    - system messages stay (they count against neither limit);
    - an assistant message that calls functions and the tool messages with their results
      are kept or left out together, so the model never sees a call without its result;
    - the run's own new messages are sent, even when they alone are past a limit.
*/
struct history_limit {
    /// Messages at most (system ones not counted); 0: no limit.
    std::size_t max_messages = 0;
    /// Estimated tokens at most (token_estimator; system messages not counted); 0: no limit.
    std::size_t max_tokens = 0;
    /// Trim the session's stored history to the same limits after each run, too (else the
    /// session keeps everything and only what is sent is limited). The run's own exchange stays.
    bool trim_stored_history = false;

    friend bool operator==(const history_limit&, const history_limit&) = default;
};

/** The messages of `history` to send under `limit`, in their order; the last `keep_last`
    (the run's new messages) are kept whatever the limits.
*/
std::vector<chat_message> limit_history(const std::vector<chat_message>& history, const history_limit& limit,
                                        const token_estimator& estimator, std::size_t keep_last = 0);

} // namespace forma
