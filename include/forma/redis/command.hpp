#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace forma::redis {

/** A Redis command: its name and arguments, each sent as a bulk string (any bytes).
    @code
    redis::command set("SET", key, value, "PX", 5000);
    @endcode
*/
class command {
public:
    template <class... Args>
    explicit command(std::string_view name, const Args&... args) {
        arguments_.reserve(1 + sizeof...(Args));
        arguments_.emplace_back(name);
        (arg(args), ...);
    }

    /// A command from its name and arguments in one vector, the name first (not empty).
    explicit command(std::vector<std::string> name_and_arguments) : arguments_(std::move(name_and_arguments)) {
        if (arguments_.empty()) arguments_.emplace_back();
    }

    command& arg(std::string_view value) {
        arguments_.emplace_back(value);
        return *this;
    }
    command& arg(const char* value) { return arg(std::string_view(value)); }
    command& arg(const std::string& value) { return arg(std::string_view(value)); }
    command& arg(std::string&& value) {
        arguments_.push_back(std::move(value));
        return *this;
    }
    template <std::integral Integer>
    command& arg(Integer value) {
        arguments_.push_back(std::to_string(value));
        return *this;
    }

    /// The name first, then the arguments.
    const std::vector<std::string>& arguments() const noexcept { return arguments_; }
    /// The command's name as given ("GET").
    const std::string& name() const noexcept { return arguments_.front(); }
    /// The name and arguments, moved out (to build another command of them without copies).
    std::vector<std::string> take_arguments() && { return std::move(arguments_); }

private:
    std::vector<std::string> arguments_;
};

} // namespace forma::redis
