#pragma once

#include <forma/chat/chat_client.hpp>
#include <forma/mcp/sampling.hpp>

#include <boost/asio/awaitable.hpp>

#include <functional>
#include <memory>

namespace forma::mcp {

/** client_options::on_sampling answered by `model`: the request's messages, system prompt (as
    instructions), maxTokens, temperature and stop sequences become one get_response; the answer
    is the response's last message (its text, images and audio), the model is the client's
    provider().default_model, the stop reason `maxTokens` when the output was cut, else
    `endTurn`. An MCP server's tools then run on this client's model.
*/
std::function<boost::asio::awaitable<sampling_result>(sampling_request)> sample_with(std::shared_ptr<chat_client> model);

} // namespace forma::mcp
