#pragma once

#include <forma/agent/agent.hpp>
#include <forma/chat/make_tool.hpp>

#include <string>

namespace forma {

/// How as_tool presents an agent to the model, and how each call runs it.
struct agent_tool_options {
    /// The tool's name; the agent's name when empty (it must then be one the API accepts).
    std::string name{};
    /// The tool's description; the agent's description when empty.
    std::string description{};
    /// The description of the `input` argument of as_tool without a type.
    std::string input_description = "The request for the agent, in plain words";
    /// Approval and timeout, as for any tool.
    function_tool_options tool{};
    /// The options of each run of the agent (its chat options, a response format).
    agent_run_options run_options{};
};

namespace agent_detail {

/// Runs `inner` on `input` for a call and returns its answer's text, the call's span as the run's parent.
boost::asio::awaitable<boost::json::value> run_agent(agent& inner, std::string input,
                                                     const agent_run_options& options, const tool_invocation& call);

/// The tool's name and description: the options', else the agent's.
std::string tool_name(const agent& inner, const agent_tool_options& options);
std::string tool_description(const agent& inner, const agent_tool_options& options);

} // namespace agent_detail

/** An agent as a tool (the records' "sub agents"): the model calls it with
    `{"input": "..."}`, the agent runs on that input in a fresh session, and the
    model reads its answer's text(). With telemetry on, the agent's spans nest
    under the call's `execute_tool` span.

        forma::function_tool researcher = forma::as_tool(research_agent, {.description = "Finds facts"});
        forma::chat_client_agent writer(client, {.name = "writer", .tools = {researcher}});

    The agent is not owned: it must outlive the tool and its copies.
    @throws error when the name (the agent's, unless options give one) is not one
    OpenAI-compatible APIs accept.
*/
function_tool as_tool(agent& inner, agent_tool_options options = {});

/** An agent as a tool taking a described struct: the model's arguments are read
    as an `Input` (json_schema<Input> in the strict dialect), and the agent runs on
    the Input written as JSON text.
*/
template <class Input>
function_tool as_tool(agent& inner, agent_tool_options options = {}) {
    std::string name = agent_detail::tool_name(inner, options);
    std::string description = agent_detail::tool_description(inner, options);
    const function_tool_options tool_options = options.tool;
    function_tool::invoker_type invoker = [&inner, run_options = std::move(options.run_options)](
                                              const tool_invocation& call) -> boost::asio::awaitable<boost::json::value> {
        const Input input = chat_detail::read_arguments<Input>(call.arguments);
        co_return co_await agent_detail::run_agent(inner, to_json(input), run_options, call);
    };
    return function_tool(std::move(name), std::move(description),
                         json_schema<Input>({.dialect = schema_dialect::openai_strict}), std::move(invoker),
                         tool_options);
}

} // namespace forma
