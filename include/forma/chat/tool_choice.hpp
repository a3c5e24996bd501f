#pragma once

#include <string>
#include <utility>

namespace forma {

/// How a model may use the tools it is offered (see tool_choice).
enum class tool_choice_mode {
    /// The model decides whether to call tools (OpenAI's "auto").
    automatic,
    /// The model must answer without calling a tool.
    none,
    /// The model must call at least one tool.
    required,
    /// The model must call the tool named by tool_choice::function_name().
    function,
};

/** Whether and which tools the model must call: `chat_options::tool_choice`.

        options.tool_choice = forma::tool_choice::function("get_weather");
*/
class tool_choice {
public:
    /// The model decides (the provider's default when tools are offered).
    static tool_choice automatic() { return tool_choice(tool_choice_mode::automatic); }
    static tool_choice none() { return tool_choice(tool_choice_mode::none); }
    static tool_choice required() { return tool_choice(tool_choice_mode::required); }
    /// The model must call the tool named `name`, which must be among the tools offered.
    static tool_choice function(std::string name) {
        return tool_choice(tool_choice_mode::function, std::move(name));
    }

    tool_choice_mode mode() const noexcept { return mode_; }
    /// The tool's name for tool_choice_mode::function, else empty.
    const std::string& function_name() const noexcept { return function_name_; }

    friend bool operator==(const tool_choice&, const tool_choice&) = default;

private:
    explicit tool_choice(tool_choice_mode mode, std::string name = {})
        : mode_(mode), function_name_(std::move(name)) {}

    tool_choice_mode mode_;
    std::string function_name_;
};

} // namespace forma
