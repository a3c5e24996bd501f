#include <forma/chat/answer_tool.hpp>

#include <forma/chat/function_tool.hpp>
#include <forma/error.hpp>
#include <forma/json/schema_error.hpp>

#include <boost/asio/awaitable.hpp>

#include <algorithm>
#include <variant>

namespace forma {

std::string_view answer_tool_name(const chat_options& options) noexcept {
    const bool tool_mode = options.structured_output_mode == structured_output_mode::tool;
    const bool json_schema = options.response_format && options.response_format->kind() == response_format_kind::json_schema;
    return tool_mode && json_schema ? final_result_tool_name : std::string_view();
}

chat_options with_answer_tool(const chat_options& options) {
    const std::string name(final_result_tool_name);
    if (std::any_of(options.tools.begin(), options.tools.end(), [&](const function_tool& t) { return t.name() == name; }))
        throw error("chat_options::tools has a tool named \"" + name + "\", the name structured_output_mode::tool "
                    "gives the tool that carries the answer: rename the tool, or use structured_output_mode::native");
    const response_format& format = *options.response_format;
    std::string description = format.description().empty()
                                  ? "Give your final answer by calling this tool: its arguments are the answer."
                                  : format.description();
    chat_options out = options;
    out.response_format.reset();
    const bool other_tools = !out.tools.empty();
    try {
        out.tools.emplace_back(name, std::move(description), format.schema(),
                               [](const tool_invocation&) -> boost::asio::awaitable<boost::json::value> {
                                   // The client reads the call as the answer; no tool loop sees it.
                                   throw error("final_result carries the answer and is never run");
                               });
    } catch (const schema_error& e) { // a caller's schema that is not an object schema (run<T> wraps its own)
        throw schema_error("structured_output_mode::tool cannot send the response format \"" + format.name() +
                           "\": " + e.what() + ". Give it an object schema, or use structured_output_mode::native");
    }
    const bool names_another = out.tool_choice && out.tool_choice->mode() == tool_choice_mode::function;
    if (!names_another) {
        // The other tools may come first; without them (or with none of them to be called) the
        // answer tool is alone, and "required" forces it: servers that take no named choice
        // (llama.cpp's falls back to "auto") take "required".
        if (other_tools && out.tool_choice == tool_choice::none()) out.tools.erase(out.tools.begin(), out.tools.end() - 1);
        out.tool_choice = tool_choice::required();
    }
    // The answer tool alone is called once: one answer, and servers that follow the flag
    // (OpenAI; llama.cpp's grammar) stop after that call instead of calling it again.
    if (out.tools.size() == 1 && !out.parallel_tool_calls) out.parallel_tool_calls = false;
    return out;
}

const chat_options& options_as_sent(const chat_options& requested, std::optional<chat_options>& storage) {
    if (answer_tool_name(requested).empty()) return requested;
    return storage.emplace(with_answer_tool(requested));
}

agent_response<> answer_from_call(agent_response<> response, std::string_view tool) {
    if (tool.empty()) return response;
    bool calls_left = false;
    for (chat_message& message : response.messages)
        for (content& c : message.contents) {
            auto* call = std::get_if<function_call_content>(&c);
            if (!call) continue;
            if (call->name == tool) c = text_content(tool_arguments_text(*call));
            else calls_left = true;
        }
    if (!calls_left && response.finish_reason == finish_reason::tool_calls()) response.finish_reason = finish_reason::stop();
    return response;
}

} // namespace forma
