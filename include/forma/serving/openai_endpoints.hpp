#pragma once

#include <forma/agent/agent.hpp>
#include <forma/agent/session_store.hpp>
#include <forma/agent/task_store.hpp>
#include <forma/net/http_routes.hpp>

#include <memory>
#include <string>

namespace forma::serving {

struct openai_endpoints_options {
    /// Where the endpoints are: <base_path>/chat/completions, <base_path>/responses, <base_path>/models.
    std::string base_path = "/v1";
    /// The model name the answers report and /models lists; the agent's name when empty.
    std::string model{};
    /// Where Responses live (background runs, retrieve, cancel, stream resume); in memory when null.
    std::shared_ptr<task_store> tasks{};
    /// Where conversations continued with previous_response_id live; in memory when null.
    std::shared_ptr<session_store> sessions{};
};

/** Serves an agent as an OpenAI-compatible model, so that any OpenAI SDK calls it:

        forma::serving::openai_endpoints openai(agent);
        forma::net::http_server http(executor, openai.routes());
        // client.chat.completions.create({model: "forma", messages: [...]})

    - POST /chat/completions: the request's messages are the run's input (system and
      developer, user, assistant with tool_calls, tool results), whole or streamed (chunks,
      `stream_options.include_usage`, `data: [DONE]`). `response_format` (text, json_object,
      json_schema) is the run's response format; temperature, top_p, max_tokens /
      max_completion_tokens, stop and seed are its chat options. The agent's tools run inside
      the agent: a request's own `tools` are refused (400).
    - POST /responses: `input` (text or messages) and `instructions`, `text.format`, whole or
      streamed (the Responses events, numbered). `background: true` returns the response
      queued; GET /responses/{id} retrieves it, `?stream=true&starting_after=N` streams its
      events after N (a dropped stream resumed), POST /responses/{id}/cancel cancels it.
      `previous_response_id` continues that response's conversation (its session).
    - A tool call that needs approval is a tool call to the caller (Chat Completions'
      `tool_calls`, a Responses `function_call` item), answered by its result {"approved": bool,
      "reason"?: string} (a `tool` message, or a `function_call_output` after
      previous_response_id): the approved call runs in the agent.
    - GET /models lists the one model.
    - Errors are OpenAI's error object ({"error": {"message", "type", "param", "code"}}) with the
      status an OpenAI server gives: 400 invalid_request_error (a member read of another type
      than OpenAI's, named in `param`), 404 for an unknown response,
      500 server_error when the run fails before answering.
    `served` must outlive the endpoints and every request they answer.
*/
class openai_endpoints {
public:
    explicit openai_endpoints(forma::agent& served, openai_endpoints_options options = {});
    ~openai_endpoints();
    openai_endpoints(const openai_endpoints&) = delete;
    openai_endpoints& operator=(const openai_endpoints&) = delete;

    net::http_routes routes() const;

private:
    struct state;
    std::shared_ptr<state> state_;
};

} // namespace forma::serving
