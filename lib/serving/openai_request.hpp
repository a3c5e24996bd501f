#pragma once
// What an OpenAI client asks (a Chat Completions or a Responses request body) as a run's input
// and options: the server's reading of the requests forma's OpenAI clients write.

#include <forma/agent/agent_run_options.hpp>
#include <forma/model/chat_message.hpp>

#include "openai_request_body.hpp"
#include "request_error.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace forma::serving::detail {

struct run_request {
    std::vector<chat_message> input;
    agent_run_options options;
    std::string model;
    bool stream = false;
    bool include_usage = false;             ///< chat: stream_options.include_usage
    bool background = false;                ///< responses
    bool store = true;                      ///< responses: false, its run ends when its caller leaves
    std::string previous_response_id{};     ///< responses
};

/// POST /chat/completions: the body's JSON read into `out`, a run_request as constructed (filled
/// in place: the request is large, and a server reads one per request). @throws request_error.
void read_chat_request(std::string_view body, run_request& out);
/// A Responses body's JSON read, every member's type checked. @throws request_error naming the member.
responses_request_body read_responses_body(std::string_view json);
/// POST /responses: what read_responses_body read (its strings are moved out). @throws request_error.
run_request read_responses_request(responses_request_body& body);

/** The caller's answers to the approval requests the endpoints sent as tool calls: a tool
    result {"approved": bool, "reason"?: string} for a call in `input`, or for one of `pending`
    (the requests of the response continued), becomes an approval response, and the call in
    `input` the approval request it answers. (POST /responses reads them once it knows `pending`.)
    @throws request_error (naming `param`) for a tool result whose call id is neither pending nor
    a call in `input`, a call answered twice, a pending call left unanswered or answered with
    something other than a decision.
*/
void read_approval_answers(std::vector<chat_message>& input, const std::vector<function_approval_request_content>& pending,
                           std::string_view param);

} // namespace forma::serving::detail
