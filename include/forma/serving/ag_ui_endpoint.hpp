#pragma once

#include <forma/agent/agent.hpp>
#include <forma/agent/session_store.hpp>
#include <forma/agent/task_store.hpp>
#include <forma/model/response_format.hpp>
#include <forma/net/http_routes.hpp>

#include <memory>
#include <optional>
#include <string>

namespace forma::serving {

struct ag_ui_options {
    /// Where RunAgentInput is posted.
    std::string path = "/ag-ui";
    /// The format of the agent's answers (a typed agent's JSON Schema): a run's answer is then
    /// also its STATE_SNAPSHOT and RUN_FINISHED's result.
    std::optional<forma::response_format> answer_format{};
    /// Where runs live while they go on and while they wait for an answer; in memory when null.
    std::shared_ptr<task_store> tasks{};
    /// Where the conversation of a run waiting for an answer lives; in memory when null.
    std::shared_ptr<session_store> sessions{};
};

/** Serves an agent over AG-UI (the Agent-User Interaction protocol, 1.0), for front ends:

        forma::serving::ag_ui_endpoint ag_ui(agent);
        forma::net::http_server http(executor, ag_ui.routes());
        // new HttpAgent({url: "http://host/ag-ui"}).runAgent()

    POST <path> takes a RunAgentInput and answers with its events over SSE: RUN_STARTED, the
    answer's text (TEXT_MESSAGE_START, _CONTENT, _END) and reasoning (REASONING_*), each tool
    call (TOOL_CALL_START, _ARGS, _END, TOOL_CALL_RESULT), and RUN_FINISHED with the usage, or
    RUN_ERROR when the run fails.
    - Runs are stateless, as AG-UI's are: `messages` is the whole conversation. The `state` and
      the `context` entries reach the agent as a system message before it; `forwardedProps`
      reach it as the run option `ag_ui.forwarded_props`.
    - A tool call that needs approval, or a question (awaits_input), pauses the run:
      RUN_FINISHED's outcome is `interrupt`, an interrupt per approval request ({approved,
      reason?} answers it) or one for the question (a string answers it). The next run's
      `resume` entries answer them and the paused run goes on where it stopped; a cancelled
      approval is a rejection, a cancelled question ends the run.
    - A typed agent's answer (`answer_format`) is also a STATE_SNAPSHOT and RUN_FINISHED's result.
    - A client that goes away cancels its run (RUN_FINISHED's outcome is then `cancelled` for
      whoever still reads).
    - Front-end tools (`tools`) are refused (400): the agent's own tools run on the server.
    - A request that cannot be run gets {"error": {"message", "status"}} with 400 (malformed),
      404 (an unknown interrupt), 409 (an interrupt already answered) or 415.
    `served` must outlive the endpoint and every request it answers.
*/
class ag_ui_endpoint {
public:
    explicit ag_ui_endpoint(forma::agent& served, ag_ui_options options = {});
    ~ag_ui_endpoint();
    ag_ui_endpoint(const ag_ui_endpoint&) = delete;
    ag_ui_endpoint& operator=(const ag_ui_endpoint&) = delete;

    net::http_routes routes() const;

private:
    struct state;
    std::shared_ptr<state> state_;
};

} // namespace forma::serving
