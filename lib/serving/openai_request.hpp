#pragma once
// What an OpenAI client asks (a Chat Completions or a Responses request body) as a run's input
// and options: the server's reading of the requests forma's OpenAI clients write.

#include <forma/agent/agent_run_options.hpp>
#include <forma/model/chat_message.hpp>

#include <boost/json/object.hpp>

#include <string>
#include <vector>

namespace forma::serving::detail {

/// A request that cannot be served: the OpenAI `param` at fault and why (400 invalid_request_error).
struct request_error {
    std::string param;
    std::string message;
};

struct run_request {
    std::vector<chat_message> input;
    agent_run_options options;
    std::string model;
    bool stream = false;
    bool include_usage = false;             ///< chat: stream_options.include_usage
    bool background = false;                ///< responses
    std::string previous_response_id{};     ///< responses
};

/// POST /chat/completions. @throws request_error.
run_request read_chat_request(const boost::json::object& body);
/// POST /responses. @throws request_error.
run_request read_responses_request(const boost::json::object& body);

} // namespace forma::serving::detail
