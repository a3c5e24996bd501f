#pragma once

#include <forma/json/json_error.hpp>

namespace forma {

/** Arguments a tool cannot read: thrown by a tool's invoker (make_tool's do it for
    arguments that are not JSON or do not fit the tool's type or schema). The loop
    tells the model what() (where and what was expected) as the call's result.
*/
class tool_arguments_error : public json_error {
public:
    using json_error::json_error;
    explicit tool_arguments_error(const json_error& e) : json_error(e) {}
    ~tool_arguments_error() override;
};

} // namespace forma
