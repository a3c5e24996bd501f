#include <forma/agent/as_tool.hpp>

#include <boost/describe/class.hpp>

namespace forma {
namespace agent_detail {
namespace {

struct agent_input {
    std::string input;
};
BOOST_DESCRIBE_STRUCT(agent_input, (), (input))

} // namespace

boost::asio::awaitable<boost::json::value> run_agent(agent& inner, std::string input, const agent_run_options& options,
                                                     const tool_invocation& call) {
    agent_run_options run = options;
    if (call.context.trace) run.context = call.context;
    agent_response<> response = co_await inner.run(std::move(input), nullptr, std::move(run));
    co_return boost::json::value(response.text());
}

std::string tool_name(const agent& inner, const agent_tool_options& options) {
    return options.name.empty() ? std::string(inner.name()) : options.name;
}

std::string tool_description(const agent& inner, const agent_tool_options& options) {
    return options.description.empty() ? std::string(inner.description()) : options.description;
}

} // namespace agent_detail

function_tool as_tool(agent& inner, agent_tool_options options) {
    std::string name = agent_detail::tool_name(inner, options);
    std::string description = agent_detail::tool_description(inner, options);
    boost::json::object input{{"type", "string"}};
    if (!options.input_description.empty()) input["description"] = options.input_description;
    boost::json::object parameters{{"type", "object"},
                                   {"properties", boost::json::object{{"input", std::move(input)}}},
                                   {"required", boost::json::array{"input"}},
                                   {"additionalProperties", false}};
    function_tool::invoker_type invoker = [&inner, run_options = std::move(options.run_options)](
                                              const tool_invocation& call) -> boost::asio::awaitable<boost::json::value> {
        agent_detail::agent_input input = chat_detail::read_arguments<agent_detail::agent_input>(call.arguments);
        co_return co_await agent_detail::run_agent(inner, std::move(input.input), run_options, call);
    };
    return function_tool(std::move(name), std::move(description), std::move(parameters), std::move(invoker),
                         options.tool);
}

} // namespace forma
