#pragma once
// Validation retries: an answer that breaks its format goes back to the model with the
// errors found, and the model answers again (chat_client_agent, structured_output_agent).

#include <forma/agent/agent_run_options.hpp>
#include <forma/agent/output_validator.hpp>
#include <forma/chat/chat_client.hpp>
#include <forma/chat/update_stream.hpp>
#include <forma/model/agent_response.hpp>
#include <forma/model/chat_message.hpp>

#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace forma::agent_detail {

/// How a run checks its answers, and how many more times it may ask again.
class output_retry {
public:
    output_retry() = default;
    /// For a run that sends `request`: its format is checked by the run's validator, or
    /// for_format(); retries are the run's, or `default_retries`. None for text formats.
    output_retry(const agent_run_options& run, const chat_options& request, std::size_t default_retries);

    /** The user message that sends `answer`'s errors back, when the answer must be asked
        for again (it breaks its format and a retry is left; it is no refusal, not cut by
        the token limit, not unfinished, and asks no approvals); counts the retry.
    */
    std::optional<chat_message> correction_for(const agent_response<>& answer);

    bool may_retry() const noexcept { return retries_left_ > 0; }

private:
    output_validator validator_;
    std::size_t retries_left_ = 0;
};

/** `client`'s answer to `request`, asked again with the errors while `retry` finds some:
    every attempt and correction stays in the response. `request` is used in place (no copy
    of its options per layer): the caller's local, alive until the operation completes.
*/
boost::asio::awaitable<agent_response<>> get_checked_response(chat_client& client, chat_request& request,
                                                              output_retry retry);

/// The streaming form: each attempt's updates pass through; a correction is an update of
/// role user with the output_errors_content, and the next attempt streams after it.
update_stream get_checked_streaming_response(chat_client& client, chat_request request, output_retry retry);

} // namespace forma::agent_detail
