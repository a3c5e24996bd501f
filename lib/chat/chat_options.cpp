#include <forma/chat/chat_options.hpp>

#include <algorithm>

namespace forma {

chat_options merge(const chat_options& base, const chat_options& overrides) {
    chat_options out = base;
    if (!overrides.model.empty()) out.model = overrides.model;
    if (!overrides.instructions.empty())
        out.instructions = base.instructions.empty() ? overrides.instructions
                                                     : base.instructions + "\n\n" + overrides.instructions;
    if (overrides.temperature) out.temperature = overrides.temperature;
    if (overrides.top_p) out.top_p = overrides.top_p;
    if (overrides.max_output_tokens) out.max_output_tokens = overrides.max_output_tokens;
    for (const auto& stop : overrides.stop_sequences)
        if (std::find(out.stop_sequences.begin(), out.stop_sequences.end(), stop) == out.stop_sequences.end())
            out.stop_sequences.push_back(stop);
    if (overrides.seed) out.seed = overrides.seed;
    if (overrides.response_format) out.response_format = overrides.response_format;
    if (overrides.structured_output_mode) out.structured_output_mode = overrides.structured_output_mode;
    for (const function_tool& tool : overrides.tools) {
        auto same_name = std::find_if(out.tools.begin(), out.tools.end(),
                                      [&](const function_tool& t) { return t.name() == tool.name(); });
        if (same_name != out.tools.end())
            *same_name = tool;
        else
            out.tools.push_back(tool);
    }
    if (overrides.tool_choice) out.tool_choice = overrides.tool_choice;
    if (overrides.parallel_tool_calls) out.parallel_tool_calls = overrides.parallel_tool_calls;
    if (overrides.continuation_token) out.continuation_token = overrides.continuation_token;
    out.allow_background_responses = base.allow_background_responses || overrides.allow_background_responses;
    for (const auto& property : overrides.additional_properties)
        out.additional_properties[property.key()] = property.value();
    return out;
}

} // namespace forma
