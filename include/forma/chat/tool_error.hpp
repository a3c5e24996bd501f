#pragma once

#include <forma/chat/tool_arguments_error.hpp>
#include <forma/error.hpp>
#include <forma/json/json_error.hpp>

#include <string>

namespace forma {

/** The tool loop stopped a run: past one of its documented limits (too many
    failed calls in a row, a model that keeps calling tools when told not to), or
    for a call it cannot answer (a call without an id, two calls sharing one, an
    approval answer that matches no request). What the model can fix (bad
    arguments, an unknown tool, a failing tool) never throws: the model is told.
*/
class tool_error : public error {
public:
    explicit tool_error(const std::string& message, std::string tool_name = {}, std::string call_id = {});
    ~tool_error() override;

    /// The tool of the call that stopped the run; empty when no one call did.
    const std::string& tool_name() const noexcept { return tool_name_; }
    const std::string& call_id() const noexcept { return call_id_; }

private:
    std::string tool_name_;
    std::string call_id_;
};

} // namespace forma
